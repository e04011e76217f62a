import RefreshCore
import Testing

/// Which components are held back while another refreshes.
struct ExclusivityCase: Sendable, CustomTestStringConvertible {
    var name: String
    var refreshing: [Bool]
    var allowsSimultaneous = false
    var blocked: [Bool]

    var testDescription: String { name }
}

@Suite("RefreshExclusivity and blocked machines: one refresh at a time unless allowed")
struct RefreshExclusivityTests {
    static let cases: [ExclusivityCase] = [
        ExclusivityCase(name: "nothing refreshing holds nobody back",
                        refreshing: [false, false], blocked: [false, false]),
        ExclusivityCase(name: "a refreshing header holds the footer back, not itself",
                        refreshing: [true, false], blocked: [false, true]),
        ExclusivityCase(name: "a loading footer holds the header back",
                        refreshing: [false, true], blocked: [true, false]),
        ExclusivityCase(name: "header, footer and trailer: one refreshing holds the two others back",
                        refreshing: [false, true, false], blocked: [true, false, true]),
        ExclusivityCase(name: "two refreshing at once (the app began both) hold each other back",
                        refreshing: [true, true], blocked: [true, true]),
        ExclusivityCase(name: "the option lets every component start while another refreshes",
                        refreshing: [true, false], allowsSimultaneous: true, blocked: [false, false]),
        ExclusivityCase(name: "a lone component is never held back",
                        refreshing: [true], blocked: [false]),
        ExclusivityCase(name: "no components, nothing to decide", refreshing: [], blocked: []),
    ]

    @Test(arguments: cases)
    func blocked(_ scenario: ExclusivityCase) {
        #expect(RefreshExclusivity.blocked(refreshing: scenario.refreshing,
                                           allowsSimultaneous: scenario.allowsSimultaneous) == scenario.blocked)
    }

    @Test("a blocked pull moves the content but never passes the threshold, and springs back")
    func blockedPullSpringsBack() {
        var machine = RefreshMachine(extent: 44)
        #expect(machine.handle(.blocked(true)) == [])
        _ = machine.handle(.pullBegan)
        let pulled = machine.handle(.pulled(offset: 90))
        #expect(pulled == [.setOffset(90), .pullingPercentChanged(90.0 / 44)])
        #expect(machine.state == .idle)
        let released = machine.handle(.released(velocity: 0))
        #expect(released == [.animate(to: 0, duration: 0.25, purpose: .springBack)])
        #expect(!released.contains(.runRefreshAction))
    }

    @Test("blocked during a pull past the threshold: it says idle at once, moves keep it so, letting go springs back")
    func blockedDuringPull() {
        var machine = RefreshMachine(extent: 44)
        _ = machine.handle(.pullBegan)
        _ = machine.handle(.pulled(offset: 90))
        #expect(machine.state == .pulling)
        #expect(machine.handle(.blocked(true)) == [.stateChanged(from: .pulling, to: .idle)])
        #expect(machine.handle(.pulled(offset: 95)) == [.setOffset(95), .pullingPercentChanged(95.0 / 44)])
        #expect(machine.handle(.released(velocity: 0)) == [.animate(to: 0, duration: 0.25, purpose: .springBack)])
        #expect(machine.state == .idle)
    }

    @Test("a blocked flick short of the threshold does not refresh either")
    func blockedFlick() {
        var machine = RefreshMachine(extent: 54)
        _ = machine.handle(.blocked(true))
        _ = machine.handle(.pullBegan)
        _ = machine.handle(.pulled(offset: 50))
        let released = machine.handle(.released(velocity: 2000))
        #expect(machine.state == .idle)
        #expect(!released.contains(.runRefreshAction))
    }

    @Test("the app's own begin still begins while blocked")
    func appBeginIsHonoured() {
        var machine = RefreshMachine(extent: 54)
        _ = machine.handle(.blocked(true))
        let effects = machine.handle(.beginRefreshing(isMapped: true))
        #expect(machine.state == .refreshing)
        #expect(effects.contains(.animate(to: 54, duration: 0.25, purpose: .reveal)))
    }

    @Test("unblocked again, the same pull refreshes")
    func unblockedRefreshes() {
        var machine = RefreshMachine(extent: 44)
        _ = machine.handle(.blocked(true))
        _ = machine.handle(.blocked(false))
        _ = machine.handle(.pullBegan)
        _ = machine.handle(.pulled(offset: 90))
        _ = machine.handle(.released(velocity: 0))
        #expect(machine.state == .refreshing)
    }

    @Test("a blocked auto footer shows when scrolled to, but neither the reveal nor a tap loads")
    func blockedAutoFooter() {
        var driver = Driver(AutoFooterMachine(extent: 44))
        driver.run([.send(.blocked(true)), .input, .at(300), .at(0), .settle, .reveal(44), .tap])
        #expect(driver.state == .idle)
        #expect(driver.offset == 44)
        #expect(driver.callbacks == [])
        driver.run(.begin)
        #expect(driver.state == .refreshing, "the app's begin still loads")
        #expect(driver.callbacks == Callback.began)
    }

    @Test("an auto footer grows with its indicator and stays fully shown")
    func autoFooterExtentChanges() {
        var driver = Driver(AutoFooterMachine(extent: 44))
        driver.run([.input, .reveal(44), .send(.extentChanged(60))])
        #expect(driver.machine.extent == 60)
        #expect(driver.offset == 60)
        #expect(driver.pullingPercent == 1)
        #expect(driver.violations == [])

        var partial = Driver(AutoFooterMachine(extent: 44))
        partial.run([.input, .reveal(20), .send(.extentChanged(60))])
        #expect(partial.offset == 20, "a partly revealed footer keeps its pixels")
        #expect(partial.state == .idle)
    }
}
