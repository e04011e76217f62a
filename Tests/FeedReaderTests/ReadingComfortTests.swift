import AppSupport
import CAdw
import CGtk
import CWebKit
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Reading comfort: the article's zoom, font, size and line length, remote images and their
/// cookies, and when entries are marked read.
final class ReadingComfortTests: XCTestCase {
    /// A 1×1 PNG, the shape of a tracking pixel.
    static let pixel = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==")!

    /// Two entries of several paragraphs; with `imageHost`, each shows a pixel from that host,
    /// told apart by its query (`?e=1`, `?e=2`).
    static func feed(imageHost: String? = nil) -> Data {
        let paragraph = "<p>" + String(repeating: "Handgloves and quizzical jumps over the lazy dog. ", count: 12) + "</p>"
        let items = (1...2).map { number in
            let image = imageHost.map { "<p><img src=\"http://\($0)/pixel.png?e=\(number)\" alt=\"pixel\" width=\"40\" height=\"40\"></p>" } ?? ""
            return """
                <item><title>Entry \(number)</title><link>https://example.org/\(number)</link><guid>e-\(number)</guid>
                <pubDate>\(23 - number) Oct 2026 10:00:00 +0000</pubDate>
                <description><![CDATA[\(image)\(String(repeating: paragraph, count: 8))]]></description></item>
                """
        }
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Comfort</title>
            <description>d</description>\(items.joined())</channel></rss>
            """.utf8)
    }

    /// Runs `body` on a reader subscribed to `feed(imageHost:)` on a loopback server whose
    /// pixels set a cookie each time, as a tracker's do; the server's requests tell what was asked.
    private func withPixelReader(_ body: @MainActor (ReaderFixture, TestHTTPServer) throws -> Void) throws {
        let server = try TestHTTPServer { request in
            guard request.path.hasPrefix("/pixel.png") else { return .ok(Self.feed(imageHost: request.headers["host"])) }
            return .ok(Self.pixel, headers: [("Content-Type", "image/png"),
                                              ("Set-Cookie", "tracker=\(UUID().uuidString); Path=/; Max-Age=86400")])
        }
        defer { server.stop() }
        try withReader(subscribedTo: server, entries: 2) { app in try body(app, server) }
    }

    /// The requests for pixels, in order.
    private static func pixelRequests(_ server: TestHTTPServer) -> [TestHTTPServer.Request] {
        server.requests.filter { $0.path.hasPrefix("/pixel.png") }
    }

    @MainActor
    private static func zoom(of webView: UnsafeMutablePointer<GtkWidget>) -> Double {
        (webkit_web_view_get_zoom_level(cast(webView)) * 100).rounded() / 100
    }

    /// The page's width in CSS pixels: the view's width divided by the zoom.
    @MainActor
    private static func pageWidth(_ webView: UnsafeMutablePointer<GtkWidget>) -> Double {
        ArticleViewTests.evaluate("window.innerWidth", in: webView).flatMap(Double.init) ?? 0
    }

    @MainActor
    private static func showFirstEntry(_ app: ReaderFixture) throws -> UnsafeMutablePointer<GtkWidget> {
        app.window.entryList.select(index: 0)
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded && app.window.article.entry?.title == "Entry 1" })
        return try XCTUnwrap(app.window.article.webView)
    }

    /// A language switch writes the shown article's header in the new language on the page as it
    /// is: not loaded again, it stays where it was scrolled.
    func testALanguageSwitchKeepsTheArticleWhereItWasScrolled() throws {
        try withReader(serving: Self.feed(), entries: 2) { app in
            defer { app.window.switchLanguage(to: "") }
            let webView = try Self.showFirstEntry(app)
            let entry = try XCTUnwrap(app.window.article.entry)
            let details = { ArticleViewTests.evaluate("document.querySelector('header .details').textContent", in: webView) }
            let scrolled = { ArticleViewTests.evaluate("window.scrollY", in: webView).flatMap(Double.init) ?? 0 }
            let english = ArticlePage.header(for: entry, feedTitle: "Comfort").details
            XCTAssertEqual(details(), english)
            ArticleViewTests.evaluate("window.scrollTo(0, 300)", in: webView)
            XCTAssertTrue(GtkTestEnvironment.iterate { scrolled() == 300 }, "scrolled: \(scrolled())")

            app.window.switchLanguage(to: "de")
            let german = ArticlePage.header(for: entry, feedTitle: "Comfort").details
            XCTAssertNotEqual(german, english, "the date is written the German way")
            XCTAssertTrue(GtkTestEnvironment.iterate { details() == german }, "the header in German: \(details() ?? "nothing"), not \(german)")
            XCTAssertEqual(scrolled(), 300, "the page was not loaded again: it stays where it was scrolled")
            XCTAssertEqual(app.window.article.entry?.id, entry.id)
        }
    }

    func testZoomKeysAndCtrlWheelZoomTheArticleAndTheZoomIsKeptAfterARestart() throws {
        try withReader(serving: Self.feed(), entries: 2) { app in
            let webView = try Self.showFirstEntry(app)
            XCTAssertEqual(Self.zoom(of: webView), 1)
            let width = Self.pageWidth(webView)
            XCTAssertGreaterThan(width, 200)
            Self.saveArticle(webView, name: "article-zoom-100")
            // Where a reader's keys go after clicking into the article.
            gtk_widget_grab_focus(webView)

            RealInput.key(windowTitle: app.title, "ctrl+plus")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.zoom(of: webView) == 1.1 }, "Ctrl+plus: \(Self.zoom(of: webView))")
            RealInput.key(windowTitle: app.title, "ctrl+equal")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.zoom(of: webView) == 1.2 }, "Ctrl+= too, the same key without Shift")
            XCTAssertEqual(Self.pageWidth(webView), width / 1.2, accuracy: 2, "the page is laid out larger")
            RealInput.key(windowTitle: app.title, "ctrl+minus")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.zoom(of: webView) == 1.1 }, "Ctrl+minus")
            RealInput.key(windowTitle: app.title, "ctrl+0")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.zoom(of: webView) == 1 }, "Ctrl+0")

            let point = app.point(in: webView, x: 200, y: 200)
            RealInput.wheel(windowTitle: app.title, at: point, button: 4, count: 3, holding: "ctrl")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.zoom(of: webView) == 1.33 }, "Ctrl+wheel up, 3 steps: \(Self.zoom(of: webView))")
            RealInput.wheel(windowTitle: app.title, at: point, button: 5, count: 1, holding: "ctrl")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.zoom(of: webView) == 1.2 }, "Ctrl+wheel down: \(Self.zoom(of: webView))")
            RealInput.wheel(windowTitle: app.title, at: point, button: 5, count: 3)
            XCTAssertTrue(GtkTestEnvironment.iterate {
                ArticleViewTests.evaluate("window.scrollY", in: webView).flatMap(Double.init).map { $0 > 0 } ?? false
            }, "the wheel alone scrolls the article")
            XCTAssertEqual(Self.zoom(of: webView), 1.2, "and leaves the zoom alone")
            ArticleViewTests.evaluate("window.scrollTo(0, 0)", in: webView)
            Self.saveArticle(webView, name: "article-zoom-120")
            app.close()

            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { restarted.window.entryList.order.count == 2 })
            let reopened = try Self.showFirstEntry(restarted)
            XCTAssertEqual(Self.zoom(of: reopened), 1.2, "the zoom is kept from one run to the next")
            XCTAssertEqual(Self.pageWidth(reopened), width / 1.2, accuracy: 2)
        }
    }

    /// The family the article's text is drawn in: the installed family whose text is as wide.
    @MainActor
    private static func drawnFamily(in webView: UnsafeMutablePointer<GtkWidget>) -> String? {
        ArticleViewTests.evaluate("""
            (function () {
                var article = document.querySelector("article");
                function width(family) {
                    var probe = document.createElement("span");
                    probe.textContent = "Handgloves quizzical WAVY 0123456789 iiiimmmm";
                    if (family) probe.style.fontFamily = "'" + family + "'";
                    article.appendChild(probe);
                    var measured = probe.getBoundingClientRect().width;
                    probe.remove();
                    return measured;
                }
                var own = width(null);
                var families = ["DejaVu Serif", "DejaVu Sans Mono", "DejaVu Sans"];
                for (var i = 0; i < families.length; i++) {
                    if (Math.abs(width(families[i]) - own) < 0.01) return families[i];
                }
                return "none at " + own;
            })()
            """, in: webView)
    }

    func testTheChosenFontSizeAndLineLengthReachTheShownArticleAtOnce() throws {
        try withReader(serving: Self.feed(), entries: 2) { app in
            let webView = try Self.showFirstEntry(app)
            let desktopFamily = DesktopFont.current(for: webView).family
            XCTAssertEqual(Self.drawnFamily(in: webView), desktopFamily, "the desktop's font by default")
            // Gone if the page were loaded again: the choices apply to the page shown.
            ArticleViewTests.evaluate("document.body.setAttribute('data-probe', 'kept')", in: webView)

            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(preferences)) }
            let row = { (title: String) in try XCTUnwrap(PreferencesWindowTests.row(titled: title, in: preferences), title) }
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Article font")), ["Same as the desktop", "Serif", "Sans Serif", "Monospace"])
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Line length")), ["Narrow", "Medium", "Wide"])
            saveScreen(name: "preferences-reading")
            // The window alone, as GTK renders it: the compositor's screenshot may not show a dialog yet.
            saveRender(preferences, name: "preferences-reading-window")

            adw_combo_row_set_selected(cast(try row("Article font")), 1)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.drawnFamily(in: webView) == "DejaVu Serif" },
                          "Serif: \(Self.drawnFamily(in: webView) ?? "nothing")")
            adw_combo_row_set_selected(cast(try row("Text size")), UInt32(Preferences.fontPointChoices.firstIndex(of: 18)!))
            XCTAssertTrue(GtkTestEnvironment.iterate {
                ArticleViewTests.evaluate("getComputedStyle(document.querySelector('article p')).fontSize", in: webView) == "24px"
            }, "18 points are 24 CSS pixels")
            let measure = "(function () { var body = getComputedStyle(document.body);"
                + " return Math.round(parseFloat(body.maxWidth) / parseFloat(body.fontSize)); })()"
            XCTAssertEqual(ArticleViewTests.evaluate(measure, in: webView), "46", "a medium column by default, in em")
            adw_combo_row_set_selected(cast(try row("Line length")), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { ArticleViewTests.evaluate(measure, in: webView) == "34" }, "a narrow column")
            XCTAssertEqual(ArticleViewTests.evaluate("document.body.getAttribute('data-probe')", in: webView), "kept",
                           "applied to the page shown, without loading it again")
            Self.saveArticle(webView, name: "article-serif")

            adw_combo_row_set_selected(cast(try row("Article font")), 3)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.drawnFamily(in: webView) == "DejaVu Sans Mono" }, "Monospace")

            app.window.entryList.select(index: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded && app.window.article.entry?.title == "Entry 2" })
            XCTAssertEqual(Self.drawnFamily(in: webView), "DejaVu Sans Mono", "the next article too")
            XCTAssertEqual(ArticleViewTests.evaluate(measure, in: webView), "34")

            app.settings.flush()
            let reread = Preferences(settings: SettingsStore(path: app.settings.path))
            XCTAssertEqual(reread.articleFont, .monospace)
            XCTAssertEqual(reread.articleFontPoints, 18)
            XCTAssertEqual(reread.articleMeasure, .narrow)
        }
    }

    func testTheAppsDarkAndHighContrastStylesReachTheShownArticle() throws {
        try withReader(serving: Self.feed(), entries: 2) { app in
            let webView = try Self.showFirstEntry(app)
            let manager = adw_style_manager_get_default()
            let accessibility = g_settings_new("org.gnome.desktop.a11y.interface")!
            defer {
                app.window.preferences.style = .followSystem
                g_settings_reset(accessibility, "high-contrast")
                g_object_unref(accessibility)
            }
            let background = { ArticleViewTests.evaluate("getComputedStyle(document.body).backgroundColor", in: webView) }
            XCTAssertEqual(background(), "rgb(255, 255, 255)")
            app.window.preferences.style = .dark
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_style_manager_get_dark(manager) != 0 })
            XCTAssertTrue(GtkTestEnvironment.iterate { background() == "rgb(30, 30, 30)" }, "dark: \(background() ?? "")")

            g_settings_set_boolean(accessibility, "high-contrast", 1)
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_style_manager_get_high_contrast(manager) != 0 }, "the desktop's high contrast")
            XCTAssertTrue(GtkTestEnvironment.iterate { background() == "rgb(0, 0, 0)" }, "dark and high contrast: \(background() ?? "")")
        }
    }

    func testWithRemoteImagesOffNoImageIsRequestedUntilLoadedOnce() throws {
        try withPixelReader { app, server in
            let article = app.window.article
            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            let images = try XCTUnwrap(PreferencesWindowTests.row(titled: "Load remote images", in: preferences))
            let toggle = try XCTUnwrap(descendant(of: images) { isWidget($0, a: gtk_switch_get_type()) })
            XCTAssertEqual(gtk_switch_get_active(cast(toggle)), 1, "on by default")
            gtk_widget_activate(images)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.preferences.loadsRemoteImages == false })
            gtk_window_destroy(cast(preferences))

            let webView = try Self.showFirstEntry(app)
            let imageWidth = { ArticleViewTests.evaluate("document.images[0].naturalWidth", in: webView) }
            XCTAssertEqual(imageWidth(), "0", "the image is not shown")
            XCTAssertEqual(Self.pixelRequests(server).count, 0, "no request left for it")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(article.loadImagesButton) != 0 },
                          "the article offers to load its images")
            saveRender(app.window.window, name: "article-images-held-back")

            RealInput.click(windowTitle: app.title, at: app.point(in: article.loadImagesButton, x: 10, y: 10))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded && imageWidth() == "1" }, "the image shows")
            XCTAssertEqual(Self.pixelRequests(server).map(\.path), ["/pixel.png?e=1"])
            XCTAssertEqual(gtk_widget_get_visible(article.imagesBar), 0, "the offer goes once taken")

            app.window.entryList.select(index: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded && article.entry?.title == "Entry 2" })
            XCTAssertEqual(imageWidth(), "0", "once is for that article only")
            XCTAssertEqual(Self.pixelRequests(server).count, 1)
            XCTAssertEqual(gtk_widget_get_visible(article.imagesBar), 1)

            app.window.preferences.loadsRemoteImages = true
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { imageWidth() == "1" }, "turned on, the article shown loads them")
            XCTAssertEqual(Self.pixelRequests(server).map(\.path), ["/pixel.png?e=1", "/pixel.png?e=2"])
            XCTAssertEqual(gtk_widget_get_visible(article.imagesBar), 0)
        }
    }

    func testATrackingPixelsCookieIsNotSentBackWithTheNextEntrysPixel() throws {
        try withPixelReader { app, server in
            let webView = try Self.showFirstEntry(app)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { Self.pixelRequests(server).count == 1 })
            let session = webkit_web_view_get_network_session(cast(webView))
            XCTAssertNotEqual(webkit_network_session_is_ephemeral(session), 0, "nothing of the session is written to disk")

            app.window.entryList.select(index: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.pixelRequests(server).count == 2 })
            let requests = Self.pixelRequests(server)
            XCTAssertEqual(requests.map(\.path), ["/pixel.png?e=1", "/pixel.png?e=2"])
            XCTAssertNil(requests[1].headers["cookie"], "the first pixel's cookie did not come back")
        }
    }

    func testAfterADelayAnEntryIsMarkedReadOnlyOnceItStayedSelected() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            app.window.preferences.markRead = .afterDelay
            let list = app.window.entryList
            list.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded })
            list.select(index: 1)
            let selected = Date()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.unreadInStore() == 2 }, "the entry left selected is marked read")
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(selected), Preferences.MarkRead.delay - 0.05, "once it stayed long enough")
            XCTAssertEqual(list.entries[list.order[0]]?.isRead, false, "the entry passed over stays unread")
            XCTAssertEqual(list.entries[list.order[1]]?.isRead, true)
        }
    }

    func testZoomStepsStayWithinTheOfferedLevels() {
        XCTAssertEqual(ArticleZoom.larger(than: 1), 1.1)
        XCTAssertEqual(ArticleZoom.smaller(than: 1), 0.9)
        XCTAssertEqual(ArticleZoom.larger(than: 1.15), 1.2, "a level between steps goes to the next one")
        XCTAssertEqual(ArticleZoom.larger(than: 3), 3)
        XCTAssertEqual(ArticleZoom.smaller(than: 0.5), 0.5)
        XCTAssertEqual(ArticleZoom.clamped(.nan), 1)
        XCTAssertEqual(ArticleZoom.clamped(40), 3)
    }

    func testOnlyAnImageFromTheWebCountsAsRemote() {
        XCTAssertTrue(ArticlePage.hasRemoteImages(#"<p><img src="https://example.org/a.png" alt="a"></p>"#))
        XCTAssertTrue(ArticlePage.hasRemoteImages(#"<IMG alt="a" src="http://example.org/a.png">"#))
        XCTAssertFalse(ArticlePage.hasRemoteImages(#"<img src="data:image/png;base64,iVBORw0KGgo=">"#), "an image inside the entry")
        XCTAssertFalse(ArticlePage.hasRemoteImages(#"<p>src="http://example.org/a.png"</p>"#), "text that looks like one")
        XCTAssertFalse(ArticlePage.hasRemoteImages(#"<a href="https://example.org/a.png">a</a>"#), "a link to one")
    }

    @MainActor
    func testASavedMarkReadSwitchIsTakenAsTheModeItMeant() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mark-read-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = SettingsStore(path: folder.appendingPathComponent("settings.ini").path)
        let preferences = Preferences(settings: settings)
        XCTAssertEqual(preferences.markRead, .whenSelected, "today's behaviour by default")
        settings.setInteger(0, forKey: "mark-read-on-show", in: "Reading")
        XCTAssertEqual(preferences.markRead, .byHand, "the switch turned off meant marking by hand")
        preferences.markRead = .afterDelay
        XCTAssertEqual(Preferences(settings: settings).markRead, .afterDelay)
    }

    /// Saves the article as WebKit draws it (its visible part) to `name`.png beside the window
    /// renders: the web view's own snapshot, whether or not the window has painted it yet.
    @MainActor
    private static func saveArticle(_ webView: UnsafeMutablePointer<GtkWidget>, name: String) {
        final class Result { var texture: OpaquePointer?; var done = false }
        let result = Result()
        let finished: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, task, data in
            let result = Unmanaged<Result>.fromOpaque(data!).takeRetainedValue()
            result.texture = webkit_web_view_get_snapshot_finish(cast(source), task, nil)
            result.done = true
        }
        webkit_web_view_get_snapshot(cast(webView), WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, finished,
                                     Unmanaged.passRetained(result).toOpaque())
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { result.done })
        let texture = try? XCTUnwrap(result.texture, "WebKit drew the article")
        guard let texture else { return }
        defer { g_object_unref(cast(texture)) }
        let folder = ProcessInfo.processInfo.environment["REFRESHGTK_TEST_RENDERS"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("refreshgtk-renders").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertNotEqual(gdk_texture_save_to_png(texture, "\(folder)/\(name).png"), 0)
    }

    /// Each zoom says the text size it reached; it stops at 300% and 50%, and Ctrl+0's reset says 100%.
    func testZoomingSaysTheTextSizeWithinItsBounds() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let toasts = app.window.article.toasts
            let cases: [(action: String, times: Int, says: String)] = [
                ("zoom-in", 1, "Text size 110%"),
                ("zoom-in", 20, "Text size 300%"),
                ("zoom-reset", 1, "Text size 100%"),
                ("zoom-out", 20, "Text size 50%"),
                ("zoom-reset", 1, "Text size 100%"),
            ]
            for (action, times, says) in cases {
                for _ in 0..<times { g_action_group_activate_action(cast(app.window.window), action, nil) }
                XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == says }, "\(action) ×\(times): \(toasts.message ?? "no toast")")
            }
            XCTAssertEqual(app.window.article.zoom, 1)
        }
    }

    /// The "Text size" toast spanned the list and the article, centred on the window: it sits
    /// over the article it describes, at three panes and at two, and covers none of the list.
    func testTheTextSizeToastSitsOverTheArticle() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let window = app.window
            GtkTestEnvironment.withAnimations(false) {
                for width: Int32 in [1280, 800] {
                    PaneLeafletTests.resize(app, width: width)
                    XCTAssertTrue(GtkTestEnvironment.iterate { PaneLeafletTests.shownPanes(window).suffix(2) == [.entries, .article] })
                    g_action_group_activate_action(cast(window.window), "zoom-in", nil)
                    var toast: UnsafeMutablePointer<GtkWidget>?
                    XCTAssertTrue(GtkTestEnvironment.iterate {
                        toast = descendant(of: window.window) {
                            String(cString: g_type_name_from_instance(cast($0))) == "AdwToastWidget" && gtk_widget_get_mapped($0) != 0
                        }
                        return toast != nil
                    }, "\(width) px: a toast shows")
                    guard let toast else { continue }
                    GtkTestEnvironment.waitForFrames(of: window.window)
                    let shown = Self.bounds(of: toast, in: window.window)
                    let article = Self.bounds(of: window.layout.articlePane, in: window.window)
                    let list = Self.bounds(of: window.layout.listContent, in: window.window)
                    XCTAssertGreaterThanOrEqual(shown.minX, article.minX, "\(width) px: the toast \(shown) starts over the article \(article)")
                    XCTAssertLessThanOrEqual(shown.maxX, article.maxX, "\(width) px: and ends over it")
                    XCTAssertGreaterThanOrEqual(shown.minX, list.maxX, "\(width) px: the list \(list) is not covered")
                    saveRender(window.window, name: "zoom-toast-\(width)")
                    g_action_group_activate_action(cast(window.window), "zoom-reset", nil)
                }
            }
        }
    }

    @MainActor
    private static func bounds(of widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) -> CGRect {
        var rect = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(widget, window, &rect), 0)
        return CGRect(x: CGFloat(rect.origin.x), y: CGFloat(rect.origin.y), width: CGFloat(rect.size.width), height: CGFloat(rect.size.height))
    }
}
