import CGtk
import Foundation
import RefreshCore
import XCTest
@testable import RefreshGtk

/// The first two-finger pull in a freshly started process, with cold fonts, glyph caches and a
/// first indicator render, through the Wayland compositor. `meson-helpers/test` runs each test
/// here alone, in a process of its own, in its Wayland pass.
final class FirstGestureTests: XCTestCase {
    func testTheFirstSwipeAfterLaunchHoldsUntilTheFingersLiftThenRefreshes() {
        assertFirstSwipe(firstFrameStall: 0, screenshots: "first-swipe")
    }

    func testTheFirstSwipeStillPullsWhenItsFirstFrameStallsForAThirdOfASecond() {
        assertFirstSwipe(firstFrameStall: 0.3, screenshots: nil)
    }
}

/// Launch, one swipe of 30 frames of 8 px at 16 ms, the fingers held for a second: the header
/// must hold at "Release to refresh", and refresh only once they lift.
/// `firstFrameStall`: seconds the pull's first frame blocks the main loop. With `screenshots`, the
/// compositor's view of the held, refreshing and refreshed states is saved as
/// `screenshots`-STATE.png beside the test renders.
private func assertFirstSwipe(firstFrameStall: Double, screenshots: String?,
                              file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(GtkTestEnvironment.isSetUp, "this test needs a process of its own", file: file, line: line)
    onMain {
        let window = TestWindow()
        let indicator = StallingIndicator()
        let header = RefreshHeader(indicator: indicator)
        header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("settings.ini").path
        header.link(to: window.view)
        let recorder = Recorder(header)
        window.present()
        defer { window.close() }
        indicator.stallOnNextPullFrame = firstFrameStall

        let point = window.surfacePoint(of: window.listView, x: 150, y: 100)
        RealInput.swipe(at: point, steps: Array(repeating: (0, -8), count: 30), lift: false)
        // The fingers rest for a second: how long they rest is the input.
        GtkTestEnvironment.iterate(for: 1)
        XCTAssertEqual(header.state, .pulling, "held while the fingers rest: states \(recorder.states)",
                       file: file, line: line)
        XCTAssertEqual(header.accessibleText, "Release to refresh, Last update: Never", file: file, line: line)
        XCTAssertEqual(recorder.refreshes, 0, "no refresh before the fingers lift", file: file, line: line)
        if let screenshots { CompositorScreenshot.save(window.window, name: "\(screenshots)-held") }

        RealInput.lift()
        if let screenshots {
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .refreshing && header.logic.animation == nil },
                          file: file, line: line)
            CompositorScreenshot.save(window.window, name: "\(screenshots)-refreshing")
        }
        XCTAssertTrue(recorder.waitForCycle(of: header), "states so far: \(recorder.states)", file: file, line: line)
        if let screenshots { CompositorScreenshot.save(window.window, name: "\(screenshots)-refreshed") }
        XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle], file: file, line: line)
        XCTAssertEqual(recorder.refreshes, 1, file: file, line: line)
    }
}

/// NormalIndicator's drawing, whose next frame of a pull can block the main loop as a cold start
/// on a slow machine can: input queues up behind it and GTK merges it.
@MainActor
private final class StallingIndicator: RefreshIndicator {
    private let normal = NormalIndicator()
    /// Seconds the next frame drawn while pulling blocks for; armed after the window settled,
    /// so that the stall falls in the gesture, not in the warm-up before it.
    var stallOnNextPullFrame = 0.0

    var drawsPullingPercent: Bool { normal.drawsPullingPercent }

    func draw(_ context: IndicatorDrawContext) {
        if context.model.pullingPercent > 0, stallOnNextPullFrame > 0 {
            Thread.sleep(forTimeInterval: stallOnNextPullFrame)
            stallOnNextPullFrame = 0
        }
        normal.draw(context)
    }

    func isAnimating(_ model: IndicatorModel, at time: Double) -> Bool { normal.isAnimating(model, at: time) }
}
