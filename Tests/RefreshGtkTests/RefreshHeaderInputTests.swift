import CGtk
import RefreshCore
import XCTest
@testable import RefreshGtk

/// The three input paths (mouse drag, touchpad scroll sequences, wheel) on a real window.
final class RefreshHeaderInputTests: XCTestCase {
    func testMouseDragAtTopRunsOneWholeRefresh() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 120)
            XCTAssertTrue(recorder.waitForCycle(of: header), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle])
            XCTAssertEqual(recorder.refreshes, 1)
            XCTAssertEqual(window.verticalValue, 0, accuracy: 0.5)
            XCTAssertNotNil(header.lastUpdated)
        }
    }

    func testShortMouseDragSpringsBackWithoutRefreshing() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 40)
            GtkTestEnvironment.iterate(timeout: 3) { header.machine.offset == 0 && header.machine.animation == nil }
            XCTAssertEqual(recorder.states, [])
            XCTAssertEqual(recorder.refreshes, 0)
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testQuickFlickStoppingJustShortOfTheThresholdRefreshes() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            var peakBeforeRefreshing = 0.0
            header.observePullingPercent { percent in
                if recorder.states.isEmpty { peakBeforeRefreshing = max(peakBeforeRefreshing, percent) }
            }
            // 48 of the header's 54 pixels in 60 ms (800 px/s), then the button lets go.
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 48,
                           steps: 6, interval: 0.01)
            XCTAssertTrue(recorder.waitForCycle(of: header), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.states, [.refreshing, .idle], "never 'release to refresh': the flick carried it")
            XCTAssertEqual(recorder.refreshes, 1)
            XCTAssertEqual(peakBeforeRefreshing * header.extent, 48, accuracy: 1, "the finger stopped short")
            XCTAssertEqual(window.verticalValue, 0, accuracy: 0.5)
        }
    }

    func testSlowDragToTheSameDistanceSpringsBack() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            // The same 48 pixels in 480 ms (100 px/s): let go there, it goes back.
            var peak = 0.0
            header.observePullingPercent { peak = max(peak, $0) }
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 48,
                           steps: 24, interval: 0.02)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 3) {
                header.machine.offset == 0 && header.machine.animation == nil
            })
            GtkTestEnvironment.settleInput()
            XCTAssertEqual(peak * header.extent, 48, accuracy: 1, "pulled as far as the flick")
            XCTAssertEqual(recorder.states, [])
            XCTAssertEqual(recorder.refreshes, 0)
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testAPullPastTheThresholdIsCancelledWhenTheListLeavesTheScreen() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 120,
                           release: false)
            XCTAssertEqual(header.state, .pulling)
            gtk_widget_set_visible(window.view.widget, 0)
            XCTAssertEqual(header.state, .idle, "the pull no longer promises a refresh")
            XCTAssertEqual(header.machine.offset, 0)
            RealInput.release()
            gtk_widget_set_visible(window.view.widget, 1)
            GtkTestEnvironment.settleInput()
            GtkTestEnvironment.wait(until: { header.machine.animation == nil }, "the header at rest after the drag")
            XCTAssertEqual(recorder.refreshes, 0)
            XCTAssertEqual(recorder.states, [.pulling, .idle])
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testMouseDragBelowTheTopDoesNotPull() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(cast(window.scrolled)), 400)
            GtkTestEnvironment.waitForFrames(of: window.window)
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 120)
            GtkTestEnvironment.settleInput()
            GtkTestEnvironment.wait(until: { header.machine.animation == nil }, "the header at rest after the drag")
            XCTAssertEqual(recorder.states, [])
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testTouchpadSequenceWithScrollEndRunsOneWholeRefresh() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            let controller = window.scrollController
            cgtk_emit_by_name(cast(controller), "scroll-begin")
            var claimed = 0
            for _ in 0..<20 {
                claimed += Int(cgtk_emit_scroll(cast(controller), 0, -0.1))
                // A touchpad's pace, an event every 10 ms: the speed is part of the input.
                GtkTestEnvironment.iterate(for: 0.01)
            }
            XCTAssertEqual(claimed, 20, "every upward delta at the top is the pull's")
            XCTAssertEqual(header.state, .pulling)
            XCTAssertEqual(window.verticalValue, 0, accuracy: 0.5)
            cgtk_emit_by_name(cast(controller), "scroll-end")
            XCTAssertTrue(recorder.waitForCycle(of: header), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle])
            XCTAssertEqual(recorder.refreshes, 1)
        }
    }

    func testTouchpadSequenceWithoutScrollEndEndsAfterAPause() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            let controller = window.scrollController
            cgtk_emit_by_name(cast(controller), "scroll-begin")
            for _ in 0..<20 {
                _ = cgtk_emit_scroll(cast(controller), 0, -0.1)
                // A touchpad's pace, an event every 10 ms: the speed is part of the input.
                GtkTestEnvironment.iterate(for: 0.01)
            }
            XCTAssertEqual(header.state, .pulling)
            XCTAssertTrue(recorder.waitForCycle(of: header), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle])
            XCTAssertEqual(recorder.refreshes, 1)
        }
    }

    func testMomentumAfterATouchpadReleaseDoesNotStartASecondPull() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            let controller = window.scrollController
            cgtk_emit_by_name(cast(controller), "scroll-begin")
            for _ in 0..<3 { _ = cgtk_emit_scroll(cast(controller), 0, -0.1) }
            cgtk_emit_by_name(cast(controller), "scroll-end")
            // A driver's coasting right after the fingers lifted: enough to pass the threshold twice over.
            var coasted = 0.0
            for step in 0..<15 {
                let delta = 0.2 * pow(0.9, Double(step))
                coasted += delta
                _ = cgtk_emit_scroll(cast(controller), 0, -delta)
                // A touchpad's pace, an event every 10 ms: the speed is part of the input.
                GtkTestEnvironment.iterate(for: 0.01)
            }
            XCTAssertGreaterThan(coasted * 60, header.extent * 1.5)
            GtkTestEnvironment.iterate(timeout: 3) { header.machine.offset == 0 && header.machine.animation == nil }
            // No scroll-end follows: the pull may still end by a pause in the events, which must not refresh; nothing marks its absence.
            GtkTestEnvironment.iterate(for: 0.4)
            XCTAssertEqual(recorder.states, [])
            XCTAssertEqual(recorder.refreshes, 0)
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testTouchpadPullGivesDownwardDeltasBackOnceClosed() {
        onMain {
            let (window, header, _) = makeWindow()
            defer { window.close() }
            let controller = window.scrollController
            cgtk_emit_by_name(cast(controller), "scroll-begin")
            _ = cgtk_emit_scroll(cast(controller), 0, -0.3)
            XCTAssertGreaterThan(header.machine.offset, 0)
            XCTAssertEqual(cgtk_emit_scroll(cast(controller), 0, 0.5), 1, "closing the pull is still the pull's")
            XCTAssertEqual(header.machine.offset, 0)
            XCTAssertEqual(cgtk_emit_scroll(cast(controller), 0, 0.5), 0, "once closed, the list scrolls again")
            cgtk_emit_by_name(cast(controller), "scroll-end")
            XCTAssertEqual(header.state, .idle)
        }
    }

    func testMouseWheelClicksAtTheTopNeverRefresh() {
        onMain {
            let (window, header, recorder) = makeWindow()
            defer { window.close() }
            let point = window.surfacePoint(of: window.listView, x: 150, y: 100)
            RealInput.wheel(in: window, at: point, button: 5, count: 3)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 2) { window.verticalValue > 0 }, "wheel events reach the list")
            RealInput.wheel(in: window, at: point, button: 4, count: 15)
            GtkTestEnvironment.iterate(timeout: 2) { window.verticalValue < 0.5 }
            GtkTestEnvironment.settleInput()
            // The wheel's scrolling is animated: only its last frame puts the value at the top exactly.
            GtkTestEnvironment.wait(until: { window.verticalValue < 1e-6 && header.machine.animation == nil }, "the list back at its top, the header at rest")
            XCTAssertEqual(window.verticalValue, 0, accuracy: 0.5)
            XCTAssertEqual(recorder.states, [])
            XCTAssertEqual(recorder.refreshes, 0)
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testClickInsideTheListStillActivatesTheRow() {
        onMain {
            let (window, _, recorder) = makeWindow()
            defer { window.close() }
            RealInput.click(in: window, at: window.surfacePoint(of: window.listView, x: 100, y: 60))
            GtkTestEnvironment.iterate(timeout: 2) { !window.activatedRows.isEmpty }
            XCTAssertEqual(window.activatedRows, [1])
            XCTAssertEqual(recorder.states, [])
        }
    }
}
