import RefreshCore
import Testing

/// A release of a 54-pixel header at `offset`, moving at `velocity`, and what follows it.
struct ReleaseCase: Sendable, CustomTestStringConvertible {
    var name: String
    var offset: Double
    var velocity: Double
    /// Whether letting go starts a refresh.
    var refreshes: Bool
    /// The animation that follows the release, and how long it takes.
    var animation: RefreshAnimation?
    var duration: Double?

    var testDescription: String { name }
}

private let fast = RefreshMachine.Duration.fast

@Suite("Release velocity: a flick refreshes from just short of the threshold, the motion after it starts at its speed")
struct ReleaseMotionTests {
    static let releases: [ReleaseCase] = [
        // Where the release ends up
        ReleaseCase(name: "released past the threshold while still: refreshes, the reveal takes the standard time",
                    offset: 80, velocity: 0, refreshes: true, animation: .reveal, duration: fast),
        ReleaseCase(name: "a slow drag released just short springs back",
                    offset: 48, velocity: 100, refreshes: false, animation: .springBack, duration: fast),
        ReleaseCase(name: "a quick flick released just short carries on past the threshold: refreshes",
                    offset: 48, velocity: 800, refreshes: true, animation: .reveal,
                    duration: PullTuning.shortestReleaseAnimation),
        ReleaseCase(name: "a flick at the least flick speed projected just past the threshold refreshes",
                    offset: 40, velocity: PullTuning.flickVelocity, refreshes: true, animation: .reveal,
                    duration: 3 * 14 / PullTuning.flickVelocity),
        ReleaseCase(name: "just below the least flick speed, the position alone decides",
                    offset: 50, velocity: PullTuning.flickVelocity - 1, refreshes: false, animation: .springBack,
                    duration: fast),
        ReleaseCase(name: "a quick flick released near the edge is no refresh, however fast",
                    offset: 20, velocity: 3000, refreshes: false, animation: .springBack, duration: fast),
        ReleaseCase(name: "a flick whose projection stops short of the threshold springs back",
                    offset: 27, velocity: 300, refreshes: false, animation: .springBack, duration: fast),
        ReleaseCase(name: "moving back towards the edge is never a flick",
                    offset: 50, velocity: -800, refreshes: false, animation: .springBack, duration: 3 * 50 / 800.0),

        // How fast the content goes back
        ReleaseCase(name: "thrown back towards the edge, the spring back starts at the release speed",
                    offset: 40, velocity: -600, refreshes: false, animation: .springBack, duration: 3 * 40 / 600.0),
        ReleaseCase(name: "thrown back very fast, the spring back still takes the shortest release motion",
                    offset: 40, velocity: -20000, refreshes: false, animation: .springBack,
                    duration: PullTuning.shortestReleaseAnimation),
        ReleaseCase(name: "let go slowly towards the edge, the spring back takes no longer than the standard",
                    offset: 40, velocity: -50, refreshes: false, animation: .springBack, duration: fast),
        ReleaseCase(name: "past the threshold and moving back, the reveal down to the height starts at that speed",
                    offset: 90, velocity: -600, refreshes: true, animation: .reveal, duration: 3 * 36 / 600.0),
        ReleaseCase(name: "a release at the edge has nothing to animate",
                    offset: 0, velocity: -400, refreshes: false),
    ]

    @Test(arguments: releases)
    func release(_ scenario: ReleaseCase) {
        var driver = MachineDriver(extent: 54)
        driver.run([.touch, .pull(scenario.offset)])
        driver.send(.released(velocity: scenario.velocity))
        #expect(driver.state == (scenario.refreshes ? .refreshing : .idle))
        let animations = driver.lastEffects.compactMap { effect -> (RefreshAnimation, Double)? in
            guard case let .animate(_, duration, purpose) = effect else { return nil }
            return (purpose, duration)
        }
        #expect(animations.map(\.0) == [scenario.animation].compactMap { $0 })
        if let duration = scenario.duration, let shown = animations.first?.1 {
            #expect(abs(shown - duration) < 1e-9)
        }
        driver.settle()
        #expect(driver.callbacks == (scenario.refreshes ? Callback.began : []))
        #expect(driver.offset == (scenario.refreshes ? 54 : 0))
        #expect(driver.violations == [])
    }

    @Test("while refreshing, a pull released past the height settles at the speed it was let go with")
    func settleFollowsVelocity() {
        var driver = MachineDriver(extent: 54)
        driver.run([.begin, .settle, .touch, .pull(100)])
        driver.send(.released(velocity: -1000))
        #expect(driver.lastEffects == [.animate(to: 54, duration: 3 * 46 / 1000.0, purpose: .settle)])
        #expect(driver.callbacks == Callback.began, "no second refresh")
    }

    @Test("the ease-out's duration matches its starting speed to the release speed", arguments: [
        (40.0, 0.0, -600.0), (0, 54, 900), (90, 54, -300),
    ])
    func durationMatchesSpeed(from: Double, to: Double, velocity: Double) {
        let duration = ReleaseMotion.duration(from: from, to: to, velocity: velocity, standard: 1)
        let animation = OffsetAnimation(from: from, to: to, duration: duration)
        let firstMillisecond = (animation.value(at: 0.001) - from) / 0.001
        #expect(abs(firstMillisecond - velocity) / abs(velocity) < 0.02)
    }

    // MARK: - Cancelling

    @Test("a cancelled pull past the threshold goes back without refreshing", arguments: [0.0, 2000])
    func cancelPastThreshold(velocityBefore: Double) {
        var driver = MachineDriver(extent: 54)
        driver.run([.touch, .pull(80)])
        #expect(driver.state == .pulling)
        driver.send(.pullCancelled)
        #expect(driver.state == .idle)
        #expect(driver.lastEffects == [.stateChanged(from: .pulling, to: .idle),
                                       .animate(to: 0, duration: fast, purpose: .springBack)])
        driver.settle()
        #expect(driver.offset == 0)
        #expect(driver.callbacks == [])
        driver.send(.released(velocity: velocityBefore))
        #expect(driver.callbacks == [], "a release after the cancel belongs to no pull")
    }

    @Test("a cancelled pull past the held height while refreshing settles back to it, with no new refresh")
    func cancelWhileRefreshing() {
        var driver = MachineDriver(extent: 54)
        driver.run([.begin, .settle, .touch, .pull(100), .send(.pullCancelled), .settle])
        #expect(driver.state == .refreshing)
        #expect(driver.offset == 54)
        #expect(driver.callbacks == Callback.began)
    }

    @Test("a refresh begun under the finger, then cancelled, still reveals the whole header")
    func cancelAfterBeginUnderFinger() {
        var driver = MachineDriver(extent: 54)
        driver.run([.touch, .pull(30), .begin, .send(.pullCancelled), .settle])
        #expect(driver.state == .refreshing)
        #expect(driver.offset == 54)
    }

    // MARK: - Through the tracker

    @Test("a real flick through the tracker: fast drag stopping just short refreshes, the same drag done slowly does not",
          arguments: [(0.01, true), (0.06, false)])
    func flickThroughTracker(stepTime: Double, refreshes: Bool) {
        var session = PullSession()
        session.input(.dragBegan(time: 0))
        for step in 1...6 {
            session.input(.dragMoved(along: Double(step) * 8, across: 0, atEdge: true, time: Double(step) * stepTime))
        }
        #expect(session.driver.state == .idle, "48 pixels are short of the 54-pixel threshold")
        session.input(.dragEnded(time: 6 * stepTime + 0.02))
        session.run([.settle])
        #expect(session.driver.callbacks.contains(.refreshAction) == refreshes)
    }
}
