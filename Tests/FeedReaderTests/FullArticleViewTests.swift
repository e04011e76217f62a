import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The article pane's full article: the header bar's toggle and its spinner, the article kept and found by
/// search and shown offline, the notice when a page gives none, and a feed that always shows it.
final class FullArticleViewTests: XCTestCase {
    static let page = try! Data(contentsOf: ArticleExtractionTests.pages.appendingPathComponent("garden-article.html"))

    /// A feed of two teasers: "Frost" links to the garden article (served half a second late, so
    /// the spinner can be seen), "Gone" to a page the server does not have.
    static func feed(host: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Garden Notes</title>
            <link>http://\(host)/</link><description>d</description>
            <item><title>Frost</title><link>http://\(host)/posts/frost</link><guid>frost</guid>
            <pubDate>03 Nov 2026 10:00:00 +0000</pubDate><description>Only the first lines of the post.</description></item>
            <item><title>Gone</title><link>http://\(host)/posts/gone</link><guid>gone</guid>
            <pubDate>01 Nov 2026 10:00:00 +0000</pubDate><description>A teaser for a page that is gone.</description></item>
            </channel></rss>
            """.utf8)
    }

    private func withGarden(_ body: @MainActor (ReaderFixture, TestHTTPServer) throws -> Void) throws {
        let page = Self.page
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed.xml": .ok(Self.feed(host: request.headers["host"] ?? ""))
            case "/posts/frost": .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: page, delay: 0.5)
            default: .status(404)
            }
        }
        defer { server.stop() }
        try withReader(subscribedTo: server, entries: 2) { app in try body(app, server) }
    }

    @MainActor
    private static func search(_ text: String, in app: ReaderFixture) -> [String]? {
        nonisolated(unsafe) var found: [String]?
        Task { @MainActor [store = app.library.store] in found = try? await store.search(text).compactMap(\.title) }
        GtkTestEnvironment.iterate(timeout: 5) { found != nil }
        return found
    }

    @MainActor
    private static func tooltip(_ widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        gtk_widget_get_tooltip_text(widget).map { String(cString: $0) }
    }

    func testTheButtonShowsTheArticleWithASpinnerKeepsItForSearchAndOfflineAndGoesBack() throws {
        try withGarden { app, server in
            let article = app.window.article
            let full = article.fullArticle
            app.showEntry(titled: "Frost")
            XCTAssertEqual(article.bodyHTML, "Only the first lines of the post.")
            XCTAssertEqual(Self.tooltip(full.button), "Show Full Article (F)", "named with its shortcut")
            XCTAssertNotEqual(gtk_widget_is_ancestor(full.button, UnsafeMutablePointer(app.window.layout.articleHeader)), 0,
                              "in the article's header bar, over no text")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(full.button) != 0 && gtk_widget_get_sensitive(full.button) != 0 })
            XCTAssertEqual(gtk_toggle_button_get_active(cast(full.button)), 0, "off: the feed's text shows")
            XCTAssertEqual(Self.search("bicycle", in: app), [], "the page's words are not in the feed")

            RealInput.click(windowTitle: app.title, at: app.point(in: full.button, x: 12, y: 12))
            XCTAssertTrue(GtkTestEnvironment.iterate { full.state == .loading }, "the click asked for the page: \(full.state)")
            XCTAssertNotEqual(gtk_toggle_button_get_active(cast(full.button)), 0, "pressed while the page loads")
            XCTAssertEqual(gtk_widget_get_sensitive(full.button), 0, "with a spinner, not pressed twice")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 40) { full.state == .fullArticle && article.isLoaded }, "state \(full.state)")
            let body = try XCTUnwrap(article.bodyHTML)
            XCTAssertTrue(body.contains("the kind that comes around a new bicycle"), body)
            XCTAssertFalse(body.contains("Subscribe to the newsletter"))
            XCTAssertTrue(try XCTUnwrap(article.pageHTML).contains("<h1 dir=\"auto\">Frost</h1>"), "the entry's header stays")
            XCTAssertNotEqual(gtk_toggle_button_get_active(cast(full.button)), 0, "pressed while the full article shows")
            XCTAssertNotEqual(gtk_widget_get_sensitive(full.button), 0)
            let shown = ArticleViewTests.evaluate("document.body.innerText", in: try XCTUnwrap(article.webView)) ?? ""
            XCTAssertTrue(shown.contains("the kind that comes around a new bicycle"), "the page shows the article: \(shown)")
            // For people to look at, as the display shows it: WebKit hands its painted page over a few frames after the load.
            GtkTestEnvironment.waitForFrames(of: app.window.window, count: 10)
            saveScreen(name: "full-article")
            XCTAssertEqual(Self.search("bicycle", in: app), ["Frost"], "the kept article is found by search")

            RealInput.key(windowTitle: app.title, "f")
            XCTAssertTrue(GtkTestEnvironment.iterate { article.bodyHTML == "Only the first lines of the post." }, "F goes back to the feed's text")
            XCTAssertEqual(gtk_toggle_button_get_active(cast(full.button)), 0, "no longer pressed")

            // Kept with the entry: shown again with the server gone.
            server.stop()
            app.showEntry(titled: "Gone")
            app.showEntry(titled: "Frost")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { full.state == .fullArticle && article.bodyHTML?.contains("bicycle") == true },
                          "the kept article shows offline: \(full.state)")
        }
    }

    func testAPageThatCannotBeReadSaysWhyAndTheFeedTextStays() throws {
        try withGarden { app, _ in
            let article = app.window.article
            let full = article.fullArticle
            app.showEntry(titled: "Gone")
            XCTAssertNil(full.noticeText)

            g_action_group_activate_action(cast(app.window.window), "toggle-full-article", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { full.noticeText != nil })
            XCTAssertEqual(full.state, .failed(.unreadablePage(.httpStatus(404))))
            XCTAssertEqual(full.noticeText, "The entry’s web page could not be read. Nothing was found at this address (error 404).")
            XCTAssertEqual(article.bodyHTML, "A teaser for a page that is gone.", "the feed's text stays")
            XCTAssertEqual(gtk_toggle_button_get_active(cast(full.button)), 0, "not pressed: the feed's text shows")
            XCTAssertNotEqual(gtk_widget_get_sensitive(full.button), 0, "it can be tried again")
            GtkTestEnvironment.waitForFrames(of: app.window.window, count: 10)
            saveScreen(name: "full-article-failed")

            // A language switch builds the toggle and the notice again, saying the same in German.
            app.window.switchLanguage(to: "de")
            defer { app.window.switchLanguage(to: "") }
            XCTAssertEqual(Self.tooltip(full.button), "Vollständigen Artikel anzeigen (F)")
            XCTAssertEqual(full.noticeText, "Die Webseite des Eintrags konnte nicht gelesen werden. Unter dieser Adresse wurde nichts gefunden (Fehler 404).")
            XCTAssertNotEqual(gtk_widget_is_ancestor(full.button, UnsafeMutablePointer(app.window.layout.articleHeader)), 0)
            XCTAssertNotEqual(gtk_widget_get_sensitive(full.button), 0, "the new toggle acts as the old one did")

            app.showEntry(titled: "Frost")
            XCTAssertNil(full.noticeText, "the notice belongs to the entry it was about")
        }
    }

    func testAFeedSetToAlwaysShowTheFullArticleShowsItForEachEntry() throws {
        try withGarden { app, _ in
            let article = app.window.article
            nonisolated(unsafe) var feeds: [StoredFeed]?
            Task { @MainActor [store = app.library.store] in feeds = try? await store.feeds() }
            XCTAssertTrue(GtkTestEnvironment.iterate { feeds != nil })
            let feedID = try XCTUnwrap(feeds?.first?.id)
            XCTAssertEqual(try XCTUnwrap(Self.menuState(for: feedID, in: app)), false, "off by default")

            g_action_group_change_action_state(cast(app.window.window), FullArticleSetting.actionName, g_variant_new_boolean(1))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { Self.menuState(for: feedID, in: app) == true },
                          "saved, and the feed's menu shows it checked")

            app.showEntry(titled: "Frost")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 40) {
                article.fullArticle.state == .fullArticle && article.bodyHTML?.contains("bicycle") == true
            }, "shown without asking: \(article.fullArticle.state)")
        }
    }

    /// A feed of entries linking `links` (title, address), as a web feed or a local file serves it.
    static func feed(linking links: [(String, String)]) -> Data {
        Data(("""
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Links</title><link>http://127.0.0.1/</link><description>d</description>
            """ + links.map { title, link in
                "<item><title>\(title)</title><link>\(link)</link><guid>\(title)</guid><description>Teaser of \(title).</description></item>"
            }.joined() + "</channel></rss>").utf8)
    }

    /// A web feed's (or a sync server's) link names a local file (case 35 of the red team's
    /// second run showed /etc/passwd and the app's environment, stored them and made them
    /// searchable): nothing is read or kept, and the notice is the same whether the file exists.
    /// A feed that is a local file itself may link its own pages.
    func testALinkToALocalFileIsReadOnlyForALocalFeed() throws {
        let folder = temporaryDirectory()
        let secret = folder.appendingPathComponent("secret.html")
        try ArticleExtractionTests.mulchPage(body: "<p>The quince tree by the shed.</p>").write(to: secret)
        let links = [("Secret", secret.absoluteString), ("Missing", "file:///nonexistent/secret.html"), ("Environment", "file:///proc/self/environ")]
        let xml = Self.feed(linking: links)
        try withReader(serving: xml, entries: 3) { app in
            let article = app.window.article
            let full = article.fullArticle
            for (title, _) in links {
                app.showEntry(titled: title)
                g_action_group_activate_action(cast(app.window.window), "toggle-full-article", nil)
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { full.noticeText != nil }, title)
                XCTAssertEqual(full.state, .failed(.unreadablePage(.localFileRefused)), title)
                XCTAssertEqual(full.noticeText, "The entry’s web page could not be read. A link from a feed or a server cannot open a file on this computer.",
                               "the same words whether the file exists or not: \(title)")
                XCTAssertEqual(article.bodyHTML, "Teaser of \(title).", "the feed's text stays")
                let entryID = try XCTUnwrap(article.entry?.id)
                nonisolated(unsafe) var kept: FullArticle??
                Task { @MainActor [store = app.library.store] in kept = .some(try? await store.fullArticle(forEntry: entryID)) }
                XCTAssertTrue(GtkTestEnvironment.iterate { kept != nil })
                XCTAssertNil(kept ?? nil, "nothing kept for \(title)")
            }
            XCTAssertEqual(Self.search("quince", in: app), [], "the file's words are not searchable")
            XCTAssertEqual(Self.search("worms", in: app), [])
        }

        let localFeed = folder.appendingPathComponent("local.xml")
        try xml.write(to: localFeed)
        try onMain {
            let app = try ReaderFixture(subscribingTo: localFeed.absoluteString)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 3 })
            let full = app.window.article.fullArticle
            app.showEntry(titled: "Secret")
            g_action_group_activate_action(cast(app.window.window), "toggle-full-article", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 40) { full.state == .fullArticle }, "state \(full.state)")
            XCTAssertTrue(app.window.article.bodyHTML?.contains("the worms pull it down") == true, "a local feed's page is read")
        }
    }

    /// Whether the feed's menu has "Always Show Full Article" checked; nil without the item.
    @MainActor
    private static func menuState(for feedID: Int64, in app: ReaderFixture) -> Bool? {
        guard let menu = app.window.sidebar.menu(for: .feed(feedID)) else { return nil }
        defer { g_object_unref(cast(menu)) }
        guard Self.labels(of: menu).contains("Always Show Full Article"),
              let state = g_action_group_get_action_state(cast(app.window.window), FullArticleSetting.actionName) else { return nil }
        defer { g_variant_unref(state) }
        return g_variant_get_boolean(state) != 0
    }

    /// The labels of a menu's items, its sections opened.
    @MainActor
    static func labels(of menu: OpaquePointer) -> [String] {
        MenuContents.allItems(of: menu).map(\.label)
    }
}
