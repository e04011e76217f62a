import CGtk
import RefreshCore
import XCTest
@testable import RefreshGtk

/// A header and a footer on the same list: one refresh at a time unless allowed, and no
/// overlap of begins and ends ever leaves the content shifted or a spinner turning.
final class CoexistenceTests: XCTestCase {
    func testAFooterPullDoesNotLoadWhileTheHeaderRefreshes() {
        onMain {
            let pair = HeaderAndFooter()
            defer { pair.window.close() }
            pair.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.header.machine.animation == nil })
            pair.window.scroll(to: .bottom)
            pair.window.drag(pulling: .bottom, release: false)
            GtkTestEnvironment.waitForFrames(of: pair.window.window)
            XCTAssertEqual(pair.footer.machine.offset, 0, "the list does not move up")
            XCTAssertEqual(pair.footer.state, .idle, "and the footer never says release to load")
            RealInput.release()
            XCTAssertEqual(pair.window.touchpadSwipe(pulling: .bottom), 0, "touchpad deltas are not claimed either")
            GtkTestEnvironment.waitForFrames(of: pair.window.window, count: 2)
            XCTAssertEqual(pair.footerLoads.refreshes, 0)

            pair.header.endRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.header.state == .idle })
            pair.window.pull(pair.footer, with: .mouseDrag)
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.footerLoads.refreshes == 1 }, "once the refresh is over, it loads")
        }
    }

    func testAHeaderPullDoesNotRefreshWhileTheFooterLoads() {
        onMain {
            let pair = HeaderAndFooter()
            defer { pair.window.close() }
            pair.window.pull(pair.footer, with: .touchpad)
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.footer.state == .refreshing })
            pair.window.scroll(to: .top)
            pair.window.drag(pulling: .top, release: false)
            GtkTestEnvironment.waitForFrames(of: pair.window.window)
            XCTAssertEqual(pair.header.machine.offset, 0)
            XCTAssertEqual(pair.header.state, .idle)
            RealInput.release()
            XCTAssertEqual(pair.window.touchpadSwipe(pulling: .top), 0)
            GtkTestEnvironment.waitForFrames(of: pair.window.window, count: 2)
            XCTAssertEqual(pair.headerRefreshes.refreshes, 0)

            pair.footer.endRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.footer.state == .idle })
            pair.window.pull(pair.header, with: .touchpad)
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.headerRefreshes.refreshes == 1 })
        }
    }

    func testAnAutoFooterNeitherLoadsNorTakesTapsWhileTheHeaderRefreshes() {
        onMain {
            let window = ContentWindow(.listView)
            defer { window.close() }
            let header = NormalHeader()
            header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("s.ini").path
            let footer = NormalAutoFooter()
            header.link(to: window.view)
            footer.link(to: window.view)
            let refreshes = Recorder(header, endAfter: nil)
            let loads = Recorder(footer, endAfter: 0.2)
            window.present()
            header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { header.machine.animation == nil })
            XCTAssertEqual(refreshes.refreshes, 1)
            window.scroll(to: .bottom)
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.footerMachine.offset == footer.extent },
                          "the footer still comes into view")
            let nearEnd = window.pointNear(.bottom)
            RealInput.click(windowTitle: window.title, at: (nearEnd.x, nearEnd.y + 20))
            GtkTestEnvironment.waitForFrames(of: window.window, count: 2)
            XCTAssertEqual(loads.refreshes, 0, "but neither arriving nor a click loads")
            XCTAssertEqual(footer.state, .idle)

            header.endRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .idle })
            window.touchpadSwipe(pulling: .bottom, count: 3)
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.refreshes == 1 }, "the next gesture loads")
        }
    }

    func testWithTheOptionALoadRunsDuringARefreshAndEachShowsAtItsEdge() {
        onMain {
            let pair = HeaderAndFooter()
            defer { pair.window.close() }
            pair.window.view.allowsSimultaneousRefresh = true
            pair.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.header.machine.animation == nil })
            pair.window.pull(pair.footer, with: .mouseDrag)
            XCTAssertTrue(GtkTestEnvironment.iterate { pair.footer.state == .refreshing && pair.footer.machine.animation == nil })
            XCTAssertEqual(pair.footerLoads.refreshes, 1)
            XCTAssertTrue(pair.header.isRefreshing)

            // Both holding their space at once: the content sits between, each indicator at its edge.
            pair.header.endRefreshing()
            pair.footer.endRefreshing()
            XCTAssertTrue(pair.settle())
            pair.window.scroll(to: .top)
            pair.header.beginRefreshing()
            pair.footer.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate {
                pair.header.machine.animation == nil && pair.footer.machine.animation == nil
            })
            GtkTestEnvironment.waitForFrames(of: pair.window.window)
            XCTAssertEqual(pair.header.machine.offset, 54)
            XCTAssertEqual(pair.window.indicatorFrame(of: pair.header)?.y ?? -1, 0, accuracy: 0.5)
            XCTAssertEqual(pair.window.indicatorFrame(of: pair.footer)?.y ?? -1, pair.window.viewHeight - pair.footer.machine.offset,
                           accuracy: 0.5)
            XCTAssertEqual(pair.window.contentOrigin.y, pair.header.machine.offset - pair.footer.machine.offset, accuracy: 0.5)

            pair.header.endRefreshing()
            pair.footer.endRefreshing()
            XCTAssertTrue(pair.settle())
            XCTAssertEqual(pair.window.contentOrigin.y, 0)
        }
    }

    func testOverlappingBeginsAndEndsNeverLeaveTheContentShifted() {
        onMain {
            for allowsBoth in [false, true] {
                let pair = HeaderAndFooter()
                defer { pair.window.close() }
                pair.window.view.allowsSimultaneousRefresh = allowsBoth
                pair.window.scroll(to: .bottom)
                let before = RenderedImage(window: pair.window.window, name: "overlap-before-\(allowsBoth)")
                let valueBefore = gtk_adjustment_get_value(pair.window.adjustment(for: .bottom))
                var random = SeededRandom(seed: allowsBoth ? 7 : 3)
                for _ in 0..<60 {
                    switch random.next() % 5 {
                    case 0: pair.header.beginRefreshing()
                    case 1: pair.header.endRefreshing()
                    case 2: pair.footer.beginRefreshing()
                    case 3: pair.footer.endRefreshing()
                    // Random pauses between the calls: the timing is the input.
                    default: GtkTestEnvironment.iterate(for: Double(random.next() % 300) / 1000)
                    }
                }
                pair.header.endRefreshing()
                pair.footer.endRefreshing()
                XCTAssertTrue(pair.settle(), "allows both: \(allowsBoth)")
                XCTAssertEqual(pair.window.contentOrigin.x, 0)
                XCTAssertEqual(pair.window.contentOrigin.y, 0, "allows both: \(allowsBoth)")
                XCTAssertEqual(gtk_adjustment_get_value(pair.window.adjustment(for: .bottom)), valueBefore, accuracy: 0.5)
                let after = RenderedImage(window: pair.window.window, name: "overlap-after-\(allowsBoth)")
                XCTAssertLessThan(after.differenceFrom(before, shiftedBy: (0, 0), rows: 0..<after.height,
                                                       columns: 0..<after.width - 20), 0.01,
                                  "the list shows exactly as before")
                XCTAssertEqual(pair.headerRefreshes.refreshes, pair.headerRefreshes.afterEndings)
                XCTAssertEqual(pair.footerLoads.refreshes, pair.footerLoads.afterEndings)
            }
        }
    }

    func testFastRepeatedRefreshesAndLoadsLeaveNoSpinnerRunning() {
        onMain {
            let pair = HeaderAndFooter()
            defer { pair.window.close() }
            for _ in 0..<10 {
                pair.header.beginRefreshing()
                // Ends 20 ms after the start, mid-animation: the timing is the input.
                GtkTestEnvironment.iterate(for: 0.02)
                pair.header.endRefreshing()
                pair.footer.beginRefreshing()
                // Ends 20 ms after the start, mid-animation: the timing is the input.
                GtkTestEnvironment.iterate(for: 0.02)
                pair.footer.endRefreshing()
            }
            XCTAssertTrue(pair.settle())
            XCTAssertEqual(pair.headerRefreshes.refreshes, 10)
            XCTAssertEqual(pair.headerRefreshes.afterEndings, 10)
            XCTAssertGreaterThan(pair.footerLoads.refreshes, 0)
            XCTAssertEqual(pair.footerLoads.refreshes, pair.footerLoads.afterEndings, "every load that began ended")
            for component in [pair.header, pair.footer] as [RefreshComponent] {
                XCTAssertEqual(gtk_widget_get_child_visible(component.indicatorWidget), 0, "\(component.edge) is put away")
                XCTAssertFalse(component.indicator.isAnimating(component.indicatorModel, at: MainThread.now))
            }
            let first = RenderedImage(window: pair.window.window, name: "fast-cycles-a")
            GtkTestEnvironment.waitForFrames(of: pair.window.window, count: 5)
            let second = RenderedImage(window: pair.window.window, name: "fast-cycles-b")
            XCTAssertEqual(second.differenceFrom(first, shiftedBy: (0, 0), rows: 0..<first.height), 0,
                           "nothing on screen moves any more")
        }
    }
}

/// A list of 10,000 rows with a NormalHeader and a NormalBackFooter whose refreshes the test ends.
@MainActor
private final class HeaderAndFooter {
    let window = ContentWindow(.listView)
    let header = NormalHeader()
    let footer = NormalBackFooter()
    let headerRefreshes: Recorder
    let footerLoads: Recorder

    init() {
        header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("settings.ini").path
        header.link(to: window.view)
        footer.link(to: window.view)
        headerRefreshes = Recorder(header, endAfter: nil)
        footerLoads = Recorder(footer, endAfter: nil)
        window.present()
    }

    /// Waits until both are idle and at rest, then for a frame to lay the content out.
    func settle() -> Bool {
        let settled = GtkTestEnvironment.iterate {
            [self.header, self.footer].allSatisfy { !$0.isRefreshing && $0.offset == 0 && $0.logic.animation == nil }
        }
        GtkTestEnvironment.waitForFrames(of: window.window)
        return settled
    }
}

/// A small deterministic generator: the same interleaving on every run.
private struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
