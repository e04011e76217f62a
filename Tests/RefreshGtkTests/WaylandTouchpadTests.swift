import CGtk
import RefreshCore
import XCTest
@testable import RefreshGallery
@testable import RefreshGtk

/// Real two-finger touchpad swipes through the Wayland compositor: the frames libinput sends
/// (`axis_source(finger)`, `axis`, `frame`, then `axis_stop` when the fingers lift) reach GTK's
/// Wayland backend as they would from a laptop. Run by `meson-helpers/test` in its Wayland pass
/// only: X11 has no real path for smooth scrolling.
final class WaylandTouchpadTests: XCTestCase {
    func testAPullHoldsAtReleaseToRefreshWhileTheFingersRestAndRefreshesWhenTheyLift() {
        onMain {
            let (page, window) = showPage(.normalHeader, loadDelay: 0.3)
            defer { window.close() }
            let header = page.component
            window.realSwipe(pulling: .top, lift: false)
            // The fingers rest for a second: how long they rest is the input.
            GtkTestEnvironment.iterate(for: 1)
            XCTAssertEqual(header.state, .pulling, "held with the fingers down")
            XCTAssertTrue(header.accessibleText.hasPrefix("Release to refresh, "), header.accessibleText)
            XCTAssertEqual(page.loads, 0, "nothing loads before the fingers lift")

            RealInput.lift()
            XCTAssertTrue(GtkTestEnvironment.iterate { page.loads == 1 })
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .idle && header.offset == 0 },
                          "the load ended and the header went back")
        }
    }

    func testAQuickSwipeLiftedJustShortOfTheThresholdRefreshesWhereASlowOneDoesNot() {
        onMain {
            let (page, window) = showPage(.normalHeader, loadDelay: 0.3)
            defer { window.close() }
            let header = page.component
            var states: [RefreshState] = []
            header.observeState { states.append($0) }
            var peak = 0.0
            header.observePullingPercent { if states.isEmpty { peak = max(peak, $0) } }
            // Short of the threshold by a few pixels, in 2-pixel frames (125 px/s), lifted at once.
            let short = (header.extent * 0.9 / 8).rounded(.down) * 8
            RealInput.swipe(at: window.pointNear(.top), steps: Array(repeating: (0, -2), count: Int(short / 2)), hold: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { header.offset == 0 && header.logic.animation == nil })
            GtkTestEnvironment.settleInput()
            XCTAssertEqual(peak * header.extent, short, accuracy: 1, "pulled as far as the quick swipe will")
            XCTAssertEqual(page.loads, 0, "a slow swipe lifted short of the threshold goes back")

            // The same distance in 8-pixel frames (500 px/s): the flick carries it past the threshold.
            peak = 0
            RealInput.swipe(at: window.pointNear(.top), steps: Array(repeating: (0, -8), count: Int(short / 8)), hold: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { page.loads == 1 }, "states so far: \(states)")
            XCTAssertEqual(peak * header.extent, short, accuracy: 1, "the fingers stopped short")
            XCTAssertEqual(states.first, .refreshing, "never 'release to refresh': the flick carried it")
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .idle && header.offset == 0 })
        }
    }

    func testFramesRightAfterTheFingersLiftDoNotStartASecondPull() {
        onMain {
            let (page, window) = showPage(.normalHeader, loadDelay: 0.3)
            defer { window.close() }
            var states: [RefreshState] = []
            page.component.observeState { states.append($0) }
            // Decaying frames straight after axis_stop, as a driver's coasting would send them.
            window.realSwipe(pulling: .top, frames: 20, hold: 0)
            RealInput.swipe(at: window.pointNear(.top), steps: [8, 6, 5, 4, 3, 2, 2, 1].map { (0, -$0) }, hold: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { page.loads == 1 && page.component.state == .idle })
            GtkTestEnvironment.settleInput()
            XCTAssertEqual(page.loads, 1)
            XCTAssertEqual(states, [.pulling, .refreshing, .idle])
        }
    }

    func testASwipeThatComesBackBeforeLiftingRefreshesNothing() {
        onMain {
            let (page, window) = showPage(.normalHeader, loadDelay: 0.3)
            defer { window.close() }
            RealInput.swipe(at: window.pointNear(.top), steps: Array(repeating: (0, -8), count: 10)
                            + Array(repeating: (0, 8), count: 12), hold: 0.1)
            GtkTestEnvironment.wait(until: { page.component.offset == 0 && page.component.logic.animation == nil }, "the pull gone back")
            XCTAssertEqual(page.loads, 0)
            XCTAssertEqual(page.component.offset, 0)
        }
    }

    func testEveryGalleryPagesComponentLoadsFromATwoFingerSwipe() {
        onMain {
            for variant in GalleryVariant.allCases {
                let (page, window) = showPage(variant, loadDelay: 0.2)
                if let footer = page.component as? AutoFooter {
                    showFooterAtTheEnd(window, footer)
                } else {
                    window.scroll(to: variant.edge)
                }
                GtkTestEnvironment.waitForFrames(of: window.window)
                window.realSwipe(pulling: variant.edge)
                XCTAssertTrue(GtkTestEnvironment.iterate { page.loads == 1 }, "\(variant.title) loads")
                XCTAssertTrue(GtkTestEnvironment.iterate { !page.component.isRefreshing && page.component.logic.animation == nil },
                              "\(variant.title) ends its load")
                window.close()
            }
        }
    }
}
