import CGtk
import RefreshCore
import XCTest
@testable import RefreshGtk

/// The trailer on a horizontal list of 10,000 cards: the header's rules at the trailing edge.
final class TrailerTests: XCTestCase {
    func testMouseDragPastTheTrailingEndRunsOneWholeCycle() {
        onMain {
            let (window, trailer, recorder) = makeTrailerWindow()
            defer { window.close() }
            XCTAssertEqual(trailer.edge, .right)
            XCTAssertEqual(trailer.extent, 60)
            window.pull(trailer, with: .mouseDrag)
            XCTAssertTrue(recorder.waitForCycle(of: trailer), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle])
            XCTAssertEqual(recorder.refreshes, 1)
            XCTAssertEqual(window.contentOrigin.x, 0)
        }
    }

    func testTouchpadSwipePastTheTrailingEndRunsOneWholeCycle() {
        onMain {
            let (window, trailer, recorder) = makeTrailerWindow()
            defer { window.close() }
            window.scroll(to: .right)
            XCTAssertEqual(window.touchpadSwipe(pulling: .right, lift: false), 20)
            XCTAssertEqual(trailer.state, .pulling)
            // The content follows the pull on the next frame.
            GtkTestEnvironment.iterate(timeout: 1) { abs(window.contentOrigin.x + trailer.machine.offset) < 1 }
            XCTAssertEqual(window.contentOrigin.x, -trailer.machine.offset, accuracy: 1, "the cards moved left")
            cgtk_emit_by_name(cast(window.scrollController), "scroll-end")
            XCTAssertTrue(recorder.waitForCycle(of: trailer), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.refreshes, 1)
        }
    }

    func testVerticalDragsAndDragsAwayFromTheEndDoNotPull() {
        onMain {
            let (window, trailer, recorder) = makeTrailerWindow()
            defer { window.close() }
            window.drag(pulling: .right)
            GtkTestEnvironment.settleInput()
            GtkTestEnvironment.wait(until: { trailer.machine.animation == nil }, "the trailer at rest after the drag")
            XCTAssertEqual(trailer.machine.offset, 0, "at the start of the list a drag left does not pull")
            window.scroll(to: .right)
            window.drag(pulling: .top)
            GtkTestEnvironment.settleInput()
            GtkTestEnvironment.wait(until: { trailer.machine.animation == nil }, "the trailer at rest after the drag")
            XCTAssertEqual(trailer.machine.offset, 0, "a vertical drag is no horizontal pull")
            XCTAssertEqual(recorder.states, [])
        }
    }

    func testHeldWhileRefreshingAtTheRightWithItsTextOneCharacterPerLine() {
        onMain {
            let (window, trailer, _) = makeTrailerWindow(endAfter: nil)
            defer { window.close() }
            window.scroll(to: .right)
            let idle = RenderedImage(window: window.window, name: "trailer-idle")
            window.drag(pulling: .right, release: false)
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(trailer.state, .pulling)
            let pulledBy = Int(trailer.machine.offset.rounded())
            let width = Int(window.viewWidth), height = Int(window.viewHeight)
            let pulling = RenderedImage(window: window.window, name: "trailer-pulling")
            XCTAssertLessThan(pulling.differenceFrom(idle, shiftedBy: (-pulledBy, 0), rows: 0..<height - 20,
                                                     columns: 0..<width - pulledBy), 0.01, "the cards moved left")
            let column = (x: width - pulledBy, width: 60)
            XCTAssertGreaterThan(pulling.darkPixels(x: column.x, y: 0, width: column.width, height: height), 300,
                                 "the trailer draws in the revealed column")
            let rows = darkRowSpan(pulling, x: column.x, width: column.width, height: height)
            XCTAssertGreaterThan(rows, 350, "the text runs down the column, one character per line")
            XCTAssertEqual(pulling.darkPixels(x: column.x + 60, y: 0, width: max(0, pulledBy - 60), height: height), 0,
                           "nothing beyond the trailer's 60 pixels")

            RealInput.release()
            XCTAssertTrue(GtkTestEnvironment.iterate { trailer.state == .refreshing && trailer.machine.animation == nil })
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(window.contentOrigin.x, -60)
            let frame = window.indicatorFrame(of: trailer)
            XCTAssertEqual(frame?.x ?? 0, window.viewWidth - 60, accuracy: 0.5)
            XCTAssertEqual(frame?.width ?? 0, 60)
            XCTAssertEqual(frame?.height ?? 0, window.viewHeight, "as tall as the view")
            let loading = RenderedImage(window: window.window, name: "trailer-loading")
            // The text is GNOME's regular body type since the header's look changed (MJRefresh's bold 14 pt gave over 300).
            XCTAssertGreaterThan(loading.darkPixels(x: width - 60, y: 0, width: 60, height: height), 150,
                                 "the spinner and the text show in the held column")
        }
    }

    func testInRightToLeftLayoutsTheTrailerIsOnTheLeftAndFollowsDirectionChanges() {
        onMain {
            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
            let (window, trailer, recorder) = makeTrailerWindow()
            defer { window.close() }
            XCTAssertEqual(trailer.edge, .left, "the trailing edge of a right-to-left list")
            window.pull(trailer, with: .mouseDrag)
            XCTAssertTrue(GtkTestEnvironment.iterate { trailer.state == .refreshing && trailer.machine.animation == nil })
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(window.contentOrigin.x, 60, "the cards moved right")
            XCTAssertEqual(window.indicatorFrame(of: trailer)?.x ?? -1, 0, accuracy: 0.5, "the trailer shows on the left")
            XCTAssertTrue(recorder.waitForCycle(of: trailer), "states so far: \(recorder.states)")

            gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR)
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(trailer.edge, .right, "back to the right when the layout turns left-to-right")
            window.pull(trailer, with: .touchpad)
            XCTAssertTrue(GtkTestEnvironment.iterate { recorder.refreshes == 2 })
        }
    }
}

/// From the first to the last row of the column holding dark pixels: the height the stacked text covers.
@MainActor
private func darkRowSpan(_ image: RenderedImage, x: Int, width: Int, height: Int) -> Int {
    let inked = (0..<height).filter { image.darkPixels(x: x, y: $0, width: width, height: 1) > 0 }
    guard let first = inked.first, let last = inked.last else { return 0 }
    return last - first
}

@MainActor
private func makeTrailerWindow(endAfter: Double? = 0.3) -> (ContentWindow, NormalTrailer, Recorder) {
    let window = ContentWindow(.horizontalListView)
    let trailer = NormalTrailer()
    trailer.link(to: window.view)
    let recorder = Recorder(trailer, endAfter: endAfter)
    window.present()
    return (window, trailer, recorder)
}
