import RefreshCore
import Testing

/// Inputs to a tracker and where it says gestures began and ended, pull or not.
struct GestureCase: Sendable, CustomTestStringConvertible {
    var name: String
    var inputs: [Input]
    var gestures: [PullUpdate]

    var testDescription: String { name }
}

@Suite("PullTracker: where each gesture begins and ends, for the auto footer's budget")
struct PullGestureTests {
    static let cases: [GestureCase] = [
        GestureCase(name: "a press begins a gesture; its release ends it, moving open",
                    inputs: [.press(at: 0), .drag(30, at: 0.01), .lift(at: 0.02)],
                    gestures: [.gestureBegan, .gestureEnded(movingOpen: true)]),
        GestureCase(name: "a drag that is no pull still begins and ends a gesture",
                    inputs: [.press(at: 0), .drag(30, at: 0.01, atEdge: false), .lift(at: 0.02)],
                    gestures: [.gestureBegan, .gestureEnded(movingOpen: true)]),
        GestureCase(name: "a drag that last moved away from the edge ends moving closed",
                    inputs: [.press(at: 0), .drag(-30, at: 0.01), .lift(at: 0.02)],
                    gestures: [.gestureBegan, .gestureEnded(movingOpen: false)]),
        GestureCase(name: "a cancelled drag ends no gesture of its own",
                    inputs: [.press(at: 0), .drag(30, at: 0.01), Input(input: .dragCancelled(time: 0.02))],
                    gestures: [.gestureBegan]),
        GestureCase(name: "a touchpad sequence begins with scroll-begin and ends with scroll-end",
                    inputs: [.scrollBegin(at: 0), .pad(5, at: 0.01), .pad(5, at: 0.02), .scrollEnd(at: 0.03)],
                    gestures: [.gestureBegan, .gestureEnded(movingOpen: true)]),
        GestureCase(name: "the end of a sequence that last moved away ends moving closed",
                    inputs: [.scrollBegin(at: 0), .pad(5, at: 0.01), .pad(-8, at: 0.02), .scrollEnd(at: 0.03)],
                    gestures: [.gestureBegan, .gestureEnded(movingOpen: false)]),
        GestureCase(name: "every wheel click is a gesture of its own",
                    inputs: [.wheel(10, at: 0), .wheel(10, at: 0.03), .wheel(-10, at: 0.06)],
                    gestures: [.gestureBegan, .gestureBegan, .gestureBegan]),
        GestureCase(name: "a touchpad without scroll-end begins a gesture with its first delta, not with each",
                    inputs: [.padWithoutEnd(5, at: 0), .padWithoutEnd(5, at: 0.05), .padWithoutEnd(5, at: 0.1)],
                    gestures: [.gestureBegan]),
        GestureCase(name: "a touchpad without scroll-end resuming after a pause begins a new gesture",
                    inputs: [.padWithoutEnd(5, at: 0), .padWithoutEnd(-5, at: 0.05),
                             .padWithoutEnd(-5, at: 0.05 + PullTuning.scrollPause)],
                    gestures: [.gestureBegan, .gestureBegan]),
        GestureCase(name: "just short of the pause it is the same gesture",
                    inputs: [.padWithoutEnd(-5, at: 0), .padWithoutEnd(-5, at: PullTuning.scrollPause - 0.001)],
                    gestures: [.gestureBegan]),
    ]

    @Test(arguments: cases)
    func gestures(_ scenario: GestureCase) {
        var tracker = PullTracker.header()
        let updates = scenario.inputs.flatMap {
            tracker.handle($0.input, geometry: .header, heldOffset: $0.held, canStartPull: $0.canStartPull).updates
        }
        let gestures = updates.filter {
            switch $0 {
            case .gestureBegan, .gestureEnded: true
            default: false
            }
        }
        #expect(gestures == scenario.gestures)
    }

    @Test("a cancelled drag pull is abandoned, not released: claimed, with no velocity")
    func cancelledDrag() {
        var tracker = PullTracker.header()
        let replies = tracker.replies(to: [.press(at: 0), .drag(80, at: 0.01), Input(input: .dragCancelled(time: 0.02)),
                                           .lift(at: 0.03)])
        let pulled = RubberBand.offset(forDistance: 80, extent: 54, limit: 600)
        #expect(replies == [.pass, .claim([.began(0), .moved(pulled)]), .claim([.cancelled]), .pass])
        #expect(!tracker.isTracking)
    }

    @Test("through a 44-pixel footer: a touchpad without scroll-end loads once per gesture, and again after a pause")
    func footerBudgetFollowsTrackerGestures() {
        var tracker = PullTracker(dragThreshold: 8, stretches: false)
        var driver = Driver(AutoFooterMachine(extent: 44))
        let geometry = PullGeometry(extent: 44, limit: 600)
        func scroll(_ delta: Double, at time: Double) {
            let response = tracker.handle(.padWithoutEnd(delta, at: time), geometry: geometry, heldOffset: driver.offset)
            for update in response.updates { driver.send(RefreshEvent(update)) }
        }
        scroll(44, at: 0)
        #expect(driver.callbacks == Callback.began, "revealed in full: loads")
        driver.send(.endRefreshing(noMoreData: false))
        scroll(-44, at: 0.05)
        scroll(44, at: 0.1)
        #expect(driver.count(.refreshAction) == 1, "the same gesture: its one load is spent")
        scroll(-44, at: 0.15)
        scroll(44, at: 0.15 + 2 * PullTuning.scrollPause)
        #expect(driver.count(.refreshAction) == 2, "after a pause the fingers are a new gesture")
    }
}
