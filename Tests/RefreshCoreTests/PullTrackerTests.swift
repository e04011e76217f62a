import RefreshCore
import Testing

/// Inputs to a header's tracker (54 px, 600 px viewport, 8 px drag threshold) and its replies.
struct TrackerCase: Sendable, CustomTestStringConvertible {
    var name: String
    var inputs: [Input]
    var replies: [Reply]

    var testDescription: String { name }
}

private let pass = Reply.pass
/// How long a touchpad pull may pause before it counts as released.
private let pause = PullTuning.scrollPause
private func claim(_ moves: Move...) -> Reply { .claim(moves) }
private func unclaimed(_ moves: Move...) -> Reply { .unclaimed(moves) }

@Suite("PullTracker: drags and scroll deltas into one pull")
struct PullTrackerTests {
    static let touchpad: [TrackerCase] = [
        TrackerCase(name: "a touchpad pull at the edge starts, follows the fingers and ends on scroll-end",
                    inputs: [.pad(10, at: 0), .pad(20, at: 0.01), .scrollEnd(at: 0.02)],
                    replies: [claim(.began(0), .moved(10)), claim(.moved(30)), unclaimed(.released)]),
        TrackerCase(name: "touchpad deltas away from the edge never start a pull",
                    inputs: [.pad(10, at: 0, atEdge: false), .pad(30, at: 0.01, atEdge: false)],
                    replies: [pass, pass]),
        TrackerCase(name: "touchpad deltas into the content at rest pass",
                    inputs: [.pad(-10, at: 0), .pad(-30, at: 0.01)], replies: [pass, pass]),
        TrackerCase(name: "a pull claims deltas back until it is at 0, then passes them on",
                    inputs: [.pad(30, at: 0), .pad(-10, at: 0.01), .pad(-20, at: 0.02), .pad(-10, at: 0.03),
                             .pad(-10, at: 0.04)],
                    replies: [claim(.began(0), .moved(30)), claim(.moved(20)), claim(.moved(0), .released),
                              pass, pass]),
        TrackerCase(name: "a delta back past 0 ends the pull at exactly 0",
                    inputs: [.pad(30, at: 0), .pad(-50, at: 0.01), .pad(-10, at: 0.02)],
                    replies: [claim(.began(0), .moved(30)), claim(.moved(0), .released), pass]),
        TrackerCase(name: "back at 0, the same fingers can pull again",
                    inputs: [.pad(20, at: 0), .pad(-20, at: 0.01), .pad(15, at: 0.02)],
                    replies: [claim(.began(0), .moved(20)), claim(.moved(0), .released),
                              claim(.began(0), .moved(15))]),
        TrackerCase(name: "momentum right after scroll-end does not start a second pull",
                    inputs: [.pad(30, at: 0), .scrollEnd(at: 0.05), .pad(8, at: 0.06),
                             .pad(6, at: 0.06 + pause * 0.75), .pad(3, at: 0.06 + pause * 1.5),
                             .pad(1, at: 0.06 + pause * 2.25)],
                    replies: [claim(.began(0), .moved(30)), unclaimed(.released), claim(), claim(), claim(),
                              claim()]),
        TrackerCase(name: "momentum after a release begins with scroll-begin, and is still not a pull",
                    inputs: [.pad(30, at: 0), .scrollEnd(at: 0.05), .scrollBegin(at: 0.06), .pad(8, at: 0.06)],
                    replies: [claim(.began(0), .moved(30)), unclaimed(.released), pass, claim()]),
        TrackerCase(name: "after a pause following the release, a new pull can start",
                    inputs: [.pad(30, at: 0), .scrollEnd(at: 0.05), .pad(10, at: 0.05 + pause * 1.5)],
                    replies: [claim(.began(0), .moved(30)), unclaimed(.released), claim(.began(0), .moved(10))]),
        TrackerCase(name: "after a release, deltas into the content pass",
                    inputs: [.pad(30, at: 0), .scrollEnd(at: 0.05), .pad(-10, at: 0.06)],
                    replies: [claim(.began(0), .moved(30)), unclaimed(.released), pass]),
        TrackerCase(name: "without scroll-end, a pause of scrollPause ends the pull",
                    inputs: [.padWithoutEnd(30, at: 0), .tick(at: pause * 0.5), .tick(at: pause * 1.0)],
                    replies: [claim(.began(0), .moved(30)), pass, unclaimed(.released)]),
        TrackerCase(name: "after a pause ended the pull, further deltas are momentum",
                    inputs: [.padWithoutEnd(30, at: 0), .tick(at: pause * 0.5), .tick(at: pause * 1.0),
                             .padWithoutEnd(5, at: pause * 1.25)],
                    replies: [claim(.began(0), .moved(30)), pass, unclaimed(.released), claim()]),
        TrackerCase(name: "ticks while the fingers keep moving do not end the pull",
                    inputs: [.padWithoutEnd(10, at: 0), .tick(at: pause * 0.5), .padWithoutEnd(10, at: pause * 0.75),
                             .tick(at: pause * 1.25), .padWithoutEnd(10, at: pause * 1.5), .tick(at: pause * 2)],
                    replies: [claim(.began(0), .moved(10)), pass, claim(.moved(20)), pass, claim(.moved(30)), pass]),
        TrackerCase(name: "a main loop stalled behind a slow frame is no pause: a late check counts one step",
                    inputs: [.padWithoutEnd(8, at: 0), .tick(at: pause * 2), .padWithoutEnd(40, at: pause * 0.25),
                             .tick(at: pause * 2.5)],
                    replies: [claim(.began(0), .moved(8)), pass, claim(.moved(48)), pass]),
        TrackerCase(name: "a delta stamped before a pause release was queued: it pulls again, it is no momentum",
                    inputs: [.padWithoutEnd(30, at: 0), .tick(at: pause * 0.5), .tick(at: pause * 1.0),
                             .padWithoutEnd(10, at: pause * 0.75)],
                    replies: [claim(.began(0), .moved(30)), pass, unclaimed(.released), claim(.began(0), .moved(10))]),
        TrackerCase(name: "a touchpad that sends scroll-end is never ended by a pause, however long the fingers rest",
                    inputs: [.pad(30, at: 1), .tick(at: 1 + pause * 5), .tick(at: 1 + pause * 50),
                             .pad(5, at: 1 + pause * 60)],
                    replies: [claim(.began(0), .moved(30)), pass, pass, claim(.moved(35))]),
        TrackerCase(name: "ticks and scroll-begin alone do nothing",
                    inputs: [.tick(at: 1), .scrollBegin(at: 2), .scrollEnd(at: 3)], replies: [pass, pass, pass]),
        TrackerCase(name: "no pull where the component cannot start one",
                    inputs: [.pad(10, at: 0, canStartPull: false), .pad(10, at: 0.01, canStartPull: false)],
                    replies: [pass, pass]),
        TrackerCase(name: "the touchpad moves a held space away, then lets the content scroll",
                    inputs: [.pad(-20, at: 0, held: 54), .pad(-40, at: 0.01), .pad(-10, at: 0.02)],
                    replies: [claim(.began(54), .moved(34)), claim(.moved(0), .released), pass]),
        TrackerCase(name: "the touchpad pulls a partly held space further open",
                    inputs: [.pad(10, at: 0, held: 30)], replies: [claim(.began(30), .moved(40))]),
    ]

    static let wheel: [TrackerCase] = [
        TrackerCase(name: "the wheel never starts a pull",
                    inputs: [.wheel(50, at: 0), .wheel(50, at: 0.05), .wheel(120, at: 1)],
                    replies: [pass, pass, pass]),
        TrackerCase(name: "the wheel never starts a pull right after a touchpad release either",
                    inputs: [.pad(30, at: 0), .scrollEnd(at: 0.05), .wheel(50, at: 1)],
                    replies: [claim(.began(0), .moved(30)), unclaimed(.released), pass]),
        TrackerCase(name: "the wheel moves a held space away one step at a time, then scrolls the content",
                    inputs: [.wheel(-20, at: 0, held: 54), .wheel(-40, at: 0.1, held: 34),
                             .wheel(-10, at: 0.2, held: 0)],
                    replies: [claim(.began(54), .moved(34), .released), claim(.began(34), .moved(0), .released),
                              pass]),
        TrackerCase(name: "the wheel brings a held space back, never past the height",
                    inputs: [.wheel(40, at: 0, held: 34), .wheel(40, at: 0.1, held: 54)],
                    replies: [claim(.began(34), .moved(54), .released), claim(.began(54), .moved(54), .released)]),
    ]

    static let drag: [TrackerCase] = [
        TrackerCase(name: "a tap is never claimed",
                    inputs: [.press(at: 0), .lift(at: 0.1)], replies: [pass, pass]),
        TrackerCase(name: "a move under the threshold is never claimed",
                    inputs: [.press(at: 0), .drag(5, at: 0.01), .drag(7.9, at: 0.02), .lift(at: 0.03)],
                    replies: [pass, pass, pass, pass]),
        TrackerCase(name: "a pull at the edge is claimed once past the threshold",
                    inputs: [.press(at: 0), .drag(5, at: 0.01), .drag(10, at: 0.02), .drag(40, at: 0.03),
                             .lift(at: 0.04)],
                    replies: [pass, pass, claim(.began(0), .moved(10)), claim(.moved(40)), claim(.released)]),
        TrackerCase(name: "a drag into the content is the content's for good",
                    inputs: [.press(at: 0), .drag(-10, at: 0.01), .drag(30, at: 0.02), .lift(at: 0.03)],
                    replies: [pass, pass, pass, pass]),
        TrackerCase(name: "a drag away from the edge is not a pull, even if it reaches the edge",
                    inputs: [.press(at: 0), .drag(20, at: 0.01, atEdge: false), .drag(40, at: 0.02)],
                    replies: [pass, pass, pass]),
        TrackerCase(name: "a sideways drag is not a pull",
                    inputs: [.press(at: 0), .drag(6, across: 20, at: 0.01), .drag(60, across: 20, at: 0.02)],
                    replies: [pass, pass, pass]),
        TrackerCase(name: "a drag moves a held space either way while the finger is down",
                    inputs: [.press(at: 0, held: 54), .drag(-20, at: 0.01, held: 54), .drag(-80, at: 0.02),
                             .drag(-10, at: 0.03), .lift(at: 0.04)],
                    replies: [pass, claim(.began(54), .moved(34)), claim(.moved(0)), claim(.moved(44)),
                              claim(.released)]),
        TrackerCase(name: "a sideways drag over a held space is not claimed",
                    inputs: [.press(at: 0, held: 54), .drag(-5, across: 30, at: 0.01, held: 54)],
                    replies: [pass, pass]),
        TrackerCase(name: "no drag pull where the component cannot start one",
                    inputs: [.press(at: 0), .drag(20, at: 0.01, canStartPull: false)], replies: [pass, pass]),
        TrackerCase(name: "each drag needs the threshold again",
                    inputs: [.press(at: 0), .drag(20, at: 0.01), .lift(at: 0.02), .press(at: 1),
                             .drag(5, at: 1.01), .lift(at: 1.02)],
                    replies: [pass, claim(.began(0), .moved(20)), claim(.released), pass, pass, pass]),
        TrackerCase(name: "after a rejected drag, the next one can pull",
                    inputs: [.press(at: 0), .drag(-20, at: 0.01), .lift(at: 0.02), .press(at: 1),
                             .drag(20, at: 1.01)],
                    replies: [pass, pass, pass, pass, claim(.began(0), .moved(20))]),
        TrackerCase(name: "a press during a touchpad pull is ignored and the pull goes on",
                    inputs: [.pad(30, at: 0), .press(at: 0.01), .drag(20, at: 0.02), .lift(at: 0.03),
                             .pad(5, at: 0.04)],
                    replies: [claim(.began(0), .moved(30)), pass, pass, pass, claim(.moved(35))]),
        TrackerCase(name: "touchpad deltas during a drag pull are ignored",
                    inputs: [.press(at: 0), .drag(20, at: 0.01), .pad(10, at: 0.02), .lift(at: 0.03)],
                    replies: [pass, claim(.began(0), .moved(20)), pass, claim(.released)]),
        TrackerCase(name: "a drag right after a touchpad release can pull",
                    inputs: [.pad(30, at: 0), .scrollEnd(at: 0.05), .press(at: 0.06), .drag(20, at: 0.07),
                             .lift(at: 0.08)],
                    replies: [claim(.began(0), .moved(30)), unclaimed(.released), pass,
                              claim(.began(0), .moved(20)), claim(.released)]),
    ]

    @Test("touchpad", arguments: touchpad)
    func touchpadScenario(_ scenario: TrackerCase) {
        var tracker = PullTracker.header()
        #expect(tracker.replies(to: scenario.inputs) == scenario.replies)
    }

    @Test("mouse wheel", arguments: wheel)
    func wheelScenario(_ scenario: TrackerCase) {
        var tracker = PullTracker.header()
        #expect(tracker.replies(to: scenario.inputs) == scenario.replies)
    }

    @Test("drag", arguments: drag)
    func dragScenario(_ scenario: TrackerCase) {
        var tracker = PullTracker.header()
        #expect(tracker.replies(to: scenario.inputs) == scenario.replies)
    }

    static let footer: [TrackerCase] = [
        TrackerCase(name: "a drag stops at the maximum offset, with no rubber band",
                    inputs: [.press(at: 0), .drag(30, at: 0.01), .drag(100, at: 0.02), .drag(300, at: 0.03)],
                    replies: [pass, claim(.began(0), .moved(30)), claim(.moved(44)), claim(.moved(44))]),
        TrackerCase(name: "touchpad deltas stop at the maximum offset, and coming back is immediate",
                    inputs: [.pad(30, at: 0), .pad(30, at: 0.01), .pad(100, at: 0.02), .pad(-10, at: 0.03),
                             .pad(-40, at: 0.04), .pad(-5, at: 0.05)],
                    replies: [claim(.began(0), .moved(30)), claim(.moved(44)), claim(.moved(44)),
                              claim(.moved(34)), claim(.moved(0), .released), pass]),
        TrackerCase(name: "a drag over a held footer resumes from it",
                    inputs: [.press(at: 0, held: 44), .drag(-10, at: 0.01, held: 44), .drag(20, at: 0.02)],
                    replies: [pass, claim(.began(44), .moved(34)), claim(.moved(44))]),
    ]

    @Test("a footer's pull that reveals, never stretches", arguments: footer)
    func footerScenario(_ scenario: TrackerCase) {
        var tracker = PullTracker(dragThreshold: 8, stretches: false)
        #expect(tracker.replies(to: scenario.inputs, geometry: PullGeometry(extent: 44, limit: 600)) == scenario.replies)
        #expect(tracker.offset <= 44)
    }

    @Test("reset abandons a pull: nothing is claimed until a new gesture starts one")
    func reset() {
        var tracker = PullTracker.header()
        _ = tracker.replies(to: [.press(at: 0), .drag(30, at: 0.01)])
        tracker.reset()
        #expect(tracker.offset == 0)
        #expect(!tracker.isTracking)
        #expect(tracker.replies(to: [.drag(60, at: 0.02), .lift(at: 0.03), .press(at: 1), .drag(20, at: 1.01)])
            == [pass, pass, pass, claim(.began(0), .moved(20))])
    }

    @Test("the tracker's offset is the pull it reported")
    func offsetMatchesUpdates() {
        var tracker = PullTracker.header()
        _ = tracker.replies(to: [.pad(30, at: 0)])
        #expect(tracker.isTracking)
        #expect(tracker.offset == 30)
    }

    // MARK: - Wired to a header, as RefreshGtk wires them

    @Test("a touchpad pull past the height refreshes once; its momentum changes nothing")
    func touchpadRefresh() {
        var session = PullSession()
        session.inputs((0..<6).map { .pad(20, at: Double($0) * 0.016) })
        #expect(session.driver.state == .pulling)
        session.input(.scrollEnded(time: 0.1))
        #expect(session.driver.state == .refreshing)
        session.inputs((0..<10).map { .pad(6, at: 0.11 + Double($0) * 0.016) })
        session.run([.settle])
        session.inputs([.scrollBegan(time: 0.3), .pad(2, at: 0.3)])
        session.run([.settle])

        #expect(session.driver.callbacks == Callback.began)
        #expect(session.driver.states == [.idle, .pulling, .refreshing])
        #expect(session.driver.offset == 54)
        #expect(session.passedScroll == 0)
    }

    @Test("a touchpad pull with no scroll-end refreshes after a pause")
    func touchpadPauseRefresh() {
        var session = PullSession()
        session.inputs([.padWithoutEnd(50, at: 0), .padWithoutEnd(50, at: 0.02), .tick(time: 0.02 + pause * 0.5)])
        #expect(session.driver.state == .pulling)
        session.input(.tick(time: 0.02 + pause * 1.0))
        session.run([.settle])
        #expect(session.driver.state == .refreshing)
        #expect(session.driver.callbacks == Callback.began)
    }

    @Test("a touchpad pull that goes back to 0 gives the rest to the content and refreshes nothing")
    func touchpadBackToZero() {
        var session = PullSession()
        session.inputs([.scrolled(delta: 30, source: .continuous(reportsEnd: true), atEdge: true, time: 0),
                        .scrolled(delta: -40, source: .continuous(reportsEnd: true), atEdge: true, time: 0.01),
                        .scrolled(delta: -10, source: .continuous(reportsEnd: true), atEdge: true, time: 0.02),
                        .scrollEnded(time: 0.03)])
        session.run([.settle])
        #expect(session.driver.state == .idle)
        #expect(session.driver.offset == 0)
        #expect(session.passedScroll == -10)
        #expect(session.driver.callbacks == [])
    }

    @Test("a drag pull past the height refreshes once")
    func dragRefresh() {
        var session = PullSession()
        session.input(.dragBegan(time: 0))
        for step in 1...12 {
            session.input(.dragMoved(along: Double(step) * 10, across: 2, atEdge: true, time: Double(step) * 0.016))
        }
        #expect(session.driver.state == .pulling)
        #expect(session.driver.offset > 54 && session.driver.offset < 120, "rubber-banded past the height")
        session.input(.dragEnded(time: 0.2))
        session.run([.settle])
        #expect(session.driver.state == .refreshing)
        #expect(session.driver.offset == 54)
        #expect(session.driver.callbacks == Callback.began)
    }

    @Test("the mouse wheel at the edge never refreshes and always scrolls the content")
    func wheelNeverRefreshes() {
        var session = PullSession()
        session.inputs((0..<20).map { .scrolled(delta: 80, source: .wheel, atEdge: true, time: Double($0) * 0.01) })
        session.run([.settle])
        #expect(session.driver.state == .idle)
        #expect(session.driver.offset == 0)
        #expect(session.driver.callbacks == [])
        #expect(session.passedScroll == 1600)
    }

    @Test("while refreshing the wheel moves the held space within 0...height")
    func wheelMovesHeldSpace() {
        var session = PullSession()
        session.run([.begin, .settle])
        var offsets: [Double] = []
        for delta in [-20.0, 100, -60, -10] {
            session.input(.scrolled(delta: delta, source: .wheel, atEdge: true, time: 1))
            offsets.append(session.driver.offset)
        }
        #expect(offsets == [34, 54, 0, 0])
        #expect(session.passedScroll == -10)
        #expect(session.driver.state == .refreshing)
        #expect(session.driver.callbacks == Callback.began)
    }

    @Test("a tap or a click while refreshing moves nothing")
    func tapWhileRefreshing() {
        var session = PullSession()
        session.run([.begin, .settle])
        let effects = session.driver.effects.count
        session.inputs([.dragBegan(time: 1), .dragMoved(along: 3, across: 2, atEdge: true, time: 1.05),
                        .dragEnded(time: 1.1)])
        #expect(session.replies == [pass, pass, pass])
        #expect(session.driver.effects.count == effects)
        #expect(session.driver.offset == 54)
    }
}
