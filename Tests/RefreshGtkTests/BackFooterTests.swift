import CGtk
import RefreshCore
import XCTest
@testable import RefreshGtk

/// The back footer on a list of 10,000 rows: pulled up past the end, released, held, sprung back.
final class BackFooterTests: XCTestCase {
    func testMouseDragPastTheEndLoadsOnceAndSpringsBack() {
        onMain {
            let (window, footer, recorder) = makeBackFooterWindow()
            defer { window.close() }
            window.pull(footer, with: .mouseDrag)
            XCTAssertTrue(recorder.waitForCycle(of: footer), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle])
            XCTAssertEqual(recorder.refreshes, 1)
            XCTAssertEqual(window.contentOrigin.y, 0, "the list is back in place")
            XCTAssertLessThan(window.distanceFromEdge(.bottom), 0.5, "still at the end")
        }
    }

    func testTouchpadSwipePastTheEndLoadsOnceAndSpringsBack() {
        onMain {
            let (window, footer, recorder) = makeBackFooterWindow()
            defer { window.close() }
            window.scroll(to: .bottom)
            let claimed = window.touchpadSwipe(pulling: .bottom, lift: false)
            XCTAssertEqual(claimed, 20, "every delta past the end is the pull's")
            XCTAssertEqual(footer.state, .pulling)
            // The content follows the pull on the next frame.
            GtkTestEnvironment.iterate(timeout: 1) { abs(window.contentOrigin.y + footer.machine.offset) < 1 }
            XCTAssertEqual(window.contentOrigin.y, -footer.machine.offset, accuracy: 1, "the list moved up with the fingers")
            cgtk_emit_by_name(cast(window.scrollController), "scroll-end")
            XCTAssertTrue(recorder.waitForCycle(of: footer), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle])
            XCTAssertEqual(recorder.refreshes, 1)
        }
    }

    func testADragUpInTheMiddleOfTheListScrollsAndDoesNotPull() {
        onMain {
            let (window, footer, recorder) = makeBackFooterWindow()
            defer { window.close() }
            window.drag(pulling: .bottom)
            GtkTestEnvironment.settleInput()
            GtkTestEnvironment.wait(until: { footer.machine.animation == nil }, "the footer at rest after the drag")
            XCTAssertEqual(footer.machine.offset, 0)
            XCTAssertEqual(recorder.states, [])
            XCTAssertEqual(window.touchpadSwipe(pulling: .bottom, count: 3), 0, "touchpad deltas scroll the list")
            XCTAssertGreaterThan(gtk_adjustment_get_value(window.adjustment(for: .bottom)), 0)
        }
    }

    func testItHoldsItsHeightWhileLoadingAndAppendedRowsTakeItsPlace() {
        onMain {
            let (window, footer, recorder) = makeBackFooterWindow(endAfter: nil)
            defer { window.close() }
            window.pull(footer, with: .mouseDrag)
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .refreshing && footer.machine.animation == nil })
            XCTAssertEqual(recorder.refreshes, 1)
            XCTAssertEqual(footer.extent, 44)
            XCTAssertEqual(window.contentOrigin.y, -44, "the list stays up by the footer's height")
            let frame = try? XCTUnwrap(window.indicatorFrame(of: footer))
            XCTAssertEqual(frame?.y ?? 0, window.viewHeight - 44, accuracy: 0.5, "the footer shows right after the last row")
            XCTAssertEqual(frame?.height ?? 0, 44)
            XCTAssertEqual(footer.accessibleText, "Loading…")
            let valueBefore = gtk_adjustment_get_value(window.adjustment(for: .bottom))

            window.append(20)
            footer.endRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .idle && footer.machine.animation == nil })
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(footer.machine.offset, 0)
            XCTAssertEqual(window.contentOrigin.y, 0)
            XCTAssertEqual(gtk_adjustment_get_value(window.adjustment(for: .bottom)), valueBefore + 44, accuracy: 0.5,
                           "the list scrolled on by the footer's height: nothing on screen jumped")
            XCTAssertEqual(footer.state, .idle)
            XCTAssertEqual(footer.accessibleText, "Pull up to load more")
        }
    }

    func testWithShortContentTheFooterComesUpFromTheEndOfTheView() {
        onMain {
            let window = TestWindow(rows: 4)
            defer { window.close() }
            let footer = NormalBackFooter()
            footer.link(to: window.view)
            let recorder = Recorder(footer)
            window.present()
            XCTAssertEqual(gtk_widget_get_child_visible(footer.indicatorWidget), 0, "hidden at rest")
            RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 100), dy: -120, release: false)
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(footer.state, .pulling)
            var bounds = graphene_rect_t()
            XCTAssertNotEqual(gtk_widget_compute_bounds(footer.indicatorWidget, window.view.widget, &bounds), 0)
            let viewHeight = Double(gtk_widget_get_height(window.view.widget))
            XCTAssertEqual(Double(bounds.origin.y), viewHeight - footer.machine.offset, accuracy: 1,
                           "placed at the end of the view, below the four rows")
            RealInput.release()
            XCTAssertTrue(recorder.waitForCycle(of: footer), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.refreshes, 1)
        }
    }

    func testNoMoreDataSaysSoAndNeverLoadsUntilReset() {
        onMain {
            let (window, footer, recorder) = makeBackFooterWindow(endAfter: nil)
            defer { window.close() }
            footer.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .refreshing && footer.machine.animation == nil })
            footer.endRefreshingWithNoMoreData()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .noMoreData && footer.machine.offset == 0 })
            XCTAssertEqual(footer.accessibleText, "No more data")

            window.scroll(to: .bottom)
            window.drag(pulling: .bottom, release: false)
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertGreaterThan(footer.machine.offset, footer.extent, "the list still follows the pull")
            XCTAssertGreaterThan(footer.pullingPercent, 1)
            XCTAssertEqual(footer.state, .noMoreData, "but it never says release to load")
            RealInput.release()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.machine.offset == 0 && footer.machine.animation == nil })
            XCTAssertEqual(recorder.refreshes, 1)
            XCTAssertEqual(footer.state, .noMoreData)

            footer.resetNoMoreData()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .idle })
            XCTAssertEqual(footer.accessibleText, "Pull up to load more")
            window.pull(footer, with: .touchpad)
            XCTAssertTrue(GtkTestEnvironment.iterate { recorder.refreshes == 2 })
        }
    }

    func testThePullingFooterIsDrawnBelowTheRowsAndTheRowsMoveUp() {
        onMain {
            let (window, footer, _) = makeBackFooterWindow(endAfter: nil)
            defer { window.close() }
            window.scroll(to: .bottom)
            let idle = RenderedImage(window: window.window, name: "back-footer-idle")
            window.drag(pulling: .bottom, release: false)
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(footer.state, .pulling)
            let pulledBy = Int(footer.machine.offset.rounded())
            let pulling = RenderedImage(window: window.window, name: "back-footer-pulling")
            let height = Int(window.viewHeight)
            XCTAssertLessThan(pulling.differenceFrom(idle, shiftedBy: (0, -pulledBy), rows: 0..<height - pulledBy,
                                                      columns: 0..<pulling.width - 20), 0.01,
                              "the rows moved up by the pull")
            XCTAssertGreaterThan(pulling.darkPixels(x: 0, y: height - pulledBy, width: pulling.width, height: 44), 150,
                                 "the arrow and text are drawn right after the last row")
            XCTAssertEqual(pulling.darkPixels(x: 0, y: height - pulledBy + 44, width: pulling.width,
                                              height: pulledBy - 44), 0, "and nothing below them")
            RealInput.release()
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .refreshing && footer.machine.animation == nil })
            GtkTestEnvironment.waitForFrames(of: window.window)
            let loading = RenderedImage(window: window.window, name: "back-footer-loading")
            XCTAssertLessThan(loading.differenceFrom(idle, shiftedBy: (0, -44), rows: 0..<height - 44,
                                                      columns: 0..<loading.width - 20), 0.01,
                              "the rows stay up by the footer's height")
            XCTAssertGreaterThan(loading.darkPixels(x: 0, y: height - 44, width: loading.width, height: 44), 150,
                                 "the spinner and text are drawn in the held space")
        }
    }
}

@MainActor
private func makeBackFooterWindow(endAfter: Double? = 0.3) -> (ContentWindow, NormalBackFooter, Recorder) {
    let window = ContentWindow(.listView)
    let footer = NormalBackFooter()
    footer.link(to: window.view)
    let recorder = Recorder(footer, endAfter: endAfter)
    window.present()
    return (window, footer, recorder)
}

extension ContentWindow {
    /// How far the content is scrolled from `edge`.
    func distanceFromEdge(_ edge: RefreshEdge) -> Double { view.distanceFromEdge(edge) }
}
