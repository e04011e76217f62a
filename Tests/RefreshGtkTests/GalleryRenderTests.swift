import CGtk
import RefreshCore
import XCTest
@testable import RefreshGallery
@testable import RefreshGtk

/// Every gallery page rendered pulling and loading: the indicator is drawn where it belongs, the
/// list moves out of its way, and the page's fake load was asked for once.
/// The PNGs land in ``RenderedImage/folder`` as gallery-PAGE-STATE.png.
final class GalleryRenderTests: XCTestCase {
    func testNormalHeader() { assertRenders(.normalHeader) }
    func testStateHeader() { assertRenders(.stateHeader) }
    func testGifHeader() { assertRenders(.gifHeader) }
    func testHiddenTime() { assertRenders(.hiddenTime) }
    func testHiddenTexts() { assertRenders(.hiddenTexts) }
    func testCustomTitles() { assertRenders(.customTitles) }
    func testCustomIndicator() { assertRenders(.customIndicator) }
    func testAutoFooter() { assertRenders(.normalAutoFooter) }
    func testStateAutoFooter() { assertRenders(.stateAutoFooter) }
    func testGifAutoFooter() { assertRenders(.gifAutoFooter) }
    func testBackFooter() { assertRenders(.normalBackFooter) }
    func testStateBackFooter() { assertRenders(.stateBackFooter) }
    func testGifBackFooter() { assertRenders(.gifBackFooter) }
    func testNoMoreData() { assertRenders(.noMoreData) }
    func testHiddenFooter() { assertRenders(.hiddenFooter) }
    func testTrailer() { assertRenders(.trailer) }

    func testEveryVariantHasAPageAndTheGifPagesFoundTheirImages() {
        onMain {
            let pages = GalleryVariant.allCases.map { $0.makePage() }
            XCTAssertEqual(pages.count, 16)
            XCTAssertEqual(Set(pages.map(\.variant.title)).count, 16, "each page has its own name")
            for page in pages where [.gifHeader, .hiddenTime, .hiddenTexts, .gifBackFooter].contains(page.variant) {
                XCTAssertEqual((page.component as? any GifRefreshComponent)?.gifIndicator.imageCount(for: .refreshing), 8,
                               page.variant.title)
                XCTAssertEqual(page.component.extent, 60, "\(page.variant.title) grew to its images")
            }
            XCTAssertEqual((pages.first { $0.variant == .gifAutoFooter }?.component as? GifAutoFooter)?
                .gifIndicator.imageCount(for: .refreshing), 8)
            XCTAssertTrue(pages.first { $0.variant == .trailer }?.list.isHorizontal ?? false)
        }
    }

    func testTheNoMoreDataPageSaysSoAfterItsSecondLoad() {
        onMain {
            let (page, window, footer) = autoFooterPage(.noMoreData, loadDelay: 0.1)
            defer { window.close() }
            for load in 1...2 {
                showFooterAtTheEnd(window, footer)
                window.drag(pulling: .bottom)
                XCTAssertTrue(GtkTestEnvironment.iterate { page.loads == load && !footer.isRefreshing }, "load \(load)")
            }
            XCTAssertEqual(footer.state, .noMoreData)
            showFooterAtTheEnd(window, footer)
            let image = RenderedImage(window: window.window, name: "gallery-no-more-data-done")
            XCTAssertEqual(footer.accessibleText, "No more data")
            assertInk(in: image, window: window, rect: (0, window.viewHeight - footer.extent, window.viewWidth, footer.extent),
                      "No more data is drawn in the footer")
            window.drag(pulling: .bottom)
            GtkTestEnvironment.settleInput()
            GtkTestEnvironment.wait(until: { footer.logic.animation == nil }, "the footer at rest after the drag")
            XCTAssertEqual(page.loads, 2, "and nothing loads any more")
        }
    }

    func testTheHiddenFooterPageHidesItsFooterAfterALoad() {
        onMain {
            let (page, window, footer) = autoFooterPage(.hiddenFooter, loadDelay: 0.1)
            defer { window.close() }
            showFooterAtTheEnd(window, footer)
            window.drag(pulling: .bottom)
            XCTAssertTrue(GtkTestEnvironment.iterate { page.loads == 1 && footer.isHidden })
            window.scroll(to: .bottom)
            GtkTestEnvironment.wait(until: { footer.logic.animation == nil }, "the footer at rest")
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(footer.footerMachine.offset, 0, "the footer gave its space back")
            XCTAssertEqual(window.contentOrigin.y, 0)
            XCTAssertEqual(gtk_widget_get_visible(footer.indicatorWidget), 0)
            window.drag(pulling: .bottom)
            GtkTestEnvironment.settleInput()
            GtkTestEnvironment.wait(until: { footer.logic.animation == nil }, "the footer at rest after the drag")
            XCTAssertEqual(page.loads, 1)
        }
    }
}

private typealias Rect = (x: Double, y: Double, width: Double, height: Double)

/// Renders `variant`'s page pulling and loading and checks where the indicator is drawn.
private func assertRenders(_ variant: GalleryVariant, file: StaticString = #filePath, line: UInt = #line) {
    onMain {
        if variant.isAutoFooter {
            assertAutoFooterRenders(variant, file: file, line: line)
        } else {
            assertPullRenders(variant, file: file, line: line)
        }
    }
}

@MainActor
func showPage(_ variant: GalleryVariant, loadDelay: Double) -> (GalleryPage, ContentWindow) {
    let page = variant.makePage()
    page.loadDelay = loadDelay
    if let header = page.component as? RefreshHeader {
        header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("settings.ini").path
    }
    let window = ContentWindow(showing: page.widget, view: page.view, width: 600, height: 600)
    window.present()
    return (page, window)
}

/// A header, back footer or trailer page: pulled past its extent and held, then loading.
@MainActor
private func assertPullRenders(_ variant: GalleryVariant, file: StaticString, line: UInt) {
    let (page, window) = showPage(variant, loadDelay: 60)
    defer { window.close() }
    let component = page.component
    let edge = variant.edge
    let (width, height) = (window.viewWidth, window.viewHeight)
    window.scroll(to: edge)
    let idle = RenderedImage(window: window.window, name: "gallery-\(variant.rawValue)-idle")

    window.drag(pulling: edge, release: false)
    GtkTestEnvironment.waitForFrames(of: window.window)
    XCTAssertEqual(component.state, .pulling, variant.title, file: file, line: line)
    let offset = component.offset.rounded(), extent = component.extent
    let (pulledRect, beyond): (Rect, Rect) = switch edge {
    case .top: ((0, offset - extent, width, extent), (0, 0, width, offset - extent))
    case .bottom: ((0, height - offset, width, extent), (0, height - offset + extent, width, offset - extent))
    default: ((width - offset, 0, extent, height), (width - offset + extent, 0, offset - extent, height))
    }
    assertFrame(window, component, is: pulledRect, variant.title, file: file, line: line)
    let pulling = RenderedImage(window: window.window, name: "gallery-\(variant.rawValue)-pulling")
    assertInk(in: pulling, window: window, rect: pulledRect, "\(variant.title) pulling: the indicator is drawn",
              file: file, line: line)
    XCTAssertEqual(ink(in: pulling, window: window, rect: beyond), 0,
                   "\(variant.title) pulling: nothing between the indicator and the edge", file: file, line: line)

    RealInput.release()
    XCTAssertTrue(GtkTestEnvironment.iterate { component.state == .refreshing && component.logic.animation == nil },
                  variant.title, file: file, line: line)
    GtkTestEnvironment.waitForFrames(of: window.window)
    XCTAssertEqual(page.loads, 1, "\(variant.title): the page's load was asked for", file: file, line: line)
    let heldRect: Rect = switch edge {
    case .top: (0, 0, width, extent)
    case .bottom: (0, height - extent, width, extent)
    default: (width - extent, 0, extent, height)
    }
    assertFrame(window, component, is: heldRect, variant.title, file: file, line: line)
    let loading = RenderedImage(window: window.window, name: "gallery-\(variant.rawValue)-loading")
    assertInk(in: loading, window: window, rect: heldRect, "\(variant.title) loading: the indicator is drawn",
              file: file, line: line)
    let origin = window.viewOrigin
    let (w, h, e) = (Int(width), Int(height), Int(extent))
    let moved: Double = switch edge {
    case .top: loading.differenceFrom(idle, shiftedBy: (0, e), rows: origin.y + e..<origin.y + h,
                                      columns: origin.x..<origin.x + w - 20)
    case .bottom: loading.differenceFrom(idle, shiftedBy: (0, -e), rows: origin.y..<origin.y + h - e,
                                         columns: origin.x..<origin.x + w - 20)
    default: loading.differenceFrom(idle, shiftedBy: (-e, 0), rows: origin.y..<origin.y + h - 20,
                                    columns: origin.x..<origin.x + w - e)
    }
    XCTAssertLessThan(moved, 0.01, "\(variant.title) loading: the list moved aside by the indicator's extent",
                      file: file, line: line)
}

/// An auto footer page: in view at the end before loading, then loading after a drag up.
@MainActor
private func assertAutoFooterRenders(_ variant: GalleryVariant, file: StaticString, line: UInt) {
    let (page, window, footer) = autoFooterPage(variant, loadDelay: 60)
    defer { window.close() }
    let rect: Rect = (0, window.viewHeight - footer.extent, window.viewWidth, footer.extent)
    showFooterAtTheEnd(window, footer)
    assertFrame(window, footer, is: rect, variant.title, file: file, line: line)
    let inView = RenderedImage(window: window.window, name: "gallery-\(variant.rawValue)-pulling")
    assertInk(in: inView, window: window, rect: rect, "\(variant.title) in view: the footer is drawn after the rows",
              file: file, line: line)

    window.drag(pulling: .bottom)
    XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .refreshing && footer.logic.animation == nil }, variant.title,
                  file: file, line: line)
    GtkTestEnvironment.waitForFrames(of: window.window)
    XCTAssertEqual(page.loads, 1, "\(variant.title): the page's load was asked for", file: file, line: line)
    assertFrame(window, footer, is: rect, variant.title, file: file, line: line)
    let loading = RenderedImage(window: window.window, name: "gallery-\(variant.rawValue)-loading")
    assertInk(in: loading, window: window, rect: rect, "\(variant.title) loading: the footer is drawn",
              file: file, line: line)
    XCTAssertGreaterThan(loading.differenceFrom(inView, shiftedBy: (0, 0),
                                                rows: window.viewOrigin.y + Int(rect.y)..<window.viewOrigin.y + Int(window.viewHeight)),
                         0.001, "\(variant.title): loading looks different from waiting", file: file, line: line)
}

@MainActor
func autoFooterPage(_ variant: GalleryVariant, loadDelay: Double) -> (GalleryPage, ContentWindow, AutoFooter) {
    let (page, window) = showPage(variant, loadDelay: loadDelay)
    let footer = page.component as! AutoFooter
    return (page, window, footer)
}

/// Scrolls to the end with automatic loading paused, so the footer shows without loading, then
/// lets the footer load again on the next gesture.
@MainActor
func showFooterAtTheEnd(_ window: ContentWindow, _ footer: AutoFooter) {
    footer.automaticallyRefresh = false
    window.scroll(to: .bottom)
    GtkTestEnvironment.iterate { footer.footerMachine.offset == footer.extent && footer.logic.animation == nil }
    GtkTestEnvironment.waitForFrames(of: window.window)
    footer.automaticallyRefresh = true
}

@MainActor
private func assertFrame(_ window: ContentWindow, _ component: RefreshComponent, is expected: Rect, _ message: String,
                         file: StaticString, line: UInt) {
    guard let frame = window.indicatorFrame(of: component) else {
        XCTFail("\(message): the indicator is not shown", file: file, line: line)
        return
    }
    XCTAssertEqual(frame.x, expected.x, accuracy: 1, message, file: file, line: line)
    XCTAssertEqual(frame.y, expected.y, accuracy: 1, message, file: file, line: line)
    XCTAssertEqual(frame.width, expected.width, accuracy: 1, message, file: file, line: line)
    XCTAssertEqual(frame.height, expected.height, accuracy: 1, message, file: file, line: line)
}

/// Dark pixels of `image` inside `rect`, given in the view's coordinates.
@MainActor
private func ink(in image: RenderedImage, window: ContentWindow, rect: Rect) -> Int {
    let origin = window.viewOrigin
    return image.darkPixels(x: origin.x + Int(rect.x.rounded()), y: origin.y + Int(rect.y.rounded()),
                            width: max(0, Int(rect.width.rounded())), height: max(0, Int(rect.height.rounded())))
}

@MainActor
private func assertInk(in image: RenderedImage, window: ContentWindow, rect: Rect, _ message: String,
                       file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertGreaterThan(ink(in: image, window: window, rect: rect), 100, message, file: file, line: line)
}
