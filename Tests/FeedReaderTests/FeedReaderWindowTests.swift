import AppSupport
import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshCore
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The reader as a person uses it: a real window, real pointer input, a feed served on 127.0.0.1.
final class FeedReaderWindowTests: XCTestCase {
    /// Runs `body` on a reader window subscribed to a feed of `entries` served on 127.0.0.1,
    /// once its first page shows.
    private func withReader(entries: Int, _ body: @MainActor (ReaderFixture, ServedFeed) throws -> Void) throws {
        let feed = ServedFeed(entries: entries)
        let server = try TestHTTPServer { _ in feed.failing ? .status(500) : .ok(feed.xml) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: "http://127.0.0.1:\(server.port)/feed.xml")
            defer { app.close() }
            let shown = min(entries, EntryListView.pageSize)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == shown },
                          "the first page shows: \(app.window.entryList.order.count)")
            try body(app, feed)
        }
    }

    func testPullingFetchesNewEntriesToTheTopAndTheFooterLoadsOlderOnes() throws {
        try withReader(entries: 120) { app, feed in
            let list = app.window.entryList
            XCTAssertEqual(list.shownTitles.first, "Served entry 120")

            feed.publish(3)
            RealInput.drag(windowTitle: app.title, from: app.point(in: list.listView, x: 200, y: 40), dy: 140)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                list.header.state == .idle && list.shownTitles.first == "Served entry 123"
            }, "after the pull: \(list.shownTitles.prefix(3)) header \(list.header.state)")
            XCTAssertEqual(Array(list.shownTitles.prefix(4)),
                           ["Served entry 123", "Served entry 122", "Served entry 121", "Served entry 120"])
            XCTAssertNotNil(list.header.lastUpdated, "the time of the refresh is remembered")
            XCTAssertEqual(app.window.sidebar.selectedFeedID, nil, "All Feeds stays selected")

            // Scrolling on to the end, as a person would while the list measures its rows.
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                app.scrollEntriesToEnd()
                GtkTestEnvironment.waitForFrames(of: list.listView)
                return list.order.count == 2 * EntryListView.pageSize
            }, "the footer loaded the next page: \(list.order.count)")
        }
    }

    func testF5AndTheRefreshActionRefreshLikeAPull() throws {
        try withReader(entries: 5) { app, feed in
            let list = app.window.entryList
            feed.publish(1)
            RealInput.key(windowTitle: app.title, "F5")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { list.shownTitles.first == "Served entry 6" })
            feed.publish(1)
            RealInput.key(windowTitle: app.title, "ctrl+r")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { list.shownTitles.first == "Served entry 7" })
        }
    }

    func testAFailingFeedShowsItsErrorWhileItsEntriesStay() throws {
        try withReader(entries: 5) { app, feed in
            let list = app.window.entryList
            feed.failing = true
            list.header.beginRefreshing()
            let toasts = app.window.notices.toasts
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { toasts.message != nil })
            let message = toasts.message ?? ""
            XCTAssertTrue(message.hasPrefix("“\u{2068}Served\u{2069}” could not be refreshed: ") && message.contains("500"),
                          "the toast names the feed and says why: \(message)")
            XCTAssertNil(app.window.notices.banner.message, "no banner stays over the list for it")
            XCTAssertNotNil(toastButton(labelled: "_Retry", in: app.window), "with a Retry button")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.header.state == .idle })
            XCTAssertEqual(list.order.count, 5, "the cached entries stay visible")
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            XCTAssertTrue(app.window.sidebar.tooltip(forFeed: feedID)?.contains("500") ?? false,
                          "the failing feed says why in its tooltip")
        }
    }

    /// The toast went after 5 s and a red triangle took the feed's icon: the icon stays with a
    /// badge, and the feed's list says what failed and when, with Retry and Edit Address…, until
    /// a refresh succeeds.
    func testAFailingFeedKeepsItsIconWithABadgeAndANoticeOverItsListUntilItRecovers() throws {
        try withReader(entries: 5) { app, feed in
            let (list, sidebar, notice) = (app.window.entryList, app.window.sidebar, app.window.feedFailure)
            let feedID = try XCTUnwrap(sidebar.feedIDs.first)
            sidebar.select(.feed(feedID))
            XCTAssertTrue(GtkTestEnvironment.iterate { list.source == .feed(feedID) })
            XCTAssertNil(notice.message, "no notice while the feed is well")
            feed.failing = true
            list.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { notice.message != nil })

            let message = try XCTUnwrap(notice.message)
            XCTAssertTrue(message.hasPrefix("Last refresh failed: ") && message.contains("500"), message)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.header.state == .idle }, "the refresh ended")
            XCTAssertNil(app.window.notices.toasts.message, "the notice says it: no toast over it says it again")
            XCTAssertTrue(message.contains("\nLast tried "), "it says when: \(message)")
            XCTAssertEqual(list.order.count, 5, "the entries stay under it")
            let row = try XCTUnwrap(sidebar.rowWidgets(showing: .feed(feedID)))
            XCTAssertEqual(row.errorBadge.map { gtk_widget_get_visible($0) }, 1, "the badge marks the feed")
            let iconName = gtk_image_get_icon_name(cast(row.icon)).map { String(cString: $0) }
            XCTAssertNotEqual(iconName, "dialog-warning-symbolic", "the feed keeps its own icon")
            XCTAssertEqual(gtk_widget_has_css_class(row.icon, "error"), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_revealer_get_child_revealed(cast(notice.widget)) != 0 }, "the notice slid in")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "feed-failure-notice") })

            // In Arabic and dark, said again in the new language, the badge on the mirrored side.
            let styles = adw_style_manager_get_default()
            adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_FORCE_DARK)
            app.window.switchLanguage(to: "ar")
            XCTAssertTrue(notice.message?.hasPrefix("فشل آخر تحديث: ") == true, notice.message ?? "no notice")
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_style_manager_get_dark(styles) != 0 })
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "feed-failure-notice-ar-dark") })
            adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_DEFAULT)
            app.window.switchLanguage(to: "")
            XCTAssertTrue(notice.message?.hasPrefix("Last refresh failed: ") == true, notice.message ?? "no notice")

            @MainActor func button(_ label: String) -> UnsafeMutablePointer<GtkWidget>? {
                descendant(of: notice.widget) { isWidget($0, a: gtk_button_get_type()) && gtk_button_get_label(cast($0)).map { String(cString: $0) } == label }
            }
            @MainActor func click(_ button: UnsafeMutablePointer<GtkWidget>) {
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(button) != 0 && gtk_widget_get_width(button) > 0 })
                GtkTestEnvironment.waitForFrames(of: button)
                // From elsewhere: a button drawn anew under a pointer that has not moved is not entered under Wayland.
                RealInput.move(windowTitle: app.title, to: app.point(in: list.listView, x: 100, y: 300))
                GtkTestEnvironment.settleInput()
                RealInput.click(windowTitle: app.title, at: app.point(in: button, x: 10, y: 10))
            }
            let editAddress = try XCTUnwrap(button("_Edit Address…"))
            click(editAddress)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { MessageDialogTests.shown("Edit Address") != nil },
                          "Edit Address… asks for the feed's new address")
            RealInput.key(windowTitle: "Edit Address", "Escape")
            XCTAssertTrue(GtkTestEnvironment.iterate { MessageDialogTests.shown("Edit Address") == nil })

            // Retried from the keyboard (Enter on Retry) and failing again: the notice says so
            // where it is, and the keyboard stays on its Retry.
            let keyboardRetry = try XCTUnwrap(button("_Retry"))
            gtk_widget_grab_focus(keyboardRetry)
            gtk_widget_activate(keyboardRetry)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { list.header.state != .idle }, "Retry refreshes")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { list.header.state == .idle }, "and the refresh ends")
            XCTAssertTrue(notice.message?.hasPrefix("Last refresh failed: ") == true, notice.message ?? "no notice")
            XCTAssertTrue(GtkTestEnvironment.iterate { button("_Retry").map { gtk_root_get_focus(cast(app.window.window)) == $0 } ?? false },
                          "the keyboard is still on Retry")

            feed.failing = false
            let retry = try XCTUnwrap(button("_Retry"), "the notice's own Retry, not the toast's")
            click(retry)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { notice.message == nil }, "a refresh that succeeds ends it")
            XCTAssertEqual(row.errorBadge.map { gtk_widget_get_visible($0) }, 0)
        }
    }

    /// A server answering 429 with Retry-After: the feed's notice says until when it asked to
    /// wait, and a refresh before then leaves the feed alone.
    func testARateLimitedFeedSaysUntilWhenItsServerAskedToWaitAndIsLeftAloneTillThen() throws {
        let feed = ServedFeed(entries: 5)
        let server = try TestHTTPServer { _ in feed.failing ? .status(429, headers: [("Retry-After", "3600")]) : .ok(feed.xml) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let (list, sidebar, notice) = (app.window.entryList, app.window.sidebar, app.window.feedFailure)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.order.count == 5 })
            let feedID = try XCTUnwrap(sidebar.feedIDs.first)
            sidebar.select(.feed(feedID))
            XCTAssertTrue(GtkTestEnvironment.iterate { list.source == .feed(feedID) })
            feed.failing = true
            list.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { notice.message != nil })
            let message = try XCTUnwrap(notice.message)
            let next = try XCTUnwrap(app.window.model.feeds.first?.nextFetch, "the feed's next fetch waits")
            XCTAssertEqual(next.timeIntervalSinceNow, 3600, accuracy: 60, "as long as the server asked")
            let inAnHour = EntryDateText.text(for: next)
            XCTAssertTrue(message.hasPrefix("Last refresh failed: ") && message.contains("429"), message)
            XCTAssertTrue(message.contains("; the server asked to wait until \u{2068}\(inAnHour)\u{2069}"), message)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.header.state == .idle })

            let asked = server.requests.count
            list.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { list.header.state == .idle })
            XCTAssertEqual(server.requests.count, asked, "not asked again before the time it gave")
            XCTAssertEqual(list.order.count, 5, "the entries stay")
        }
    }

    func testAFeedWithMistakesIsReadAndItsTooltipSaysWhatWasWrong() throws {
        let xml = Data("""
            <rss version="2.0"><channel><title>Q & A</title>
            <item><title>Caf&eacute; news</title><guid>m-1</guid></item></channel></rss>
            """.utf8)
        try FeedReaderTests.withReader(serving: xml, entries: 1) { app in
            XCTAssertEqual(app.window.entryList.entries.values.first?.title, "Café news")
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            let tooltip = try XCTUnwrap(app.window.sidebar.tooltip(forFeed: feedID))
            XCTAssertTrue(tooltip.hasPrefix("Read despite mistakes in the feed:"), tooltip)
            XCTAssertTrue(tooltip.contains("A stray “&” was read as text."), tooltip)
            XCTAssertTrue(tooltip.contains("HTML character names were read as HTML reads them."), tooltip)
        }
    }

    func testClickingAnEntryMarksItReadAndMarkAllReadClearsTheCounts() throws {
        try withReader(entries: 5) { app, feed in
            let list = app.window.entryList
            let first = list.order[0]
            RealInput.click(windowTitle: app.title, at: app.point(in: list.listView, x: 100, y: 20))
            XCTAssertTrue(GtkTestEnvironment.iterate { list.selectedID == first }, "the click selected the first entry")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries[first]?.isRead == true })
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 4 }, "the store knows it was read")

            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 0 })
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.values.allSatisfy(\.isRead) })
        }
    }

    /// In the Unread view, the entry being read (marked read as it was opened) stays open and
    /// listed in its place through a refresh that lists new entries above it; once another entry
    /// is opened, the next refresh lets it go.
    func testTheEntryBeingReadStaysOpenAndListedInTheUnreadViewUntilTheReaderMovesOn() throws {
        try withReader(entries: 3) { app, feed in
            let window = app.window
            XCTAssertEqual(window.preferences.markRead, .whenSelected)
            let list = window.entryList
            let listing = list.listing
            window.filterBar.select(.unread)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.listing > listing }, "the Unread view is listed")
            XCTAssertEqual(list.shownTitles, ["Served entry 3", "Served entry 2", "Served entry 1"])
            list.select(index: 1)
            let reading = try XCTUnwrap(list.selectedID)
            XCTAssertTrue(GtkTestEnvironment.iterate { window.article.entry?.id == reading && list.entries[reading]?.isRead == true },
                          "opened and marked read")

            feed.publish(1)
            RealInput.key(windowTitle: app.title, "F5")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { list.shownTitles.first == "Served entry 4" }, "\(list.shownTitles)")
            XCTAssertEqual(list.shownTitles, ["Served entry 4", "Served entry 3", "Served entry 2", "Served entry 1"],
                           "the entry read stays in its place")
            XCTAssertEqual(list.selectedID, reading)
            XCTAssertEqual(window.article.entry?.id, reading, "its article stays open")

            list.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { window.article.entry?.id != reading && window.article.entry != nil })
            feed.publish(1)
            RealInput.key(windowTitle: app.title, "F5")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { list.shownTitles.first == "Served entry 5" }, "\(list.shownTitles)")
            XCTAssertEqual(list.shownTitles, ["Served entry 5", "Served entry 4", "Served entry 3", "Served entry 1"],
                           "the entry read before goes once the reader moved on")
        }
    }

    func testTheSelectedFeedIsRememberedAcrossRestarts() throws {
        try withReader(entries: 3) { app, feed in
            let feedID = try XCTUnwrap(GtkTestEnvironment.iterate { !app.window.sidebar.feedIDs.isEmpty }
                                       ? app.window.sidebar.feedIDs.first : nil)
            app.window.sidebar.select(feedID: feedID)
            XCTAssertEqual(app.window.sidebar.selectedFeedID, feedID)
            app.close()
            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { restarted.window.sidebar.selectedFeedID == feedID })
        }
    }

    /// The window's size is kept as it changes, not only when the window goes away (quitting
    /// with Ctrl+Q leaves it be), and the next start opens as it was left (maximized: the next test).
    func testTheWindowsSizeIsRememberedAsItChanges() throws {
        try withReader(entries: 1) { app, _ in
            typealias Key = WindowKey
            gtk_window_set_default_size(cast(app.window.window), 1100, 700)
            XCTAssertTrue(GtkTestEnvironment.iterate {
                app.window.settings.integer(forKey: Key.width, in: Key.group) == 1100
                    && app.window.settings.integer(forKey: Key.height, in: Key.group) == 700
            }, "kept while the window is up")
            app.close()
            let restarted = try app.restarted()
            defer { restarted.close() }
            var (width, height): (Int32, Int32) = (0, 0)
            gtk_window_get_default_size(cast(restarted.window.window), &width, &height)
            XCTAssertEqual([width, height], [1100, 700], "the next start opens at the size left")
        }
    }

    /// A window left maximized opens maximized, and still does after it is closed again (it
    /// used to be feared its state would be lost with its surface on closing), keeping the size it
    /// had before for when it is restored. The previous run's settings file says it was left
    /// maximized, under X11 and Wayland alike; maximizing a shown window needs a window manager
    /// (WindowManagerTests).
    func testAWindowLeftMaximizedOpensMaximizedWithItsSizeKept() throws {
        try withReader(entries: 1) { app, _ in
            typealias Key = WindowKey
            gtk_window_set_default_size(cast(app.window.window), 1000, 650)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.settings.integer(forKey: Key.width, in: Key.group) == 1000 })
            app.settings.setInteger(1, forKey: Key.maximized, in: Key.group)
            app.close()
            var reopened = try app.restarted()
            defer { reopened.close() }
            for start in 1...2 {
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_window_is_maximized(cast(reopened.window.window)) != 0 },
                              "start \(start) opens maximized")
                var (width, height): (Int32, Int32) = (0, 0)
                gtk_window_get_default_size(cast(reopened.window.window), &width, &height)
                XCTAssertEqual([width, height], [1000, 650], "start \(start): restored, it takes the size it had")
                guard start == 1 else { break }
                reopened.close()
                reopened = try reopened.restarted()
            }
        }
    }

    /// A folder in the settings file's place: there, but not readable, on any machine (root
    /// reads a file without permission, so a folder stands for that fault).
    func testSettingsThatCannotBeReadAreLeftAloneAndTheWindowSaysSo() throws {
        try withReader(entries: 3) { app, _ in
            app.close()
            let path = app.settings.path
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertEqual(restarted.window.notices.banner.message, Notices.settingsUnreadableMessage())
            XCTAssertNotNil(restarted.window.notices.banner.details, "GLib's reason under Details")
            XCTAssertNil(restarted.settings.setAsidePath, "not moved aside as damaged")
            var isFolder: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
        }
    }

    func testDamagedSettingsStartAfreshAndTheWindowSaysWhereTheOldFileIs() throws {
        try withReader(entries: 3) { app, _ in
            XCTAssertNil(app.window.notices.banner.message)
            app.close()
            try Data("[window\nwidth=".utf8).write(to: URL(fileURLWithPath: app.settings.path))
            let restarted = try app.restarted()
            defer { restarted.close() }
            let keptAt = try XCTUnwrap(restarted.settings.setAsidePath)
            XCTAssertTrue(FileManager.default.fileExists(atPath: keptAt), "nothing is lost: the damaged file is kept")
            XCTAssertEqual(restarted.window.notices.banner.message, Notices.settingsResetMessage(keptAt: keptAt))
            XCTAssertTrue(restarted.window.notices.banner.message?.contains(keptAt) ?? false)
        }
    }

    func testChoosingALanguageRetranslatesTheWindowAtOnceAndIsRemembered() throws {
        try withReader(entries: 3) { app, _ in
            defer { app.window.switchLanguage(to: "") }
            let header = app.window.entryList.header
            XCTAssertTrue(header.accessibleText.hasPrefix("Pull down to refresh"))

            g_action_group_activate_action(cast(app.window.window), "language", g_variant_new_string("de"))
            // No main-loop iteration in between: every visible text has changed already.
            let title = String(cString: gtk_window_get_title(cast(app.window.window)))
            XCTAssertNotEqual(title, "Feed Reader")
            XCTAssertEqual(title, tr("Feed Reader"))
            XCTAssertFalse(header.accessibleText.hasPrefix("Pull down to refresh"), header.accessibleText)
            XCTAssertNotEqual(app.window.entryList.footer.accessibleText, "Click or pull up to load more")

            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertEqual(restarted.settings.string(forKey: LanguageChoice.settingsKey, in: LanguageChoice.settingsGroup), "de")
        }
    }

    /// A language switch shows the parts again in the new language, from their files and from the
    /// model's items, and keeps where the person is: the feed selected, the entry open, the filter.
    func testALanguageSwitchShowsThePartsAgainKeepingTheSelectionAndTheOpenArticle() throws {
        try withReader(entries: 3) { app, _ in
            defer { app.window.switchLanguage(to: "") }
            let window = app.window
            // The entry stays unread, so the Unread view's reloads (the window's start still
            // settling) keep listing it: the switch is what is tested.
            window.preferences.markRead = .byHand
            let feedID = try XCTUnwrap(window.model.feeds.first?.id)
            window.sidebar.select(.feed(feedID))
            window.filterBar.select(.unread)
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.order.count == 3 })
            window.entryList.select(index: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate { window.article.entry != nil }, "the entry is open")
            let open = try XCTUnwrap(window.article.entry?.id)

            window.switchLanguage(to: "de")
            XCTAssertEqual(window.sidebar.selection, .feed(feedID))
            XCTAssertEqual(window.entryList.selectedEntry?.id, open)
            XCTAssertEqual(window.article.entry?.id, open)
            XCTAssertEqual(window.filterBar.filter, .unread)
            XCTAssertEqual(window.entryList.order.count, 3)
            let allFeeds = try XCTUnwrap(window.model.item(.all))
            XCTAssertEqual(allFeeds.title, tr("All Feeds"))
            XCTAssertNotEqual(allFeeds.title, "All Feeds", "the sidebar's item is in German")
            let placeholder = ObjectProperty.get(window.filterBar.searchEntry, "placeholder-text", as: String.self)
            XCTAssertEqual(placeholder, tr("Search all entries"))
            XCTAssertNotEqual(placeholder, "Search all entries", "the search field is in German")
            let starName = gtk_widget_get_tooltip_text(window.article.starButton).map { String(cString: $0) }
            XCTAssertEqual(starName, tr("Star"))
            XCTAssertNotEqual(starName, "Star", "the open article's star is named in German")

            // Still there once the switched window has drawn, and the selection not moved.
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window.article.widget) != 0 })
            XCTAssertEqual(window.sidebar.selection, .feed(feedID))
            XCTAssertEqual(window.article.entry?.id, open)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window.window, name: "language-switch-de") })
            window.switchLanguage(to: "ar")
            XCTAssertEqual(window.article.entry?.id, open)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window.window, name: "language-switch-ar") })
        }
    }

    func testOnlyWebAndMailLinksOpen() {
        let cases: [(String, Bool)] = [("https://example.org/a", true), ("http://example.org", true),
                                       ("mailto:someone@example.org", true), ("file:///etc/passwd", false),
                                       ("javascript:alert(1)", false), ("ssh://host", false), ("relative/path", false)]
        for (text, opens) in cases {
            XCTAssertEqual(URL(string: text).map(Reading.opensInBrowser), opens, text)
        }
    }
}

/// An RSS feed whose newest entries the test publishes as it goes.
final class ServedFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    private var isFailing = false

    init(entries: Int) { count = entries }

    /// How many entries are published.
    var entryCount: Int { lock.withLock { count } }

    func publish(_ more: Int) { lock.withLock { count += more } }

    var failing: Bool {
        get { lock.withLock { isFailing } }
        set { lock.withLock { isFailing = newValue } }
    }

    var xml: Data {
        let total = lock.withLock { count }
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let items = (1...total).reversed().map { number in
            """
            <item><title>Served entry \(number)</title><link>https://example.org/\(number)</link>
            <guid>served-\(number)</guid><pubDate>\(formatter.string(from: base.addingTimeInterval(Double(number) * 3600)))</pubDate>
            <description>Entry number \(number).</description></item>
            """
        }
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Served</title>
            <description>Served by the test</description>\(items.joined())</channel></rss>
            """.utf8)
    }
}

enum FixtureError: Error {
    case registration(String)
}

/// The reader's main window over a fresh library in temporary folders, subscribed to one feed.
@MainActor
final class ReaderFixture {
    let window: MainWindow
    let title: String
    let application: UnsafeMutablePointer<GtkApplication>

    let folder: URL
    let library: FeedLibrary
    let settings: SettingsStore

    convenience init(subscribingTo address: String, now: @escaping @Sendable () -> Date = { Date() },
                     network: OpaquePointer = g_network_monitor_get_default()) throws {
        let folder = temporaryDirectory()
        let library = FeedLibrary(store: try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path), now: now)
        nonisolated(unsafe) var subscribed: Result<StoredFeed, any Error>?
        Task { @MainActor in
            do { subscribed = .success(try await library.subscribe(to: address)) } catch { subscribed = .failure(error) }
        }
        GtkTestEnvironment.iterate(timeout: 10) { subscribed != nil }
        _ = try XCTUnwrap(subscribed).get()
        try self.init(folder: folder, library: library, network: network)
    }

    /// A window over the store in `folder` as the app opens it at start, healing it if need be;
    /// `beforePresenting` sees the window made but not shown yet.
    convenience init(healingStoreIn folder: URL, now: @escaping @Sendable () -> Date = { Date() },
                     beforePresenting: ((MainWindow) -> Void)? = nil) throws {
        nonisolated(unsafe) var opened: Result<(store: FeedStore, notice: StorageNotice?), any Error>?
        Task { @MainActor in
            do { opened = .success(try await FeedStore.openHealing(at: folder.appendingPathComponent("feeds.sqlite"))) } catch { opened = .failure(error) }
        }
        GtkTestEnvironment.iterate(timeout: 10) { opened != nil }
        let (store, notice) = try XCTUnwrap(opened).get()
        try self.init(folder: folder, library: FeedLibrary(store: store, now: now), notice: notice, beforePresenting: beforePresenting)
    }

    /// A closed store in a new folder, subscribed to the feed at `address`, as a previous run leaves it.
    static func storeFolder(subscribedTo address: String) throws -> URL {
        let folder = temporaryDirectory()
        nonisolated(unsafe) var subscribed: Result<StoredFeed, any Error>?
        do {
            let library = FeedLibrary(store: try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path))
            Task { @MainActor in
                do { subscribed = .success(try await library.subscribe(to: address)) } catch { subscribed = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 10) { subscribed != nil }
        }
        _ = try XCTUnwrap(subscribed).get()
        return folder
    }

    private init(folder: URL, library: FeedLibrary, notice: StorageNotice? = nil,
                 network: OpaquePointer = g_network_monitor_get_default(), beforePresenting: ((MainWindow) -> Void)? = nil) throws {
        self.folder = folder
        self.library = library

        // A fresh id each time: an application's D-Bus objects outlive its window in this process.
        let id = "io.github.refreshgtk.FeedReaderTests.Run" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        // As the app: the window's resources registered first, libadwaita started by its application.
        XCTAssertTrue(AppResources.register(), "feed-reader.gresource is missing beside the tests: run meson-helpers/compile-resources")
        application = UnsafeMutableRawPointer(adw_application_new(id, G_APPLICATION_NON_UNIQUE)!).assumingMemoryBound(to: GtkApplication.self)
        AppResources.attach(to: application)
        var error: UnsafeMutablePointer<GError>?
        if g_application_register(cast(application), nil, &error) == 0 {
            defer { g_clear_error(&error) }
            throw FixtureError.registration(error.map { String(cString: $0.pointee.message) } ?? "unknown error")
        }
        settings = SettingsStore(path: folder.appendingPathComponent("settings.ini").path)
        window = MainWindow(application: application, library: library, settings: settings, storageNotice: notice, network: network)
        title = "feed-reader-test-\(UUID().uuidString.prefix(8))"
        gtk_window_set_title(cast(window.window), title)
        Signal.connect(cast(window.window), "destroy") { [weak self] in self?.isDestroyed = true }
        var firstPageShown = false
        let showsFirstPage = window.entryList.onFirstPageShown
        window.entryList.onFirstPageShown = {
            showsFirstPage?()
            firstPageShown = true
        }
        beforePresenting?(window)
        window.present()
        // Started: the stored entries are shown, or the window says why they cannot be.
        GtkTestEnvironment.wait(until: {
            firstPageShown || self.window.notices.banner.message != nil || self.window.notices.toasts.message != nil
        }, "the window's first page of entries")
        GtkTestEnvironment.settleInput()
        waitUntilStill()
    }

    /// Waits until the panes stand still, the list at the same place and size two frames running:
    /// the leaflet lays the window out anew as it takes its size, and real input aims at where
    /// the list is.
    private func waitUntilStill() {
        var last: graphene_rect_t?
        GtkTestEnvironment.wait(until: {
            GtkTestEnvironment.waitForFrames(of: self.window.window)
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(self.window.entryList.listView, self.window.window, &bounds) != 0 else { return false }
            defer { last = bounds }
            guard var previous = last else { return false }
            return graphene_rect_equal(&previous, &bounds)
        }, "the window's panes at rest")
    }

    /// A new window over the same library and settings, as after quitting and starting again.
    func restarted() throws -> ReaderFixture {
        settings.flush()
        return try ReaderFixture(folder: folder, library: library)
    }

    /// Unread entries according to the store.
    func unreadInStore() -> Int? { countInStore(unreadOnly: true) }

    /// Starred entries according to the store.
    func starredInStore() -> Int? { countInStore(starredOnly: true) }

    /// The database file the window's store keeps.
    var databasePath: String { folder.appendingPathComponent("feeds.sqlite").path }

    private func countInStore(unreadOnly: Bool = false, starredOnly: Bool = false) -> Int? {
        nonisolated(unsafe) var count: Int?
        Task { @MainActor [library] in count = try? await library.store.entryCount(unreadOnly: unreadOnly, starredOnly: starredOnly) }
        GtkTestEnvironment.iterate(timeout: 5) { count != nil }
        return count
    }

    /// Where `(x, y)` of `widget` is in the window's X surface.
    func point(in widget: UnsafeMutablePointer<GtkWidget>, x: Double, y: Double) -> (x: Int, y: Int) {
        surfacePoint(of: widget, in: window.window, x: x, y: y)
    }

    func scrollEntriesToEnd() {
        guard let adjustment = gtk_scrollable_get_vadjustment(cast(window.entryList.listView)) else { return }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
    }

    private var isClosed = false
    /// Whether the window is gone already, closed as a person closes it.
    private(set) var isDestroyed = false

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if !isDestroyed { gtk_window_destroy(cast(window.window)) }
        GtkTestEnvironment.iterate { self.isDestroyed }
        g_object_unref(cast(application))
    }
}
