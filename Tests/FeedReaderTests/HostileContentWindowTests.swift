import CGtk
@testable import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// What a subscription can bring that is built to freeze the window: an icon that decodes to
/// gigabytes, an entry whose markup made the sanitizer's work quadratic.
final class HostileContentWindowTests: XCTestCase {
    /// An icon saved by a version that did not check sizes: 20000 pixels square, 1.2 GB decoded.
    func testABombInTheIconCacheNeitherFreezesTheStartNorTakesItsMemory() throws {
        let bomb = PNGBomb.make(side: 20000)
        let fair = onMain { Self.fairPNG() }
        let id = UUID().uuidString.prefix(8)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/bomb-\(id).xml": .ok(Self.feed(title: "Aaa with a bomb for an icon"))
            case "/fair-\(id).xml": .ok(Self.feed(title: "Bbb with a fair icon"))
            default: .status(404)
            }
        }
        defer { server.stop() }
        try onMain {
            let first = try ReaderFixture(subscribingTo: server.url("/bomb-\(id).xml").absoluteString)
            nonisolated(unsafe) var subscribed = false
            Task { @MainActor [library = first.library] in
                _ = try? await library.subscribe(to: server.url("/fair-\(id).xml").absoluteString)
                subscribed = true
            }
            GtkTestEnvironment.wait(until: { subscribed }, "the second subscription")
            nonisolated(unsafe) var feeds: [StoredFeed] = []
            Task { @MainActor [library = first.library] in feeds = (try? await library.store.feeds()) ?? [] }
            GtkTestEnvironment.wait(until: { feeds.count == 2 }, "both feeds in the store")
            first.close()
            let icons = first.window.iconUpdates.icons
            let bombFile = icons.path(for: try XCTUnwrap(feeds.first { $0.url.path.hasPrefix("/bomb") }))
            let fairFile = icons.path(for: try XCTUnwrap(feeds.first { $0.url.path.hasPrefix("/fair") }))
            try FileManager.default.createDirectory(at: icons.directory, withIntermediateDirectories: true)
            try bomb.write(to: bombFile)
            try fair.write(to: fairFile)
            defer {
                try? FileManager.default.removeItem(at: bombFile)
                try? FileManager.default.removeItem(at: fairFile)
            }

            ProcessMemory.resetPeak()
            let before = ProcessMemory.resident
            let started = MainThread.now
            let watch = MainLoopWatch()
            let app = try first.restarted()
            defer { app.close() }
            let clock = try XCTUnwrap(gdk_surface_get_frame_clock(gtk_native_get_surface(cast(app.window.window))))
            GtkTestEnvironment.wait(until: { gdk_frame_clock_get_frame_counter(clock) > 0 }, "the window's first frame")
            let firstFrame = MainThread.now - started
            GtkTestEnvironment.wait(until: { Self.rowShowsAnIcon(app, row: 3) }, timeout: 20, "the fair icon, decoded after the bomb")
            watch.stop()

            XCTAssertLessThan(firstFrame, 5, "the window drew its first frame without decoding the bomb")
            XCTAssertLessThan(watch.longestGap, 1.5, "the main loop never stopped for the icons")
            XCTAssertFalse(Self.rowShowsAnIcon(app, row: 2), "the bomb's feed shows the generic icon")
            let grown = ProcessMemory.peak - before
            XCTAssertLessThan(grown, 300 << 20, "the start took \(grown >> 20) MB more at its peak")
        }
    }

    /// One paragraph of 20,000 attributes, then 20,000 bold elements and 20,000 end tags of an
    /// element never opened: this froze the window for 11.6 s when the entry was shown.
    func testAnEntryOfHostileMarkupShowsWhileTheWindowKeepsDrawing() throws {
        let hostile = "<p " + (0..<20000).map { "a\($0)=\"x\"" }.joined(separator: " ") + ">Still readable</p>"
            + String(repeating: "<b>", count: 20000) + "deep" + String(repeating: "</i>", count: 20000)
        let xml = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
            <title>Hostile</title><link>https://example.org/</link><description>d</description>
            <item><title>Hostile markup</title><link>https://example.org/hostile</link><guid>hostile</guid>
            <pubDate>Tue, 27 Oct 2026 10:00:00 +0000</pubDate><content:encoded><![CDATA[\(hostile)]]></content:encoded></item>
            <item><title>Plain</title><link>https://example.org/plain</link><guid>plain</guid>
            <pubDate>Mon, 26 Oct 2026 10:00:00 +0000</pubDate><description>Plain text</description></item>
            </channel></rss>
            """.utf8)
        try withReader(serving: xml, entries: 2) { app in
            let article = app.window.article
            let watch = MainLoopWatch()
            app.window.entryList.select(index: 0)
            GtkTestEnvironment.wait(until: { article.isLoaded && article.entry?.title == "Hostile markup" }, timeout: 30,
                                    "the hostile entry's article")
            watch.stop()
            XCTAssertLessThan(watch.longestGap, 1, "the main loop kept running while the entry was sanitized")
            let body = try XCTUnwrap(article.bodyHTML)
            XCTAssertTrue(body.hasPrefix("<p>Still readable</p><b><b>"), String(body.prefix(80)))
            XCTAssertEqual(body.components(separatedBy: "<b>").count - 1, HTMLSanitizer.maxDepth, "nesting is capped")
            XCTAssertEqual(body.components(separatedBy: "</b>").count - 1, HTMLSanitizer.maxDepth, "and closed")

            app.window.entryList.select(index: 1)
            GtkTestEnvironment.wait(until: { article.isLoaded && article.entry?.title == "Plain" }, timeout: 20, "the next entry")
            XCTAssertEqual(article.bodyHTML, "Plain text")
        }
    }

    /// A blue PNG 64 pixels square, as GDK writes it.
    @MainActor
    private static func fairPNG() -> Data {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, 64, 64)!
        defer { g_object_unref(cast(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x3584_e4ff)
        let texture = gdk_texture_new_for_pixbuf(pixbuf)!
        defer { g_object_unref(cast(texture)) }
        let bytes = gdk_texture_save_to_png_bytes(texture)!
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        return Data(bytes: g_bytes_get_data(bytes, &size)!, count: Int(size))
    }

    private static func feed(title: String) -> Data {
        Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title><description>d</description>
            <item><title>One</title><guid>1</guid></item></channel></rss>
            """.utf8)
    }

    /// Whether the sidebar's row `index` (feeds start at 2, after All Feeds and Starred) shows a
    /// feed's own icon rather than a named one.
    @MainActor
    private static func rowShowsAnIcon(_ app: ReaderFixture, row index: Int) -> Bool {
        let sidebar = app.window.sidebar
        guard index < sidebar.items.count, sidebar.rowWidget(showing: sidebar.items[index]) != nil,
              let image = sidebar.rowWidgets(showing: sidebar.items[index])?.icon else { return false }
        return gtk_image_get_storage_type(cast(image)) == GTK_IMAGE_PAINTABLE
    }
}
