import CAdw
import CGtk
import CWebKit
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The article pane: what it shows for the selected entry, where its links go, how it survives
/// its web process ending.
final class ArticleViewTests: XCTestCase {
    static let linkTarget = "https://example.org/linked-page"

    /// One entry with formatting, hostile markup and a block of link text that fills the pane.
    static let feedXML = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
        <title>Articles</title><link>https://example.org/</link><description>d</description>
        <item><title>Formatted &amp; safe</title><link>https://example.org/posts/formatted</link><guid>formatted</guid>
        <author>ann@example.org (Ann Author)</author>
        <description>Short</description>
        <content:encoded><![CDATA[<h2>Heading</h2><ul><li>one</li><li>two</li></ul>
        <table><tr><th>k</th><td>v</td></tr></table><pre><code>let x = 1</code></pre>
        <script>document.title = "ran"</script><p onclick="x()">para</p>
        <p><a href="\(linkTarget)">\(String(repeating: "a link that fills the pane ", count: 120))</a></p>]]></content:encoded></item>
        <item><title>Second</title><link>https://example.org/posts/second</link><guid>second</guid>
        <description>Plain second</description></item>
        </channel></rss>
        """.utf8)

    private func withArticles(_ body: @MainActor (ReaderFixture) throws -> Void) throws {
        try withReader(serving: Self.feedXML, entries: 2, body)
    }

    func testSelectingAnEntryShowsItsSanitizedArticleAndMarksItRead() throws {
        try withArticles { app in
            let article = app.window.article
            XCTAssertEqual(article.state, .empty)
            app.window.entryList.select(index: 0)

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded }, "WebKit loaded the page")
            XCTAssertEqual(article.state, .article)
            XCTAssertEqual(article.entry?.title, "Formatted & safe")
            let body = try XCTUnwrap(article.bodyHTML)
            XCTAssertTrue(body.hasPrefix("<h2>Heading</h2><ul><li>one</li><li>two</li></ul>"), body)
            XCTAssertTrue(body.contains("<pre><code>let x = 1</code></pre>"))
            XCTAssertTrue(body.contains("<p>para</p>"), "event attributes are gone")
            XCTAssertFalse(body.contains("script"), "no script reaches the page")
            let page = try XCTUnwrap(article.pageHTML)
            XCTAssertTrue(page.contains("<h1 dir=\"auto\">Formatted &amp; safe</h1>"), "the title is escaped")
            XCTAssertTrue(page.contains("Articles · Ann Author · "), "feed and author under the title")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 1 }, "shown means read")
            XCTAssertEqual(app.window.entryList.entries[app.window.entryList.order[0]]?.isRead, true)
            saveRender(app.window.window, name: "article-view")

            app.window.entryList.select(index: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded && article.entry?.title == "Second" })
            XCTAssertEqual(article.bodyHTML, "Plain second", "an RSS description is HTML as published")
        }
    }

    func testTheWindowStartsWithoutWebKitAndMakesItsViewForTheFirstArticle() throws {
        try withArticles { app in
            let isWebView = { (widget: UnsafeMutablePointer<GtkWidget>) in isWidget(widget, a: webkit_web_view_get_type()) }
            XCTAssertNil(descendant(of: app.window.window, where: isWebView), "no web view, so no WebKit process, before reading")
            XCTAssertEqual(String(cString: gtk_stack_get_visible_child_name(cast(app.window.article.stack))), "welcome",
                           "the pane of a first window welcomes meanwhile, in place of asking for an entry")

            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded })
            let webView = try XCTUnwrap(descendant(of: app.window.window, where: isWebView))
            XCTAssertEqual(webView, app.window.article.webView)
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_height(webView) > 100 }, "the page fills the pane")
            app.window.entryList.select(index: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded && app.window.article.entry?.title == "Second" })
            XCTAssertEqual(descendant(of: app.window.window, where: isWebView), webView, "the next article reuses the view")
        }
    }

    /// The first article's web process takes about two seconds to start, and the pane was blank
    /// meanwhile: a spinner shows in the page's place until the page has its content; later
    /// articles, in the running view, replace the page shown without it.
    func testTheFirstArticleShowsASpinnerUntilItsPageShows() throws {
        try withArticles { app in
            let article = app.window.article
            let shownSpinner = {
                descendant(of: article.widget) { isWidget($0, a: gtk_spinner_get_type()) && PaneLeafletTests.isShown($0) }
            }
            XCTAssertNil(shownSpinner(), "nothing loads before an entry is selected")
            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.state == .article }, "the page is loading")
            let spinner = try XCTUnwrap(shownSpinner(), "a spinner shows while the web view starts")
            XCTAssertNotEqual(gtk_spinner_get_spinning(cast(spinner)), 0, "and spins")
            XCTAssertNil(AccessibilityTests.labelMismatch(spinner, "Loading the article"))
            // Drawn, if the page is not there yet, for people to look at.
            GtkTestEnvironment.waitForFrames(of: spinner)
            saveRender(app.window.window, name: "article-first-loading")

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded })
            XCTAssertNil(shownSpinner(), "the page takes the spinner's place")
            XCTAssertTrue(PaneLeafletTests.isShown(try XCTUnwrap(article.madeWebView)))
            XCTAssertEqual(gtk_spinner_get_spinning(cast(spinner)), 0, "the hidden spinner stops")

            app.window.entryList.select(index: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.state == .article && article.entry?.title == "Second" })
            XCTAssertNil(shownSpinner(), "the next article replaces the page without a spinner")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded })
        }
    }

    func testAClickedLinkOpensOutsideAndTheViewStaysOnTheArticle() throws {
        try withArticles { app in
            var opened: [URL] = []
            app.window.reading.openLink = { opened.append($0) }
            let article = app.window.article
            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded })
            let webView = try XCTUnwrap(article.webView)

            // On a line of the link as the page laid it out: a fixed point can fall in the gap
            // between two lines, which belongs to the paragraph (the desktop font, and so the
            // lines, differ between X11 and Wayland).
            let line = try XCTUnwrap(Self.lastVisibleLine(of: "p a", in: webView), "the link shows in the pane")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { Self.inkedPixels(of: webView, in: line) > 50 },
                          "the link is drawn where it is laid out before it is clicked")
            RealInput.click(windowTitle: app.title, at: app.point(in: webView, x: line.minX + 40, y: line.midY))

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { !opened.isEmpty }, "the link left the app")
            XCTAssertEqual(opened, [URL(string: Self.linkTarget)!])
            XCTAssertEqual(webkit_web_view_get_uri(cast(webView)).map { String(cString: $0) }, ArticleView.pageAddress,
                           "the view never navigated")
        }
    }

    /// The box of the last line of the first element matching `selector` that shows whole in the
    /// view, in the view's coordinates.
    @MainActor
    private static func lastVisibleLine(of selector: String, in webView: UnsafeMutablePointer<GtkWidget>) -> CGRect? {
        let script = """
            Array.from(document.querySelector('\(selector)').getClientRects())
                .filter(r => r.top >= 0 && r.bottom <= innerHeight && r.width > 80)
                .map(r => [r.left, r.top, r.width, r.height].join(' ')).pop() || ''
            """
        let numbers = (evaluate(script, in: webView) ?? "").split(separator: " ").compactMap { Double($0) }
        guard numbers.count == 4 else { return nil }
        return CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// How many pixels of `rect` in `webView`, as GTK draws it now, differ from the page's
    /// background at the view's top left corner: none while the view is still blank.
    @MainActor
    private static func inkedPixels(of webView: UnsafeMutablePointer<GtkWidget>, in rect: CGRect) -> Int {
        let paintable = gtk_widget_paintable_new(webView)!
        defer { g_object_unref(cast(paintable)) }
        let snapshot = gtk_snapshot_new()!
        let (width, height) = (Int(gtk_widget_get_width(webView)), Int(gtk_widget_get_height(webView)))
        gdk_paintable_snapshot(paintable, cast(snapshot), Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return 0 }
        defer { gsk_render_node_unref(node) }
        guard let renderer = gtk_native_get_renderer(gtk_widget_get_native(webView)),
              let texture = gsk_renderer_render_texture(renderer, node, nil) else { return 0 }
        defer { g_object_unref(cast(texture)) }
        let stride = Int(gdk_texture_get_width(texture)) * 4
        var pixels = [UInt8](repeating: 0, count: stride * Int(gdk_texture_get_height(texture)))
        pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(stride)) }
        let background = Array(pixels[stride * 2 + 8..<stride * 2 + 12])
        var count = 0
        for y in max(0, Int(rect.minY))..<min(Int(gdk_texture_get_height(texture)), Int(rect.maxY)) {
            for x in max(0, Int(rect.minX))..<min(Int(gdk_texture_get_width(texture)), Int(rect.maxX)) {
                let offset = y * stride + x * 4
                if Array(pixels[offset..<offset + 4]) != background { count += 1 }
            }
        }
        return count
    }

    func testOAndTheButtonOpenTheEntryInTheBrowser() throws {
        try withArticles { app in
            var opened: [URL] = []
            app.window.reading.openLink = { opened.append($0) }
            app.window.entryList.select(index: 1)
            gtk_widget_grab_focus(app.window.entryList.listView)
            RealInput.key(windowTitle: app.title, "o")
            XCTAssertTrue(GtkTestEnvironment.iterate { opened.count == 1 })
            gtk_widget_activate(app.window.article.openButton)
            XCTAssertTrue(GtkTestEnvironment.iterate { opened.count == 2 })
            XCTAssertEqual(opened, Array(repeating: URL(string: "https://example.org/posts/second")!, count: 2))
        }
    }

    func testAnEndedWebProcessIsReportedAndReloadBringsTheArticleBack() throws {
        try withArticles { app in
            let article = app.window.article
            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded })

            webkit_web_view_terminate_web_process(cast(article.webView!))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { article.state == .crashed })
            let shown = try XCTUnwrap(gtk_stack_get_visible_child(cast(article.stack)))
            // Said as every other empty or error state says it: an icon, a title, a sentence, a button.
            XCTAssertTrue(isWidget(shown, a: adw_status_page_get_type()), "a status page, not a bare label and button")
            let page = OpaquePointer(shown)
            XCTAssertEqual(adw_status_page_get_icon_name(page).map { String(cString: $0) }, "computer-fail-symbolic")
            XCTAssertEqual(adw_status_page_get_title(page).map { String(cString: $0) }, "The Article View Stopped")
            XCTAssertEqual(adw_status_page_get_description(page).map { String(cString: $0) },
                           "Something went wrong while showing this article.")
            XCTAssertNotEqual(gtk_widget_get_mapped(shown), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "article-crashed") })

            let reload = try XCTUnwrap(descendant(of: shown) { widget in
                isWidget(widget, a: gtk_button_get_type()) && gtk_button_get_label(cast(widget)).map { String(cString: $0) } == "_Reload"
            }, "Reload is on the page")
            XCTAssertNotEqual(gtk_widget_get_mapped(reload), 0)
            XCTAssertNotEqual(gtk_widget_has_css_class(reload, "pill"), 0, "a pill, as the other status pages' buttons")
            gtk_widget_activate(reload)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.state == .article && article.isLoaded })
            XCTAssertEqual(article.entry?.title, "Formatted & safe")
        }
    }

    func testTheWebKitValuesTheAppLoadsWithoutHeadersAreTheHeaders() {
        XCTAssertEqual(WebKit.policyNavigationAction, WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION.rawValue)
        XCTAssertEqual(WebKit.policyNewWindowAction, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION.rawValue)
        XCTAssertEqual(WebKit.navigationLinkClicked, WEBKIT_NAVIGATION_TYPE_LINK_CLICKED.rawValue)
        XCTAssertEqual(WebKit.navigationOther, WEBKIT_NAVIGATION_TYPE_OTHER.rawValue)
        XCTAssertEqual(WebKit.loadFinished, WEBKIT_LOAD_FINISHED.rawValue)
        XCTAssertNotNil(WebKit.shared, "\(WebKit.library) loads and has every function the article calls")
    }

    func testWebKitsSignalsHaveTheShapesTheArticleConnectsThemWith() throws {
        try withArticles { app in
            let webView = try XCTUnwrap(app.window.article.webView)
            XCTAssertNil(Signal.mismatch(webView, "decide-policy", SignalSignature([.pointer, .uint], returns: .boolean)),
                         "connectObjectUIntReturningBool: the decision and its type")
            XCTAssertNil(Signal.mismatch(webView, "load-changed", SignalSignature([.uint], returns: .void)))
            XCTAssertNil(Signal.mismatch(webView, "web-process-terminated", SignalSignature([.uint], returns: .void)))
            XCTAssertNil(Signal.mismatch(webView, "load-failed", SignalSignature([.uint, .pointer, .pointer], returns: .boolean)),
                         "connectUIntStringErrorReturningBool, which the full article's offscreen view uses")
            XCTAssertNotNil(Signal.mismatch(webView, "decide-policy", SignalSignature([.pointer], returns: .boolean)),
                            "without the type, C would take it for the user data")
        }
    }

    func testOnlyOurOwnLoadNavigatesAndOnlyClickedWebOrMailLinksLeave() {
        let cases: [(String, Bool, Bool, ArticleView.Navigation)] = [
            ("about:blank", false, true, .load),
            ("about:blank", true, false, .refuse),
            ("https://example.org/a", true, false, .openExternally(URL(string: "https://example.org/a")!)),
            ("mailto:me@example.org", true, false, .openExternally(URL(string: "mailto:me@example.org")!)),
            ("https://example.org/redirect", false, true, .refuse),
            ("file:///etc/passwd", true, false, .refuse),
            ("javascript:alert(1)", true, false, .refuse),
        ]
        for (address, click, own, expected) in cases {
            XCTAssertEqual(ArticleView.navigation(to: address, isLinkClick: click, isOwnLoad: own), expected, address)
        }
    }

    func testInARightToLeftLanguageTheArticleKeepsItsOwnTextsDirection() throws {
        gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
        defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
        try withArticles { app in
            let article = app.window.article
            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded })
            let cases: [(selector: String, direction: String)] = [
                ("body", "rtl"), ("h1", "ltr"), (".details", "ltr"), ("article", "ltr"), ("article li", "ltr"),
            ]
            for (selector, direction) in cases {
                XCTAssertEqual(Self.evaluate("getComputedStyle(document.querySelector('\(selector)')).direction", in: article.webView!),
                               direction, "\(selector): an English entry reads left to right in the Arabic window")
            }
        }
    }

    /// What `script` returns in the article's page, as text.
    @MainActor
    @discardableResult
    static func evaluate(_ script: String, in webView: UnsafeMutablePointer<GtkWidget>) -> String? {
        final class Result { var value: String?; var done = false }
        let result = Result()
        let box = Unmanaged.passRetained(result).toOpaque()
        let finished: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, task, data in
            let result = Unmanaged<Result>.fromOpaque(data!).takeRetainedValue()
            if let value = webkit_web_view_evaluate_javascript_finish(cast(source), task, nil) {
                if let text = jsc_value_to_string(value) {
                    result.value = String(cString: text)
                    g_free(text)
                }
                g_object_unref(cast(value))
            }
            result.done = true
        }
        webkit_web_view_evaluate_javascript(cast(webView), script, -1, "feed-reader-tests", nil, nil, finished, box)
        GtkTestEnvironment.iterate(timeout: 5) { result.done }
        return result.value
    }

    func testTheArticleIsInTheFontTheWindowsTextIsDrawnWith() throws {
        try withArticles { app in
            let settings = webkit_web_view_get_settings(cast(app.window.article.webView!))
            let label = try XCTUnwrap(descendant(of: app.window.window) { isWidget($0, a: gtk_label_get_type()) })
            let original = DesktopFont.gtkFontName()
            defer { if let original { Self.setFontName(original) } }
            // Cantarell is GNOME's default and under Wayland GTK asks for it even where it is not
            // installed (as here): the page must then be in the font GTK substitutes, never serif.
            let cases: [(name: String, family: String, pixels: UInt32)] = [
                ("Cantarell 11", "Cantarell", 15), ("DejaVu Serif 12", "DejaVu Serif", 16), ("Sans 10", "Sans", 13),
            ]
            for (name, family, pixels) in cases {
                Self.setFontName(name)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.requestedFamily(of: label) == family }, "GTK's text asks for \(family)")
                let drawn = Self.drawnFamily(of: label)
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    webkit_settings_get_default_font_family(settings).map { String(cString: $0) } == drawn
                }, "\(name): the page's font is the one GTK draws with, \(drawn)")
                XCTAssertEqual(webkit_settings_get_sans_serif_font_family(settings).map { String(cString: $0) }, drawn, name)
                XCTAssertEqual(webkit_settings_get_default_font_size(settings), pixels, name)
            }
        }
    }

    @MainActor
    private static func setFontName(_ name: String) {
        var value = GValue()
        g_value_init(&value, g_type_from_name("gchararray"))
        g_value_set_string(&value, name)
        g_object_set_property(cast(gtk_settings_get_default()), "gtk-font-name", &value)
        g_value_unset(&value)
    }

    /// The family `label`'s style asks for.
    @MainActor
    private static func requestedFamily(of label: UnsafeMutablePointer<GtkWidget>) -> String? {
        pango_font_description_get_family(pango_context_get_font_description(gtk_widget_get_pango_context(label)))
            .map { String(cString: $0) }
    }

    /// The family fontconfig gives `label`'s text: the installed font it is drawn with.
    @MainActor
    private static func drawnFamily(of label: UnsafeMutablePointer<GtkWidget>) -> String? {
        let context = gtk_widget_get_pango_context(label)
        guard let font = pango_context_load_font(context, pango_context_get_font_description(context)) else { return nil }
        defer { g_object_unref(cast(font)) }
        let description = pango_font_describe(font)
        defer { pango_font_description_free(description) }
        return pango_font_description_get_family(description).map { String(cString: $0) }
    }

    func testTheDesktopsDarkStyleReachesTheWindowAndTheArticle() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let desktop = g_settings_new("org.gnome.desktop.interface")!
            defer {
                g_settings_reset(desktop, "color-scheme")
                g_object_unref(desktop)
            }
            let prefersDark = { cgtk_settings_get_boolean("gtk-application-prefer-dark-theme") != 0 }
            XCTAssertFalse(prefersDark(), "the desktop's default style is light")
            g_settings_set_string(desktop, "color-scheme", "prefer-dark")
            XCTAssertTrue(GtkTestEnvironment.iterate { prefersDark() }, "GTK and WebKit are told at once")
            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded })
            saveRender(app.window.window, name: "article-dark")

            g_settings_set_string(desktop, "color-scheme", "prefer-light")
            XCTAssertTrue(GtkTestEnvironment.iterate { !prefersDark() })
        }
    }
}
