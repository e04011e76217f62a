import RefreshCore
import Testing

/// A scripted scenario for a header of `extent` pixels and what the user and the app see after it.
struct MachineCase: Sendable, CustomTestStringConvertible {
    var name: String
    var extent = 54.0
    var steps: [Step]
    var state: RefreshState
    /// The content's displacement from its edge; nil when it depends on frame timing.
    var offset: Double?
    /// nil when the rules leave it open.
    var percent: Double?
    /// The app's callbacks, in order; nil where a test below checks them.
    var callbacks: [Callback]? = []
    /// The states a state observer saw, starting with the initial idle; nil to leave unchecked.
    var states: [RefreshState]?
    /// The animation still running at the end.
    var animating: RefreshAnimation?
    /// The effects of the last step exactly (e.g. [] for a no-op); nil to leave unchecked.
    var lastEffects: [RefreshEffect]?
    /// Pixels the content was scrolled back because the held space took them.
    var scrolledBack = 0.0

    var testDescription: String { name }
}

private let h = 54.0

@Suite("RefreshMachine: the header's state machine")
struct RefreshMachineTests {
    static let cases: [MachineCase] = [
        // Pulling and thresholds
        MachineCase(name: "pulling below the height stays idle and the percent follows the offset",
                    steps: [.touch, .pull(27)], state: .idle, offset: 27, percent: 0.5, states: [.idle]),
        MachineCase(name: "pulled exactly the height is not yet past the threshold",
                    steps: [.touch, .pull(h)], state: .idle, offset: h, percent: 1, states: [.idle]),
        MachineCase(name: "pulled past the height becomes pulling",
                    steps: [.touch, .pull(27), .pull(81)], state: .pulling, offset: 81, percent: 1.5,
                    states: [.idle, .pulling]),
        MachineCase(name: "pulling drops back to idle at the height",
                    steps: [.touch, .pull(81), .pull(h)], state: .idle, offset: h, percent: 1,
                    states: [.idle, .pulling, .idle]),
        MachineCase(name: "thresholds follow a new height",
                    steps: [.extent(60), .touch, .pull(58)], state: .idle, offset: 58,
                    percent: 58.0 / 60.0, states: [.idle]),
        MachineCase(name: "a taller component needs a longer pull",
                    steps: [.extent(60), .touch, .pull(61)], state: .pulling, offset: 61,
                    states: [.idle, .pulling]),
        MachineCase(name: "a pull without a touch is ignored",
                    steps: [.pull(80)], state: .idle, offset: 0, percent: 0, states: [.idle], lastEffects: []),
        MachineCase(name: "a release without a touch is ignored",
                    steps: [.release], state: .idle, offset: 0, percent: 0, lastEffects: []),

        // Releasing
        MachineCase(name: "release while idle springs back and the percent follows down to 0",
                    steps: Step.gesture(27) + [.settle], state: .idle, offset: 0, percent: 0, states: [.idle]),
        MachineCase(name: "even a tiny pull springs back to exactly 0",
                    steps: Step.gesture(0.5) + [.settle], state: .idle, offset: 0, percent: 0),
        MachineCase(name: "release at rest does nothing",
                    steps: Step.gesture(0), state: .idle, offset: 0, percent: 0, lastEffects: []),
        MachineCase(name: "release while pulling begins refreshing; the action waits for the reveal",
                    steps: Step.gesture(40, 81), state: .refreshing, offset: 81, percent: 1,
                    states: [.idle, .pulling, .refreshing], animating: .reveal),
        MachineCase(name: "release while pulling reveals the header, then calls back once",
                    steps: Step.gesture(40, 81) + [.settle], state: .refreshing, offset: h, percent: 1,
                    callbacks: Callback.began, states: [.idle, .pulling, .refreshing]),
        MachineCase(name: "pulling back under the height before letting go does not refresh",
                    steps: Step.gesture(81, 30) + [.settle], state: .idle, offset: 0, percent: 0,
                    states: [.idle, .pulling, .idle]),

        // Begin
        MachineCase(name: "begin while mapped reveals the header, then runs the action",
                    steps: [.begin, .settle], state: .refreshing, offset: h, percent: 1,
                    callbacks: Callback.began, states: [.idle, .refreshing]),
        MachineCase(name: "begin does not run the action before the reveal ends",
                    steps: [.begin, .advance(0.2)], state: .refreshing, percent: 1,
                    states: [.idle, .refreshing], animating: .reveal),
        MachineCase(name: "begin while refreshing is a no-op",
                    steps: [.begin, .settle, .begin], state: .refreshing, offset: h, percent: 1,
                    callbacks: Callback.began, states: [.idle, .refreshing], lastEffects: []),
        MachineCase(name: "begin during the reveal is a no-op",
                    steps: [.begin, .advance(0.1), .begin, .settle], state: .refreshing, offset: h,
                    callbacks: Callback.began, states: [.idle, .refreshing]),
        MachineCase(name: "begin while the finger holds the content refreshes at once",
                    steps: [.touch, .pull(30), .begin], state: .refreshing, offset: 30, percent: 1,
                    callbacks: Callback.began, states: [.idle, .refreshing]),
        MachineCase(name: "begin while the finger holds past the height settles to the height on release",
                    steps: [.touch, .pull(90), .begin, .release, .settle], state: .refreshing, offset: h,
                    callbacks: Callback.began),

        // Not mapped
        MachineCase(name: "begin while not mapped waits in willRefresh",
                    steps: [.beginUnmapped], state: .willRefresh, offset: 0, states: [.idle, .willRefresh]),
        MachineCase(name: "willRefresh becomes refreshing when mapped",
                    steps: [.beginUnmapped, .mapped, .settle], state: .refreshing, offset: h, percent: 1,
                    callbacks: Callback.began, states: [.idle, .willRefresh, .refreshing]),
        MachineCase(name: "begin while willRefresh is a no-op",
                    steps: [.beginUnmapped, .beginUnmapped], state: .willRefresh, offset: 0, lastEffects: []),
        MachineCase(name: "end during willRefresh goes back to idle",
                    steps: [.beginUnmapped, .end], state: .idle, offset: 0, percent: 0, callbacks: nil,
                    states: [.idle, .willRefresh, .idle]),
        MachineCase(name: "after an end during willRefresh, mapping starts nothing",
                    steps: [.beginUnmapped, .end, .mapped, .settle], state: .idle, offset: 0, percent: 0,
                    callbacks: nil, states: [.idle, .willRefresh, .idle], lastEffects: []),
        MachineCase(name: "mapped while idle does nothing",
                    steps: [.mapped], state: .idle, offset: 0, lastEffects: []),

        // End
        MachineCase(name: "end while idle is a no-op",
                    steps: [.end], state: .idle, offset: 0, percent: 0, states: [.idle], lastEffects: []),
        MachineCase(name: "end while pulling is a no-op",
                    steps: [.touch, .pull(81), .end], state: .pulling, offset: 81, lastEffects: []),
        MachineCase(name: "end after a refresh hides the header and calls back once",
                    steps: [.begin, .settle, .end, .settle], state: .idle, offset: 0, percent: 0,
                    callbacks: Callback.wholeRefresh, states: [.idle, .refreshing, .idle]),
        MachineCase(name: "end records the time and announces the hide before it runs",
                    steps: [.begin, .settle, .end, .advance(0.1)], state: .idle,
                    callbacks: Callback.began + [.recordLastUpdated, .endingAnimationBegins], animating: .hide),
        MachineCase(name: "end twice ends once",
                    steps: [.begin, .settle, .end, .advance(0.1), .end, .settle], state: .idle, offset: 0,
                    percent: 0, callbacks: Callback.wholeRefresh),
        MachineCase(name: "end during the reveal runs the begin callbacks first, each once",
                    steps: [.begin, .advance(0.1), .end, .settle], state: .idle, offset: 0, percent: 0,
                    callbacks: Callback.wholeRefresh, states: [.idle, .refreshing, .idle]),
        MachineCase(name: "end right after begin, before any frame, still calls everything once",
                    steps: [.begin, .end, .settle], state: .idle, offset: 0, percent: 0,
                    callbacks: Callback.wholeRefresh),
        MachineCase(name: "begin during the hide ends the old refresh first and holds the full height",
                    steps: [.begin, .settle, .end, .advance(0.1), .begin, .settle], state: .refreshing,
                    offset: h, percent: 1, callbacks: Callback.wholeRefresh + Callback.began,
                    states: [.idle, .refreshing, .idle, .refreshing]),
        MachineCase(name: "end while the finger holds the content: idle at once, the percent follows the finger",
                    steps: [.begin, .settle, .touch, .pull(81), .end], state: .idle, offset: 81, percent: 1.5,
                    callbacks: Callback.wholeRefresh, states: [.idle, .refreshing, .idle]),
        MachineCase(name: "end while the finger holds the content completes at once; letting go springs back",
                    steps: [.begin, .settle, .touch, .pull(81), .end, .release, .settle], state: .idle,
                    offset: 0, percent: 0, callbacks: Callback.wholeRefresh, states: [.idle, .refreshing, .idle]),

        // Held space while refreshing
        MachineCase(name: "the held space follows the content scrolled away",
                    steps: [.begin, .settle, .scrolled(20)], state: .refreshing, offset: 34, percent: 1,
                    callbacks: Callback.began, scrolledBack: 20),
        MachineCase(name: "the held space never goes below 0",
                    steps: [.begin, .settle, .scrolled(100)], state: .refreshing, offset: 0, percent: 1,
                    callbacks: Callback.began, scrolledBack: h),
        MachineCase(name: "the held space is given back exactly after the end",
                    steps: [.begin, .settle, .scrolled(20), .scrolled(10), .end, .settle], state: .idle,
                    offset: 0, percent: 0, callbacks: Callback.wholeRefresh, scrolledBack: 30),
        MachineCase(name: "an end after the held space scrolled away completes at once",
                    steps: [.begin, .settle, .scrolled(100), .end], state: .idle, offset: 0, percent: 0,
                    callbacks: Callback.wholeRefresh, scrolledBack: h),
        MachineCase(name: "scrolling while the finger holds the content leaves the held space to the finger",
                    steps: [.begin, .settle, .touch, .pull(40), .scrolled(10)], state: .refreshing, offset: 40,
                    callbacks: Callback.began, lastEffects: []),
        MachineCase(name: "scrolling while idle leaves the header alone",
                    steps: [.scrolled(20)], state: .idle, offset: 0, lastEffects: []),
        MachineCase(name: "scrolling during the reveal leaves it alone",
                    steps: [.begin, .advance(0.1), .scrolled(20)], state: .refreshing,
                    animating: .reveal, lastEffects: []),
        MachineCase(name: "a pull while refreshing can shrink the held space, and it stays",
                    steps: [.begin, .settle] + Step.gesture(20), state: .refreshing, offset: 20, percent: 1,
                    callbacks: Callback.began),
        MachineCase(name: "a pull while refreshing past the height settles back to the height without a new refresh",
                    steps: [.begin, .settle] + Step.gesture(70, 100) + [.settle], state: .refreshing,
                    offset: h, percent: 1, callbacks: Callback.began, states: [.idle, .refreshing]),
        MachineCase(name: "the held space follows a new height",
                    steps: [.begin, .settle, .extent(60)], state: .refreshing, offset: 60, percent: 1,
                    callbacks: Callback.began),

        // Touching during animations
        MachineCase(name: "a touch during the reveal runs the action at once",
                    steps: [.begin, .advance(0.1), .touch], state: .refreshing, callbacks: Callback.began),
        MachineCase(name: "a touch during the spring back stops it where it is",
                    steps: Step.gesture(40) + [.advance(0.1), .touch], state: .idle, states: [.idle]),
        MachineCase(name: "a touch during the hide completes the end at once",
                    steps: [.begin, .settle, .end, .advance(0.1), .touch], state: .idle,
                    callbacks: Callback.wholeRefresh),

        // Footers: no more data
        MachineCase(name: "a footer told there is no more data shows so",
                    steps: [.endNoMoreData], state: .noMoreData, offset: 0, states: [.idle, .noMoreData]),
        MachineCase(name: "in noMoreData only the percent moves and nothing triggers",
                    steps: [.endNoMoreData] + Step.gesture(81) + [.settle], state: .noMoreData, offset: 0,
                    percent: 0, states: [.idle, .noMoreData]),
        MachineCase(name: "in noMoreData the percent follows the pull",
                    steps: [.endNoMoreData, .touch, .pull(81)], state: .noMoreData, offset: 81, percent: 1.5),
        MachineCase(name: "ending a load with no more data hides, then stays in noMoreData",
                    steps: [.begin, .settle, .endNoMoreData, .settle], state: .noMoreData, offset: 0,
                    percent: 0, callbacks: Callback.wholeRefresh, states: [.idle, .refreshing, .noMoreData]),
        MachineCase(name: "resetNoMoreData goes back to idle",
                    steps: [.endNoMoreData, .resetNoMoreData], state: .idle, offset: 0,
                    states: [.idle, .noMoreData, .idle]),
        MachineCase(name: "resetNoMoreData while idle is a no-op",
                    steps: [.resetNoMoreData], state: .idle, offset: 0, lastEffects: []),
    ]

    @Test(arguments: cases)
    func scenario(_ scenario: MachineCase) {
        var driver = MachineDriver(extent: scenario.extent)
        driver.run(scenario.steps)

        #expect(driver.state == scenario.state)
        if let offset = scenario.offset {
            #expect(driver.offset == offset)
            #expect(driver.shownOffset == offset)
        }
        if let percent = scenario.percent { #expect(driver.pullingPercent == percent) }
        if let callbacks = scenario.callbacks { #expect(driver.callbacks == callbacks) }
        if let states = scenario.states { #expect(driver.states == states) }
        #expect(driver.machine.animation == scenario.animating)
        #expect(driver.isAnimating == (scenario.animating != nil))
        if let lastEffects = scenario.lastEffects { #expect(driver.lastEffects == lastEffects) }
        #expect(driver.contentScrolledBack == scenario.scrolledBack)
        #expect(driver.violations == [])
    }

    // MARK: - Effects the host must perform

    @Test("release while pulling: refreshing, percent 1, a fast reveal to the height")
    func releaseWhilePullingEffects() {
        var driver = MachineDriver()
        driver.run([.touch, .pull(81), .release])
        #expect(driver.lastEffects == [
            .stateChanged(from: .pulling, to: .refreshing),
            .pullingPercentChanged(1),
            .animate(to: 54, duration: 0.25, purpose: .reveal),
        ])
    }

    @Test("end: record the time, back to idle, announce the hide, then a slow hide to 0")
    func endEffects() {
        var driver = MachineDriver()
        driver.run([.begin, .settle, .end])
        #expect(driver.lastEffects == [
            .recordLastUpdated,
            .stateChanged(from: .refreshing, to: .idle),
            .notifyEndingAnimationBegins,
            .animate(to: 0, duration: 0.4, purpose: .hide),
        ])
    }

    @Test("the reveal takes 0.25 s and the hide 0.4 s (MJRefresh's fast and slow durations)")
    func animationDurations() {
        #expect(RefreshMachine.Duration.fast == 0.25)
        #expect(RefreshMachine.Duration.slow == 0.4)

        var driver = MachineDriver()
        driver.run([.begin, .advance(0.24)])
        #expect(driver.callbacks == [])
        #expect(driver.offset > 0 && driver.offset < 54)
        driver.run(.advance(0.02))
        #expect(driver.callbacks == Callback.began)
        #expect(driver.offset == 54)

        driver.run([.end, .advance(0.38)])
        #expect(driver.count(.endCompletion) == 0)
        #expect(driver.offset > 0 && driver.offset < 54)
        driver.run(.advance(0.03))
        #expect(driver.count(.endCompletion) == 1)
        #expect(driver.offset == 0)
    }

    @Test("spring back after a release under the height takes 0.25 s")
    func springBackDuration() {
        var driver = MachineDriver()
        driver.run(Step.gesture(40))
        #expect(driver.lastEffects == [.animate(to: 0, duration: 0.25, purpose: .springBack)])
        driver.run(.advance(0.24))
        #expect(driver.offset > 0)
        driver.run(.advance(0.02))
        #expect(driver.offset == 0)
        #expect(!driver.isAnimating)
    }

    @Test("the percent follows the offset down during the spring back and the hide")
    func percentFollowsAnimations() {
        var driver = MachineDriver()
        driver.run(Step.gesture(40) + [.settle])
        #expect(driver.percents.first == 40.0 / 54.0)
        #expect(driver.percents.last == 0)
        #expect(zip(driver.percents, driver.percents.dropFirst()).allSatisfy { $0 >= $1 })

        var refreshed = MachineDriver()
        refreshed.run([.begin, .settle])
        let before = refreshed.percents.count
        refreshed.run([.end, .settle])
        let hiding = Array(refreshed.percents.dropFirst(before))
        #expect(hiding.count > 2, "the percent moves with the hide, not in one jump")
        #expect(zip(hiding, hiding.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(hiding.last == 0)
    }

    @Test("while refreshing the percent stays 1, even while the reveal moves the content")
    func percentWhileRefreshing() {
        var driver = MachineDriver()
        driver.run([.touch, .pull(100), .release, .advance(0.1)])
        #expect(driver.pullingPercent == 1)
        #expect(driver.offset < 100 && driver.offset > 54)
        driver.run(.settle)
        #expect(driver.pullingPercent == 1)
    }

    @Test("a pure transition: equal machines give equal effects for an event, and a copy leaves the original alone")
    func pureTransition() {
        var driver = MachineDriver()
        driver.run([.touch, .pull(81)])
        var copy = driver.machine
        var twin = driver.machine
        let effects = copy.handle(.released(velocity: 0))
        #expect(twin.handle(.released(velocity: 0)) == effects)
        #expect(!effects.isEmpty)
        #expect(copy.state == .refreshing)
        #expect(driver.machine.state == .pulling)
        #expect(driver.machine.offset == 81)
    }

    @Test("end during willRefresh: the refresh never ran, the end completion runs once, nothing moves")
    func endDuringWillRefresh() {
        var driver = MachineDriver()
        driver.run([.beginUnmapped, .end, .mapped, .settle])
        #expect(driver.count(.refreshAction) == 0)
        #expect(driver.count(.afterBeginning) == 0)
        #expect(driver.count(.endCompletion) == 1)
        #expect(driver.count(.recordLastUpdated) == 0, "nothing was refreshed")
        #expect(driver.effects.allSatisfy { if case .animate = $0 { false } else { true } })
        #expect(driver.shownOffset == 0)

        // The next begin is a whole refresh of its own.
        driver.run([.begin, .settle, .end, .settle])
        #expect(driver.count(.refreshAction) == 1)
        #expect(driver.count(.endCompletion) == 2)
        #expect(driver.state == .idle)
        #expect(driver.offset == 0)
    }

    @Test("end during willRefresh still runs the begin completion, so no caller waits forever")
    func endDuringWillRefreshCompletesTheBegin() {
        var driver = MachineDriver()
        driver.run([.beginUnmapped, .end])
        #expect(driver.count(.beginCompletion) == 1)
        #expect(driver.count(.endCompletion) == 1)
        #expect(driver.count(.refreshAction) == 0)
    }

    @Test("a begin while the finger holds the content short of the height reveals it all on release")
    func beginWhileHoldingShortRevealsOnRelease() {
        var driver = MachineDriver()
        driver.run([.touch, .pull(20), .begin, .release, .settle])
        #expect(driver.state == .refreshing)
        #expect(driver.offset == 54)
        #expect(driver.count(.refreshAction) == 1)
        // A user who pushes the refreshing header partly away keeps it there.
        driver.run([.touch, .pull(30), .release, .settle])
        #expect(driver.offset == 30)
    }

    @Test("isRefreshing is true for refreshing and willRefresh only")
    func isRefreshing() {
        #expect(RefreshState.allCases.filter(\.isRefreshing) == [.refreshing, .willRefresh])
        var driver = MachineDriver()
        driver.run(.beginUnmapped)
        #expect(driver.machine.isRefreshing)
        driver.run(.end)
        #expect(!driver.machine.isRefreshing)
    }

    // MARK: - Alpha

    enum Alpha: Sendable {
        case exactly(Double)
        /// Between visible and gone, following the pulling percent.
        case fading
    }

    @Test("automaticallyChangeAlpha: alpha follows the pull, is 1 while refreshing, fades out after",
          arguments: [
              ([Step.touch, .pull(27)], Alpha.exactly(0.5)),
              ([Step.touch, .pull(81)], .exactly(1)),
              ([Step.begin], .exactly(1)),
              ([Step.begin, .settle], .exactly(1)),
              ([Step.beginUnmapped], .exactly(1)),
              ([Step.begin, .settle, .end, .advance(0.2)], .fading),
              ([Step.begin, .settle, .end, .settle], .exactly(0)),
          ])
    func alpha(steps: [Step], expected: Alpha) {
        var driver = MachineDriver(automaticallyChangeAlpha: true)
        driver.run(steps)
        switch expected {
        case let .exactly(alpha):
            #expect(driver.machine.alpha == alpha)
        case .fading:
            #expect(driver.machine.alpha > 0 && driver.machine.alpha < 1)
            #expect(driver.machine.alpha == driver.pullingPercent)
        }
    }

    @Test("without automaticallyChangeAlpha the alpha stays 1", arguments: [
        [Step.touch, .pull(0)], [Step.touch, .pull(27)], [Step.begin, .settle, .end, .settle],
    ])
    func alphaOff(steps: [Step]) {
        var driver = MachineDriver()
        driver.run(steps)
        #expect(driver.machine.alpha == 1)
    }

    // MARK: - Regressions

    /// MJRefresh #899 #1150: an end overlapping a begin (or the reverse) shifted the content.
    @Test("overlapping begin/end always lands on an absolute target",
          arguments: [0.0, 0.05, 0.1, 0.2, 0.3], [0.0, 0.05, 0.15, 0.3, 0.45])
    func overlappingBeginEnd(firstGap: Double, secondGap: Double) {
        var driver = MachineDriver()
        driver.run([.begin, .advance(firstGap), .end, .advance(secondGap), .begin, .settle])
        #expect(driver.state == .refreshing)
        #expect(driver.offset == 54)
        #expect(driver.shownOffset == 54)

        driver.run([.scrolled(10), .end, .advance(secondGap), .begin, .advance(firstGap), .end, .settle])
        #expect(driver.state == .idle)
        #expect(driver.offset == 0)
        #expect(driver.shownOffset == 0)
        #expect(driver.pullingPercent == 0)
        #expect(driver.violations == [])
    }

    /// SmartRefreshLayout #1379: a spinner stuck after fast repeated refreshes.
    @Test("fast repeated begin/end cycles call every callback once per cycle and end at rest",
          arguments: [
              [0.0],
              [0.0, 0.01],
              [0.02, 0.1, 0.0, 0.3],
              [0.26, 0.0, 0.41, 0.05],
              [0.5, 0.5],
              [0.13, 0.07, 0.2, 0.0, 0.02, 0.33, 0.01],
          ])
    func repeatedCycles(gaps: [Double]) {
        let cycles = 25
        var driver = MachineDriver()
        for cycle in 0..<cycles {
            driver.run([.begin, .advance(gaps[cycle % gaps.count]), .end,
                        .advance(gaps[(cycle + 1) % gaps.count])])
        }
        driver.run(.settle)

        for callback in Callback.wholeRefresh {
            #expect(driver.count(callback) == cycles, "\(callback)")
        }
        #expect(driver.state == .idle)
        #expect(driver.offset == 0)
        #expect(driver.shownOffset == 0)
        #expect(driver.pullingPercent == 0)
        #expect(driver.machine.animation == nil)
        #expect(!driver.isAnimating)
        #expect(driver.violations == [])
    }

    @Test("every begin is followed by its end: callbacks never run out of order")
    func callbackOrderAcrossCycles() {
        var driver = MachineDriver()
        for gap in [0.0, 0.1, 0.3] {
            driver.run([.begin, .advance(gap), .end, .advance(gap)])
        }
        driver.run(.settle)
        #expect(driver.callbacks == Array(repeating: Callback.wholeRefresh, count: 3).flatMap { $0 })
    }

    /// A reveal that starts from a rubber-banded offset must end exactly on the height, or the
    /// held space no longer counts as held (it would not follow a new height).
    @Test("the held space is exactly the height after a reveal from any offset",
          arguments: [(45.6, 111.1), (40.7, 169.5), (54.3, 184.1), (54.0, 123.456789)])
    func revealEndsExactly(extent: Double, pulledTo: Double) {
        var driver = MachineDriver(extent: extent)
        driver.run(Step.gesture(pulledTo) + [.settle])
        #expect(driver.state == .refreshing)
        #expect(driver.offset == extent)
        driver.run(.extent(extent + 6))
        #expect(driver.offset == extent + 6)
    }
}
