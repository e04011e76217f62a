import RefreshCore
import Testing

/// A step of an auto footer scenario: the same events as a header's.
typealias FooterStep = Step

extension Script where Event == RefreshEvent {
    /// User input began: a press, a touchpad sequence, a wheel click.
    static var input: FooterStep { .send(.gestureBegan) }
    /// Input holds the footer revealed this far past the content's end.
    static func reveal(_ offset: Double) -> FooterStep { .send(.pulled(offset: offset)) }
    static var letGo: FooterStep { .send(.released(velocity: 0)) }
    static func inputEnded(towardsEnd: Bool) -> FooterStep { .send(.gestureEnded(movingOpen: towardsEnd)) }
    /// The content is `distance` pixels from its end (taller than the view unless `fits`).
    static func at(_ distance: Double, fits: Bool = false) -> FooterStep {
        .send(.contentScrolled(distance: distance, fitsViewport: fits))
    }
    static var tap: FooterStep { .send(.tapped) }
    static var reset: FooterStep { .send(.resetNoMoreData) }
    static var hide: FooterStep { .send(.hidden(true)) }
    static var show: FooterStep { .send(.hidden(false)) }
}

/// A scenario for a 44-pixel auto footer and what the user and the app see after it.
struct FooterCase: Sendable, CustomTestStringConvertible {
    var name: String
    var autoTriggerTimes = 1
    var triggerPercent = 1.0
    var automaticallyRefresh = true
    var steps: [FooterStep]
    var state: RefreshState
    var offset: Double?
    /// The app's callbacks in order; nil to leave unchecked.
    var callbacks: [Callback]?
    var animating: RefreshAnimation?
    var lastEffects: [RefreshEffect]?
    var scrolledBack = 0.0

    var testDescription: String { name }
}

/// The callbacks of a footer load that ended: the footer stays put, so they all come at once.
private let loadEnded: [Callback] = [.endingAnimationBegins, .endCompletion, .afterEnding]
private let loaded = Callback.began
private let f = 44.0

@Suite("AutoFooterMachine: loads when scrolled into view, once per gesture")
struct AutoFooterMachineTests {
    static let cases: [FooterCase] = [
        // Tall content
        FooterCase(name: "scrolling on to the end carries into the footer, then loads once",
                   steps: [.input, .at(300), .at(100), .at(0), .settle], state: .refreshing, offset: f,
                   callbacks: loaded),
        FooterCase(name: "the load waits until the whole footer is in view",
                   steps: [.input, .at(300), .at(0), .advance(0.1)], state: .idle, callbacks: [],
                   animating: .reveal),
        FooterCase(name: "a pull past the end loads once the whole footer shows",
                   steps: [.input, .reveal(20), .reveal(43), .reveal(f)], state: .refreshing, offset: f,
                   callbacks: loaded),
        FooterCase(name: "most of the footer is not enough",
                   steps: [.input, .reveal(43), .letGo], state: .idle, offset: 43, callbacks: []),
        FooterCase(name: "the footer never shows more than its height",
                   steps: [.input, .reveal(200)], state: .refreshing, offset: f, callbacks: loaded),
        FooterCase(name: "scrolling towards the end short of the footer does not load",
                   steps: [.input, .at(300), .at(100), .at(1)], state: .idle, offset: 0, callbacks: []),
        FooterCase(name: "the end of a gesture loads nothing by itself when the content is tall",
                   steps: [.at(300), .input, .inputEnded(towardsEnd: true)], state: .idle, callbacks: []),

        // The loops users report
        FooterCase(name: "rows appended by a load, then the fling on to the end, do not load again",
                   steps: [.input, .reveal(f), .letGo, .end, .at(300), .at(150), .at(0), .settle],
                   state: .idle, offset: f, callbacks: loaded + loadEnded, scrolledBack: f),
        FooterCase(name: "rows appended while loading turn the footer's space into scrolling, and do not reload",
                   steps: [.input, .reveal(f), .letGo, .at(300), .end, .at(0), .settle],
                   state: .idle, offset: f, callbacks: loaded + loadEnded, scrolledBack: f),
        FooterCase(name: "a new gesture after the appended rows loads again",
                   steps: [.input, .reveal(f), .letGo, .end, .at(300), .at(0), .settle, .input, .reveal(f)],
                   state: .refreshing, offset: f, callbacks: loaded + loadEnded + loaded, scrolledBack: f),
        FooterCase(name: "a finger held at the end does not load again and again",
                   steps: [.input, .reveal(f), .end, .reveal(f), .reveal(f - 1), .reveal(f), .end, .reveal(f)],
                   state: .idle, offset: f, callbacks: loaded + loadEnded),
        FooterCase(name: "autoTriggerTimes 2 loads twice per gesture",
                   autoTriggerTimes: 2,
                   steps: [.input, .reveal(f), .end, .reveal(f), .end, .reveal(f)], state: .idle,
                   callbacks: loaded + loadEnded + loaded + loadEnded),
        FooterCase(name: "autoTriggerTimes -1 loads every time",
                   autoTriggerTimes: -1,
                   steps: [.input, .reveal(f), .end, .reveal(f), .end, .reveal(f)], state: .refreshing,
                   callbacks: loaded + loadEnded + loaded + loadEnded + loaded),

        // Taps and the API
        FooterCase(name: "a tap loads whatever is left of the budget",
                   steps: [.input, .reveal(f), .end, .tap], state: .refreshing,
                   callbacks: loaded + loadEnded + loaded),
        FooterCase(name: "a tap while loading does nothing",
                   steps: [.tap, .settle, .tap], state: .refreshing, callbacks: loaded, lastEffects: []),
        FooterCase(name: "begin loads at once and shows the footer",
                   steps: [.begin], state: .refreshing, offset: 0, callbacks: loaded, animating: .settle),
        FooterCase(name: "begin shows the whole footer",
                   steps: [.begin, .settle], state: .refreshing, offset: f, callbacks: loaded),
        FooterCase(name: "begin while loading is a no-op",
                   steps: [.begin, .settle, .begin], state: .refreshing, callbacks: loaded, lastEffects: []),
        FooterCase(name: "end while idle is a no-op",
                   steps: [.end], state: .idle, offset: 0, callbacks: [], lastEffects: []),
        FooterCase(name: "end completes at once; the footer stays as the list's last row",
                   steps: [.begin, .settle, .end], state: .idle, offset: f, callbacks: loaded + loadEnded),

        // No more data, automatic loading off, hidden
        FooterCase(name: "with no more data it never loads, by itself or by a tap",
                   steps: [.endNoMoreData, .input, .reveal(f), .tap, .at(100), .at(0), .settle],
                   state: .noMoreData, offset: f),
        FooterCase(name: "ending a load with no more data shows so",
                   steps: [.input, .reveal(f), .endNoMoreData], state: .noMoreData, callbacks: loaded + loadEnded),
        FooterCase(name: "after resetNoMoreData it loads again",
                   steps: [.endNoMoreData, .reset, .input, .reveal(f)], state: .refreshing),
        FooterCase(name: "with automatic loading off it never loads by itself",
                   automaticallyRefresh: false,
                   steps: [.input, .reveal(f), .at(300), .at(0), .settle, .reveal(f)], state: .idle, callbacks: []),
        FooterCase(name: "with automatic loading off a tap still loads",
                   automaticallyRefresh: false,
                   steps: [.input, .reveal(f), .tap], state: .refreshing, callbacks: loaded),
        FooterCase(name: "hiding gives the space back and goes back to idle",
                   steps: [.input, .reveal(f), .hide], state: .idle, offset: 0, callbacks: loaded),
        FooterCase(name: "a hidden footer never loads",
                   steps: [.hide, .input, .reveal(f), .tap, .begin, .at(100), .at(0), .settle], state: .idle,
                   offset: 0, callbacks: []),
        FooterCase(name: "shown again, it loads again",
                   steps: [.hide, .show, .input, .reveal(f)], state: .refreshing, offset: f, callbacks: loaded),

        // Short content
        FooterCase(name: "short content: a drag towards the end loads on release, and the footer springs back",
                   steps: [.at(0, fits: true), .input, .reveal(20), .letGo, .inputEnded(towardsEnd: true), .settle],
                   state: .refreshing, offset: 0, callbacks: loaded),
        FooterCase(name: "short content: a drag away from the end does not load",
                   steps: [.at(0, fits: true), .input, .reveal(20), .letGo, .inputEnded(towardsEnd: false),
                           .settle],
                   state: .idle, offset: 0, callbacks: []),
        FooterCase(name: "short content: one load per drag",
                   steps: [.at(0, fits: true), .input, .inputEnded(towardsEnd: true), .end,
                           .inputEnded(towardsEnd: true)],
                   state: .idle, callbacks: loaded + loadEnded),
        FooterCase(name: "short content: each new drag may load",
                   steps: [.at(0, fits: true), .input, .inputEnded(towardsEnd: true), .end, .input,
                           .inputEnded(towardsEnd: true)],
                   state: .refreshing, callbacks: loaded + loadEnded + loaded),

        // Trigger percent
        FooterCase(name: "triggerPercent 0.5: not quite half is not enough",
                   triggerPercent: 0.5, steps: [.input, .reveal(21)], state: .idle, callbacks: []),
        FooterCase(name: "triggerPercent 0.5: half the footer loads",
                   triggerPercent: 0.5, steps: [.input, .reveal(22)], state: .refreshing, callbacks: loaded),
        FooterCase(name: "triggerPercent -1: loads one footer height before the end",
                   triggerPercent: -1, steps: [.input, .at(300), .at(f)], state: .refreshing, offset: 0,
                   callbacks: loaded),
        FooterCase(name: "triggerPercent -1: further away does not load",
                   triggerPercent: -1, steps: [.input, .at(300), .at(100)], state: .idle, callbacks: []),
        FooterCase(name: "triggerPercent -1: scrolling away from the end never loads",
                   triggerPercent: -1, steps: [.input, .at(10), .at(f)], state: .idle, callbacks: []),
    ]

    @Test(arguments: cases)
    func scenario(_ scenario: FooterCase) {
        var machine = AutoFooterMachine(extent: f)
        machine.autoTriggerTimes = scenario.autoTriggerTimes
        machine.triggerPercent = scenario.triggerPercent
        machine.automaticallyRefresh = scenario.automaticallyRefresh
        var driver = Driver(machine)
        driver.run(scenario.steps)

        #expect(driver.state == scenario.state)
        if let offset = scenario.offset {
            #expect(driver.offset == offset)
            #expect(driver.shownOffset == offset)
        }
        if let callbacks = scenario.callbacks { #expect(driver.callbacks == callbacks) }
        #expect(driver.machine.animation == scenario.animating)
        #expect(driver.isAnimating == (scenario.animating != nil))
        if let lastEffects = scenario.lastEffects { #expect(driver.lastEffects == lastEffects) }
        #expect(driver.contentScrolledBack == scenario.scrolledBack)
        #expect(driver.violations == [])
    }

    @Test("defaults are MJRefresh's: loads by itself, when all of it shows, once per gesture")
    func defaults() {
        let machine = AutoFooterMachine(extent: f)
        #expect(machine.automaticallyRefresh)
        #expect(machine.triggerPercent == 1)
        #expect(machine.autoTriggerTimes == 1)
        #expect(!machine.isHidden)
        #expect(machine.state == .idle)
    }

    @Test("the percent is the revealed part of the footer", arguments: [(11.0, 0.25), (22.0, 0.5), (f, 1.0)] as [(Double, Double)])
    func percent(revealed: Double, percent: Double) {
        var machine = AutoFooterMachine(extent: f)
        machine.automaticallyRefresh = false
        var driver = Driver(machine)
        driver.run([.input, .reveal(revealed)])
        #expect(driver.pullingPercent == percent)
    }
}
