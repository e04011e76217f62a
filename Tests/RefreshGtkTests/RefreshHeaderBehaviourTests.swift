import CGtk
import Dispatch
import Foundation
import RefreshCore
import XCTest
@testable import RefreshGtk

/// The header's API as an app uses it, on a real mapped window.
final class RefreshHeaderBehaviourTests: XCTestCase {
    func testWithAnimationsDisabledStateChangesJump() {
        onMain {
            GtkTestEnvironment.withAnimations(false) {
                let (window, header, recorder) = makeWindow(endAfter: nil)
                defer { window.close() }
                header.beginRefreshing()
                XCTAssertEqual(header.state, .refreshing)
                XCTAssertEqual(header.machine.offset, header.extent, "revealed at once")
                XCTAssertEqual(recorder.refreshes, 1, "the action ran without waiting for a frame")
                header.endRefreshing()
                XCTAssertEqual(header.state, .idle)
                XCTAssertEqual(header.machine.offset, 0, "hidden at once")
                XCTAssertEqual(recorder.afterEndings, 1)
            }
        }
    }

    func testBeginBeforeTheWindowIsShownWaitsUntilMapped() {
        onMain {
            let window = TestWindow()
            defer { window.close() }
            let header = NormalHeader()
            header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("s.ini").path
            header.link(to: window.view)
            let recorder = Recorder(header, endAfter: nil)
            header.beginRefreshing()
            XCTAssertEqual(header.state, .willRefresh)
            XCTAssertTrue(header.isRefreshing)
            XCTAssertEqual(recorder.refreshes, 0)
            window.present()
            XCTAssertTrue(GtkTestEnvironment.iterate { recorder.refreshes == 1 })
            XCTAssertEqual(header.state, .refreshing)
            XCTAssertEqual(header.machine.offset, header.extent)
        }
    }

    func testPullStepsLeaveTheTextsAloneUntilTheStateChanges() {
        onMain {
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            let formatted = CallCount()
            header.lastUpdatedFormatter = LastUpdatedFormatter(custom: { _ in
                formatted.value += 1
                return "never"
            })
            let before = formatted.value
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 120,
                           release: false)
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(header.state, .pulling)
            XCTAssertGreaterThan(header.pullingPercent, 1)
            XCTAssertLessThanOrEqual(formatted.value - before, 2,
                                     "the line is formatted when the state changes, not at every step of the drag")
            assertAccessibleLabel(header, startsWith: "Release to refresh, never")
            RealInput.release()
        }
    }

    func testAssistiveTechnologyReadsTheStateText() {
        onMain {
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            assertAccessibleLabel(header, startsWith: "Pull down to refresh")
            header.beginRefreshing()
            assertAccessibleLabel(header, startsWith: "Loading…")
            header.endRefreshing()
            GtkTestEnvironment.iterate { header.state == .idle }
            assertAccessibleLabel(header, startsWith: "Pull down to refresh, Last update: Today")
        }
    }

    func testEndRefreshingFromAnotherThreadRunsOnTheMainThread() {
        onMain {
            let (window, header, recorder) = makeWindow(endAfter: nil)
            defer { window.close() }
            header.beginRefreshing()
            GtkTestEnvironment.iterate { header.machine.animation == nil }
            nonisolated(unsafe) var completedOnMainThread: Bool?
            DispatchQueue.global().async {
                header.endRefreshing { completedOnMainThread = Thread.isMainThread }
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { completedOnMainThread != nil })
            XCTAssertEqual(completedOnMainThread, true)
            XCTAssertEqual(header.state, .idle)
            XCTAssertEqual(recorder.afterEndings, 1)
        }
    }

    func testMainQueueAndMainActorWorkInsideTheGLibLoop() {
        onMain {
            nonisolated(unsafe) var viaQueue = false
            nonisolated(unsafe) var viaTask = false
            DispatchQueue.global().async {
                DispatchQueue.main.async { viaQueue = Thread.isMainThread }
                Task { @MainActor in viaTask = Thread.isMainThread }
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { viaQueue && viaTask })
        }
    }

    func testFastRepeatedRefreshesLeaveNoSpinnerRunning() {
        onMain {
            let (window, header, recorder) = makeWindow(endAfter: nil)
            defer { window.close() }
            for _ in 0..<10 {
                header.beginRefreshing()
                // Ends 30 ms after the start, mid-animation: the timing is the input.
                GtkTestEnvironment.iterate(for: 0.03)
                header.endRefreshing()
                // Begins 30 ms after the end, mid-animation: the timing is the input.
                GtkTestEnvironment.iterate(for: 0.03)
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { header.machine.animation == nil })
            XCTAssertEqual(header.state, .idle)
            XCTAssertEqual(header.machine.offset, 0)
            XCTAssertEqual(recorder.refreshes, 10)
            XCTAssertEqual(recorder.afterEndings, 10)
            // Time passes at rest: an indicator that still animated would draw on; nothing marks its absence.
            GtkTestEnvironment.iterate(for: 0.3)
            XCTAssertFalse(header.indicator.isAnimating(header.indicatorModel, at: MainThread.now),
                           "nothing keeps drawing frames at rest")
        }
    }

    func testHeldSpaceScrollsAwayWithTheContentAndIsRestored() {
        onMain {
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            header.beginRefreshing()
            GtkTestEnvironment.iterate { header.machine.animation == nil }
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(window.scrolled))
            gtk_adjustment_set_value(adjustment, 20)
            XCTAssertEqual(header.machine.offset, header.extent - 20, accuracy: 0.01)
            XCTAssertEqual(window.verticalValue, 0, accuracy: 0.5, "the header took the scroll first")
            gtk_adjustment_set_value(adjustment, 100)
            XCTAssertEqual(header.machine.offset, 0)
            XCTAssertEqual(window.verticalValue, 100 - (header.extent - 20), accuracy: 0.5)
            header.endRefreshing()
            GtkTestEnvironment.iterate { header.machine.animation == nil && header.state == .idle }
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testLastUpdatedTimeSurvivesARestart() {
        onMain {
            let path = temporaryDirectory().appendingPathComponent("refreshgtk.ini").path
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            header.lastUpdatedFile = path
            header.lastUpdatedKey = "feeds/all"
            XCTAssertNil(header.lastUpdated)
            header.beginRefreshing()
            header.endRefreshing()
            let saved = try? XCTUnwrap(header.lastUpdated)

            // A new process reads the file anew.
            let restarted = NormalHeader()
            restarted.store = LastUpdatedStore(path: path)
            restarted.lastUpdatedKey = "feeds/all"
            XCTAssertEqual(restarted.lastUpdated.map { Int($0.timeIntervalSince1970) },
                           saved.map { Int($0.timeIntervalSince1970) })
            XCTAssertTrue(restarted.subtitle()?.hasPrefix("Last update: Today ") ?? false, restarted.subtitle() ?? "nil")
        }
    }
}

@MainActor
private func assertAccessibleLabel(_ header: RefreshComponent, startsWith prefix: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
    let text = header.accessibleText
    XCTAssertTrue(text.hasPrefix(prefix), "accessible text is \(text)", file: file, line: line)
    if let mismatch = cgtk_accessible_check_label(cast(header.indicatorWidget), text) {
        XCTFail("GTK's accessible label differs: \(String(cString: mismatch))", file: file, line: line)
        g_free(mismatch)
    }
}

/// How many times a formatter ran; touched only on the main thread, where GTK calls it.
private final class CallCount: @unchecked Sendable {
    var value = 0
}
