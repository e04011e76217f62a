import CGtk
import RefreshCore
import XCTest
@testable import RefreshGtk

/// The auto footer on a real list: loads when scrolled into view, and never loops.
final class AutoFooterTests: XCTestCase {
    func testHoldingOnThroughAppendedRowsLoadsOncePerGesture() {
        onMain {
            let (window, footer, loads) = makeFooterWindow(rows: 200)
            defer { window.close() }
            window.scrollToEnd()
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.count == 1 && footer.state == .idle },
                          "arriving at the end shows the footer, which loads")
            let controller = window.scrollController
            cgtk_emit_by_name(cast(controller), "scroll-begin")
            // One long gesture that scrolls through every row the loads append, twice over.
            for _ in 0..<150 {
                window.touchpadScroll(dy: 0.2)
                // A touchpad's pace, an event every 15 ms: the gesture's speed is part of the input.
                GtkTestEnvironment.iterate(for: 0.015)
            }
            cgtk_emit_by_name(cast(controller), "scroll-end")
            GtkTestEnvironment.wait(until: { window.rowCount == 240 && footer.state == .idle && footer.logic.animation == nil },
                                    "the load's rows in the list and the footer at rest")
            XCTAssertEqual(loads.count, 2, "the gesture loaded once, not once per batch of appended rows")
            XCTAssertEqual(window.rowCount, 240)
            XCTAssertEqual(footer.state, .idle)
        }
    }

    func testANewGestureAtTheNewEndLoadsAgain() {
        onMain {
            let (window, footer, loads) = makeFooterWindow(rows: 200)
            defer { window.close() }
            window.scrollToEnd()
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.count == 1 && footer.state == .idle })
            let controller = window.scrollController
            for gesture in 1...2 {
                // The new end exists once the appended rows are laid out: under a compositor still
                // starting, that can take longer than the pause below.
                GtkTestEnvironment.wait(until: { window.distanceFromEnd > 0 }, timeout: 10,
                                        "the rows of load \(gesture) laid out below the view")
                // A pause between two gestures, as a person makes: its length is part of the input.
                GtkTestEnvironment.iterate(for: 0.3)
                cgtk_emit_by_name(cast(controller), "scroll-begin")
                // Down to the new end, however tall the window made the rows, then on past it.
                var eventsPastTheLoad = 0
                for _ in 0..<400 where eventsPastTheLoad < 20 {
                    window.touchpadScroll(dy: 0.2)
                    // A touchpad's pace, an event every 15 ms: the gesture's speed is part of the input.
                    GtkTestEnvironment.iterate(for: 0.015)
                    if loads.count > gesture { eventsPastTheLoad += 1 }
                }
                cgtk_emit_by_name(cast(controller), "scroll-end")
                XCTAssertTrue(GtkTestEnvironment.iterate { loads.count == 1 + gesture && footer.state == .idle },
                              "gesture \(gesture): \(loads.count) loads")
            }
            XCTAssertEqual(window.rowCount, 260)
        }
    }

    func testWheelScrollingToTheEndLoadsAndNothingLoadsOnceTheWheelStops() {
        onMain {
            let (window, footer, loads) = makeFooterWindow(rows: 30)
            defer { window.close() }
            let point = window.surfacePoint(of: window.listView, x: 150, y: 200)
            RealInput.wheel(in: window, at: point, button: 5, count: 25)
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.count >= 1 }, "distance from end \(window.distanceFromEnd)")
            GtkTestEnvironment.iterate { footer.state == .idle }
            let loadsWhileWheeling = loads.count
            // Time for appended rows and animations to load by themselves, which must not happen: nothing marks its absence.
            GtkTestEnvironment.iterate(for: 1.0)
            XCTAssertEqual(loads.count, loadsWhileWheeling, "appended rows and animations load nothing by themselves")
            XCTAssertEqual(footer.state, .idle)
        }
    }

    func testTheFlingAfterALoadDoesNotLoadAgain() {
        onMain {
            let (window, footer, loads) = makeFooterWindow(rows: 200)
            defer { window.close() }
            let controller = window.scrollController
            window.scrollToEnd()
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.count == 1 && footer.state == .idle })
            // A kinetic fling moves the value with no input events at all: through the new rows to the new end.
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(window.scrolled))
            for _ in 0..<40 {
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + 40)
                // A kinetic fling moves the value every 10 ms: the pace is part of the input.
                GtkTestEnvironment.iterate(for: 0.01)
            }
            GtkTestEnvironment.wait(until: { window.distanceFromEnd < 1 && footer.logic.animation == nil }, "the fling at the new end")
            XCTAssertEqual(loads.count, 1)
            cgtk_emit_by_name(cast(controller), "scroll-begin")
            window.touchpadScroll(dy: 0.5)
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.count == 2 }, "the next gesture loads")
        }
    }

    func testNoMoreDataNeverLoadsAndSaysSo() {
        onMain {
            let (window, footer, loads) = makeFooterWindow(rows: 200, endWithNoMoreData: true)
            defer { window.close() }
            footer.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .noMoreData })
            XCTAssertEqual(footer.accessibleText, "No more data")
            window.scrollToEnd()
            GtkTestEnvironment.wait(until: { window.distanceFromEnd < 1 && footer.logic.animation == nil }, "the end of the list in view")
            let controller = window.scrollController
            cgtk_emit_by_name(cast(controller), "scroll-begin")
            for _ in 0..<10 { window.touchpadScroll(dy: 0.3) }
            cgtk_emit_by_name(cast(controller), "scroll-end")
            GtkTestEnvironment.wait(until: { footer.logic.animation == nil }, "the footer at rest after the gesture")
            XCTAssertEqual(loads.count, 1)
            XCTAssertEqual(footer.state, .noMoreData)
            footer.resetNoMoreData()
            GtkTestEnvironment.wait(until: { footer.state == .idle }, "the footer idle again")
            XCTAssertEqual(footer.accessibleText, "Click or pull up to load more")
        }
    }

    func testClickingTheFooterLoadsWhateverTheBudget() {
        onMain {
            let (window, footer, loads) = makeFooterWindow(rows: 200)
            defer { window.close() }
            footer.automaticallyRefresh = false
            window.scrollToEnd()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.footerMachine.offset == footer.extent })
            // Time for a load to start by itself, which must not happen: nothing marks its absence.
            GtkTestEnvironment.iterate(for: 0.2)
            XCTAssertEqual(loads.count, 0, "automatic loading is off")
            let point = window.surfacePoint(of: window.view.widget, x: 150,
                                            y: Double(gtk_widget_get_height(window.view.widget)) - 20)
            RealInput.click(in: window, at: point)
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.count == 1 })
        }
    }

    func testShortContentLoadsOnReleaseOfADragTowardsTheEnd() {
        onMain {
            let (window, footer, loads) = makeFooterWindow(rows: 4)
            defer { window.close() }
            // Time for a load to start by itself, which must not happen: nothing marks its absence.
            GtkTestEnvironment.iterate(for: 0.2)
            XCTAssertEqual(loads.count, 0, "showing short content loads nothing by itself")
            XCTAssertEqual(gtk_widget_get_child_visible(footer.indicatorWidget), 1, "the footer sits after the rows")
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 100), dy: -60)
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.count == 1 })
        }
    }
}

/// Counts loads; a load appends 20 rows (or reports no more data) after a short delay.
@MainActor
final class LoadCounter {
    var count = 0
}

@MainActor
private func makeFooterWindow(rows: Int, endWithNoMoreData: Bool = false) -> (TestWindow, NormalAutoFooter, LoadCounter) {
    let window = TestWindow(rows: rows)
    let footer = NormalAutoFooter()
    let loads = LoadCounter()
    footer.refreshingAction = { [weak window, weak footer] in
        loads.count += 1
        MainThread.after(0.15) {
            if endWithNoMoreData {
                footer?.endRefreshingWithNoMoreData()
            } else {
                window?.appendRows(20)
                footer?.endRefreshing()
            }
        }
    }
    footer.link(to: window.view)
    window.present()
    return (window, footer, loads)
}
