import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import Synchronization
import TestSupport
import XCTest
@testable import FeedReader

/// Feed icons in the sidebar: the generic icon meanwhile, then the feed's own at the screen's scale.
final class FeedIconWindowTests: XCTestCase {
    func testTheFeedsIconReplacesTheGenericOneWithAsManyPixelsAsTheScreenShows() throws {
        let icon = onMain { Self.png(side: 64) }
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed.xml":
                .ok(Data("""
                    <?xml version="1.0"?><rss version="2.0"><channel><title>With icon</title><link>https://example.org/</link>
                    <description>d</description><image><url>/icon.png</url><title>t</title><link>https://example.org/</link></image>
                    <item><title>One</title><guid>1</guid></item></channel></rss>
                    """.utf8))
            // Late, so the generic icon can be seen meanwhile.
            case "/icon.png": TestHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")], body: icon, delay: 0.5)
            default: .status(404)
            }
        }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.feedRowImage(app) != nil })
            XCTAssertEqual(gtk_image_get_storage_type(cast(Self.feedRowImage(app))), GTK_IMAGE_ICON_NAME, "the generic icon meanwhile")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                Self.feedRowImage(app).map { gtk_image_get_storage_type(cast($0)) == GTK_IMAGE_PAINTABLE } ?? false
            }, "the feed's icon shows")
            let image = try XCTUnwrap(Self.feedRowImage(app))
            let scale = gtk_widget_get_scale_factor(image)
            let paintable = try XCTUnwrap(gtk_image_get_paintable(cast(image)))
            XCTAssertEqual(gdk_paintable_get_intrinsic_width(paintable), 16 * scale, "16 points at scale \(scale)")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_width(image) == 16 }, "laid out 16 points wide")
            XCTAssertEqual(server.requests.filter { $0.path == "/icon.png" }.count, 1)
            saveScreen(name: "feed-icon-scale-\(scale)")
        }
    }

    func testImportedFeedsGetTheirIconsOnceTheImportEnds() throws {
        let (server, opml) = try Self.plainFeedAndANewOneWithAnIcon()
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/plain.xml").absoluteString)
            defer { app.close() }
            app.window.subscriptions.importSubscriptions(from: LocalFile(opml))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                Self.feedRowImage(app, row: 3).map { gtk_image_get_storage_type(cast($0)) == GTK_IMAGE_PAINTABLE } ?? false
            }, "the imported feed's icon shows without waiting for a refresh")
            XCTAssertEqual(server.requests.filter { $0.path == "/icon.png" }.count, 1)
        }
    }

    /// A new feed's icon is asked for once the window has drawn the feed's row: at start, the
    /// first frame comes before the icons' lookups, their threads and the TLS library they load.
    func testANewFeedsIconIsAskedForOnlyAfterItsRowIsDrawn() throws {
        let row = RowDrawing()
        let (server, opml) = try Self.plainFeedAndANewOneWithAnIcon {
            row.drawnWhenAsked.withLock { asked in asked = asked ?? row.drawn.withLock { $0 } }
        }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/plain.xml").absoluteString)
            defer { app.close() }
            let clock = try XCTUnwrap(gtk_widget_get_frame_clock(cast(app.window.window)))
            let painted = Signal.connect(cast(clock), "after-paint") {
                if Self.feedRowImage(app, row: 3) != nil { row.drawn.withLock { $0 = true } }
            }
            defer { g_signal_handler_disconnect(cast(clock), painted) }
            app.window.subscriptions.importSubscriptions(from: LocalFile(opml))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                Self.feedRowImage(app, row: 3).map { gtk_image_get_storage_type(cast($0)) == GTK_IMAGE_PAINTABLE } ?? false
            }, "the new feed's icon shows")
            XCTAssertEqual(row.drawnWhenAsked.withLock { $0 }, true, "the row was drawn before its icon was asked for")
            XCTAssertEqual(server.requests.filter { $0.path == "/icon.png" }.count, 1)
        }
    }

    /// A window running in the background, hidden, draws no frame to wait for: a feed's icon is
    /// fetched at once, to show when the window comes back.
    func testAHiddenWindowFetchesANewFeedsIconAtOnce() throws {
        let (server, opml) = try Self.plainFeedAndANewOneWithAnIcon()
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/plain.xml").absoluteString)
            defer { app.close() }
            gtk_widget_set_visible(cast(app.window.window), 0)
            app.window.subscriptions.importSubscriptions(from: LocalFile(opml))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { server.requests.contains { $0.path == "/icon.png" } },
                          "the icon is fetched while the window is hidden")
            gtk_window_present(cast(app.window.window))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                Self.feedRowImage(app, row: 3).map { gtk_image_get_storage_type(cast($0)) == GTK_IMAGE_PAINTABLE } ?? false
            }, "and shows when the window comes back")
        }
    }

    /// A server of a feed without an icon ("Aaa plain", /plain.xml) and of one with an icon
    /// ("Zzz new", sorted after it), and an OPML file subscribing to the second; `iconAsked` runs
    /// as the icon is asked for.
    private static func plainFeedAndANewOneWithAnIcon(iconAsked: @escaping @Sendable () -> Void = {}) throws -> (TestHTTPServer, opml: URL) {
        let icon = onMain { Self.png(side: 64) }
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/plain.xml":
                return .ok(Data("""
                    <?xml version="1.0"?><rss version="2.0"><channel><title>Aaa plain</title>
                    <description>d</description><item><title>One</title><guid>1</guid></item></channel></rss>
                    """.utf8))
            case "/new.xml":
                return .ok(Data("""
                    <?xml version="1.0"?><rss version="2.0"><channel><title>Zzz new</title>
                    <description>d</description><image><url>/icon.png</url><title>t</title><link>/</link></image>
                    <item><title>Two</title><guid>2</guid></item></channel></rss>
                    """.utf8))
            case "/icon.png":
                iconAsked()
                return TestHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")], body: icon)
            default: return .status(404)
            }
        }
        let opml = temporaryDirectory().appendingPathComponent("subscriptions.opml")
        try Data("""
            <?xml version="1.0"?><opml version="2.0"><body>
            <outline type="rss" text="Zzz new" xmlUrl="\(server.url("/new.xml").absoluteString)"/></body></opml>
            """.utf8).write(to: opml)
        return (server, opml)
    }

    /// Whether a frame has shown the new feed's row, and whether one had when its icon was asked for.
    private final class RowDrawing: Sendable {
        let drawn = Mutex(false)
        let drawnWhenAsked = Mutex<Bool?>(nil)
    }

    /// The icon of a feed's sidebar row (the first feed is row 2, after All Feeds and Starred),
    /// while the row is on screen.
    @MainActor
    private static func feedRowImage(_ app: ReaderFixture, row index: Int = 2) -> UnsafeMutablePointer<GtkWidget>? {
        let sidebar = app.window.sidebar
        guard index < sidebar.items.count, sidebar.rowWidget(showing: sidebar.items[index]) != nil else { return nil }
        return sidebar.rowWidgets(showing: sidebar.items[index])?.icon
    }

    /// A square orange PNG `side` pixels wide.
    @MainActor
    private static func png(side: Int32) -> Data {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, side, side)!
        defer { g_object_unref(cast(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0xff88_00ff)
        let texture = gdk_texture_new_for_pixbuf(pixbuf)!
        defer { g_object_unref(cast(texture)) }
        let bytes = gdk_texture_save_to_png_bytes(texture)!
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        let data = g_bytes_get_data(bytes, &size)!
        return Data(bytes: data, count: Int(size))
    }
}
