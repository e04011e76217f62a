import CAdw
import CGtk
@testable import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The Feed Properties window built alone, without the main window: it shows the feed's values,
/// keeps what is applied in the store, and refuses a value that makes no sense, saying why and
/// changing nothing.
final class FeedPropertiesWindowTests: XCTestCase {
    /// Runs `body` to its end while the main loop turns.
    @MainActor
    static func run<T: Sendable>(_ body: @escaping @MainActor () async throws -> T) throws -> T {
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        Task { @MainActor in
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        }
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { outcome != nil })
        return try XCTUnwrap(outcome).get()
    }

    @MainActor
    private static func row(_ title: String, in window: UnsafeMutablePointer<GtkWidget>) throws -> UnsafeMutablePointer<GtkWidget> {
        try XCTUnwrap(PreferencesWindowTests.row(titled: title, in: window), "no row “\(title)”: \(PreferencesWindowTests.rowTitles(in: window))")
    }

    private static func text(_ row: UnsafeMutablePointer<GtkWidget>) -> String { String(cString: gtk_editable_get_text(cast(row))) }

    func testTheWindowShowsTheFeedsValuesAndKeepsWhatIsApplied() throws {
        try onMain {
            adw_init()
            let library = FeedLibrary(store: try FeedStore.inMemory())
            let store = library.store
            let feed = try Self.run {
                let feed = try await store.addFeed(url: URL(string: "http://127.0.0.1:9/feed.xml")!)
                try await store.renameFeed(feed.id, to: "Local news")
                try await store.setSettings(FeedSettings(refreshInterval: 7200, keepNewest: 50, userAgent: "Agent/1"), forFeed: feed.id)
                return try await store.feed(id: feed.id)!
            }
            var changes = 0
            let properties = FeedPropertiesWindow(feed, library: library, defaults: .init(refreshMinutes: 30, keepDays: 90)) { changes += 1 }
            let window = properties.window
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_present(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 })
            XCTAssertEqual(String(cString: gtk_window_get_title(cast(window))), "Feed Properties")

            XCTAssertEqual(Self.text(try Self.row("Title", in: window)), "Local news")
            XCTAssertEqual(Self.text(try Self.row("Address", in: window)), "http://127.0.0.1:9/feed.xml")
            let interval = try Self.row("Update interval", in: window)
            XCTAssertEqual(PreferencesWindowTests.choices(interval).first, "As in Preferences (every 30 minutes)")
            XCTAssertEqual(PreferencesWindowTests.choice(interval), "Every number of hours")
            let counts = PreferencesWindowTests.widgets(under: window, a: adw_entry_row_get_type())
                .filter { String(cString: adw_preferences_row_get_title(cast($0))) == "Number" }
            XCTAssertEqual(counts.count, 2)
            let (intervalCount, keepCount) = (counts[0], counts[1])
            XCTAssertEqual(Self.text(intervalCount), "2")
            XCTAssertEqual(PreferencesWindowTests.choices(try Self.row("Keep entries", in: window)).first, "As in Preferences (90 days)")
            XCTAssertEqual(PreferencesWindowTests.choice(try Self.row("Keep entries", in: window)), "Only the newest ones")
            XCTAssertEqual(Self.text(keepCount), "50")
            XCTAssertEqual(Self.text(try Self.row("User-Agent (empty for the reader’s own)", in: window)), "Agent/1")
            XCTAssertTrue(PreferencesWindowTests.isOn(try Self.row("Notify about new entries", in: window)))
            let nextUpdate = try Self.row("Next update", in: window)
            XCTAssertEqual(String(cString: adw_action_row_get_subtitle(cast(nextUpdate))), "In a moment", "never tried yet")
            GtkTestEnvironment.waitForFrames(of: window)
            saveRender(window, name: "feed-properties")

            @MainActor func stored() throws -> FeedSettings { try Self.run { try await store.feed(id: feed.id)!.settings } }
            @MainActor func apply(_ text: String, to row: UnsafeMutablePointer<GtkWidget>) {
                gtk_editable_set_text(cast(row), text)
                cgtk_emit_by_name(cast(row), "apply")
                GtkTestEnvironment.runPending()
            }
            for (typed, message) in [("0", "A feed is refreshed at most every 5 minutes."), ("-3", "A feed is refreshed at most every 5 minutes."),
                                     ("soon", "Enter a whole number.")] {
                apply(typed, to: intervalCount)
                XCTAssertEqual(properties.lastRefusal, message, typed)
                XCTAssertNotEqual(gtk_widget_has_css_class(intervalCount, "error"), 0, "the row is marked")
                XCTAssertEqual(try stored().refreshInterval, 7200, "nothing changed for \(typed)")
            }
            apply("3", to: intervalCount)
            XCTAssertTrue(GtkTestEnvironment.iterate { (try? stored().refreshInterval) == 3 * 3600 })
            XCTAssertEqual(gtk_widget_has_css_class(intervalCount, "error"), 0, "no longer marked")
            gtk_editable_set_text(cast(intervalCount), "90")
            adw_combo_row_set_selected(cast(interval), guint(FeedPropertiesWindow.IntervalUnit.minutes.rawValue))
            XCTAssertTrue(GtkTestEnvironment.iterate { (try? stored().refreshInterval) == 90 * 60 }, "90 minutes")
            adw_combo_row_set_selected(cast(interval), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { (try? stored().refreshInterval) == .some(nil) }, "the app's interval")

            apply("0", to: keepCount)
            XCTAssertEqual(properties.lastRefusal, "Entries are kept for at least a day, and at least one of them.")
            adw_combo_row_set_selected(cast(try Self.row("Keep entries", in: window)), guint(FeedPropertiesWindow.Keeping.days.rawValue))
            apply("14", to: keepCount)
            XCTAssertTrue(GtkTestEnvironment.iterate { (try? stored()).map { $0.keepDays == 14 && $0.keepNewest == nil } ?? false })

            apply("Agent\nX-Injected: 1", to: try Self.row("User-Agent (empty for the reader’s own)", in: window))
            XCTAssertEqual(properties.lastRefusal, "The User-Agent must be one line of plain ASCII characters.")
            XCTAssertEqual(try stored().userAgent, "Agent/1")

            let paused = try Self.row("Paused", in: window)
            // Activating the row is what a click or Enter on it does: it flips the row's switch.
            adw_action_row_activate(cast(paused))
            XCTAssertTrue(GtkTestEnvironment.iterate { (try? stored().isPaused) == true })
            XCTAssertTrue(GtkTestEnvironment.iterate { String(cString: adw_action_row_get_subtitle(cast(nextUpdate))) == "Paused" })
            adw_action_row_activate(cast(try Self.row("Notify about new entries", in: window)))
            XCTAssertTrue(GtkTestEnvironment.iterate { (try? stored().notifiesNewEntries) == false })
            XCTAssertGreaterThan(changes, 0, "the window's owner heard of the changes")
        }
    }

    /// A synced feed's Properties keep what is this computer's and leave out what its server
    /// decides, saying so; what is kept is stored.
    func testASyncedFeedsPropertiesKeepWhatIsThisComputers() throws {
        try onMain {
            adw_init()
            let library = FeedLibrary(store: try FeedStore.inMemory())
            let store = library.store
            let feed = try Self.run {
                let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
                try await store.applySubscriptions(RemoteSubscriptions(
                    categories: [], feeds: [RemoteFeed(id: "3", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: nil)]),
                    accountID: account.id)
                return try await store.feeds(accountID: account.id)[0]
            }
            let properties = FeedPropertiesWindow(feed, library: library, defaults: .init(refreshMinutes: 30, keepDays: 90)) {}
            let window = properties.window
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_present(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 })
            let shown = { (title: String) in PreferencesWindowTests.row(titled: title, in: window).map { gtk_widget_is_visible($0) != 0 } ?? false }
            for title in ["Title", "Address", "Next update", "Notify about new entries", "Keep entries", "Show full articles"] {
                XCTAssertTrue(shown(title), title)
            }
            for title in ["Paused", "Update interval", "User-Agent (empty for the reader’s own)", "User name", "Password"] {
                XCTAssertFalse(shown(title), "\(title) is the server's")
            }
            XCTAssertEqual(gtk_editable_get_editable(cast(try Self.row("Title", in: window))), 0)
            XCTAssertEqual(String(cString: adw_action_row_get_subtitle(cast(try Self.row("Next update", in: window)))), "With its account’s sync")
            XCTAssertNotNil(descendant(of: window) { widget in
                isWidget(widget, a: gtk_label_get_type()) && gtk_widget_is_visible(widget) != 0
                    && String(cString: gtk_label_get_text(cast(widget))).hasPrefix("Its sync server fetches this feed")
            }, "it says why the rest is not there")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "feed-properties-synced-en") })

            let notify = try XCTUnwrap(descendant(of: try Self.row("Notify about new entries", in: window)) { isWidget($0, a: gtk_switch_get_type()) })
            gtk_switch_set_active(cast(notify), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { (try? Self.run { try await store.feed(id: feed.id)?.settings.notifiesNewEntries }) == false })
        }
    }

    /// The drop-downs showing "As in Preferences (every 30 minutes)" cut it to "As in Preferences
    /// (ev…" at the window's width: the value a feed follows is read whole, in English and German.
    func testTheDropDownsShowTheirValuesWhole() throws {
        try onMain {
            adw_init()
            defer { LanguageChoice.speak(nil) }
            for language in ["en", "de"] {
                LanguageChoice.speak(language)
                let library = FeedLibrary(store: try FeedStore.inMemory())
                let feed = try Self.run { try await library.store.addFeed(url: URL(string: "http://127.0.0.1:9/feed.xml")!) }
                let properties = FeedPropertiesWindow(feed, library: library, defaults: .init(refreshMinutes: 30, keepDays: 90)) {}
                let window = properties.window
                defer { gtk_window_destroy(cast(window)) }
                gtk_window_present(cast(window))
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 })
                GtkTestEnvironment.waitForFrames(of: window)
                for row in PreferencesWindowTests.widgets(under: window, a: adw_combo_row_get_type()) {
                    let shown = try XCTUnwrap(PreferencesWindowTests.choice(row))
                    let labels = PreferencesWindowTests.widgets(under: row, a: gtk_label_get_type())
                        .filter { gtk_widget_get_mapped($0) != 0 && String(cString: gtk_label_get_text(cast($0))) == shown }
                    XCTAssertFalse(labels.isEmpty, "“\(shown)” shows")
                    for label in labels {
                        XCTAssertEqual(pango_layout_is_ellipsized(gtk_label_get_layout(cast(label))), 0, "“\(shown)” is cut short")
                    }
                }
            }
        }
    }

    /// "Next update" counts from the feed's last try, its own interval or the app's, and what it declares.
    func testNextUpdateSaysWhen() throws {
        try onMain {
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let store = try FeedStore.inMemory()
            var feed = try Self.run { try await store.addFeed(url: URL(string: "https://site.example/feed")!) }
            XCTAssertEqual(feed.id, 1, "the spread below is feed 1's")
            feed.lastAttempt = now - 600
            let defaults = FeedPropertiesWindow.Defaults(refreshMinutes: 30, keepDays: 90)
            let cases: [(FeedSettings, TimeInterval?, Int, String)] = [
                (FeedSettings(refreshInterval: 3 * 3600), nil, 30, "In 3 hours"),
                (FeedSettings(), nil, 0, "Only when you refresh"),
                (FeedSettings(isPaused: true), nil, 30, "Paused"),
                (FeedSettings(refreshInterval: 3 * 86400), nil, 30, "In 3 days"),
            ]
            for (settings, declared, minutes, expected) in cases {
                feed.settings = settings
                feed.declaredInterval = declared
                var shown = defaults
                shown.refreshMinutes = minutes
                let text = FeedPropertiesWindow.nextUpdateText(for: feed, defaults: shown, at: now)
                XCTAssertEqual(text, expected, "\(settings)")
            }
            // Feed 1's turn is pushed back by 15 % of its interval to spread feeds apart: 34.6 minutes after its try.
            feed.settings = FeedSettings()
            XCTAssertEqual(FeedPropertiesWindow.nextUpdateText(for: feed, defaults: defaults, at: now), "In 25 minutes")
            feed.declaredInterval = 7200
            XCTAssertEqual(FeedPropertiesWindow.nextUpdateText(for: feed, defaults: defaults, at: now), "In 2 hours",
                           "the feed's ttl of two hours holds it back")
        }
    }

    /// In Arabic the window reads right to left, in Arabic, but the text of an address, a
    /// User-Agent and a user name stays left to right.
    func testInArabicTheWindowReadsRightToLeftButAddressesDoNot() throws {
        try onMain {
            adw_init()
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak("ar")
            let library = FeedLibrary(store: try FeedStore.inMemory())
            let store = library.store
            let feed = try Self.run {
                let feed = try await store.addFeed(url: URL(string: "https://news.example/feed.xml")!)
                try await store.setSettings(FeedSettings(refreshInterval: 3 * 86400, keepDays: 14), forFeed: feed.id)
                return try await store.feed(id: feed.id)!
            }
            let properties = FeedPropertiesWindow(feed, library: library, defaults: .init(refreshMinutes: 30, keepDays: 90)) {}
            let window = properties.window
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_present(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 })
            XCTAssertEqual(String(cString: gtk_window_get_title(cast(window))), "خصائص الموجز")
            XCTAssertEqual(gtk_widget_get_direction(window), GTK_TEXT_DIR_RTL)
            let address = try Self.row("العنوان", in: window)
            XCTAssertEqual(Self.text(address), "https://news.example/feed.xml")
            // The address runs left to right under its Arabic title (PartsAloneTests: where each starts).
            XCTAssertEqual(gtk_widget_get_direction(cast(try XCTUnwrap(gtk_editable_get_delegate(cast(address))))), GTK_TEXT_DIR_LTR)
            XCTAssertEqual(gtk_widget_get_direction(address), GTK_TEXT_DIR_RTL)
            XCTAssertEqual(PreferencesWindowTests.choice(try Self.row("فترة التحديث", in: window)), "كل عدد من الأيام")
            let count = try XCTUnwrap(PreferencesWindowTests.widgets(under: window, a: adw_entry_row_get_type())
                .first { String(cString: adw_preferences_row_get_title(cast($0))) == "العدد" })
            gtk_editable_set_text(cast(count), "0")
            cgtk_emit_by_name(cast(count), "apply")
            XCTAssertEqual(properties.lastRefusal, trn("A feed is refreshed at most every minute.", "A feed is refreshed at most every %d minutes.", 5)
                .filling(count: 5), "said in Arabic")
            XCTAssertNotEqual(properties.lastRefusal, "A feed is refreshed at most every 5 minutes.")
            GtkTestEnvironment.waitForFrames(of: window)
            saveRender(window, name: "feed-properties-ar")
        }
    }

    /// A feed behind HTTP authentication says what it needs and where to give it, in the user's language.
    func testA401AsksForTheUserNameAndPasswordInTheUsersLanguage() throws {
        try onMain {
            defer { LanguageChoice.speak(nil) }
            let reason = ErrorReason(.httpStatus, [.status: "401"])
            for (language, sentence) in [
                (nil, "The server asks for a user name and password (error 401). Enter them in the feed’s Properties."),
                ("de", "Der Server verlangt einen Benutzernamen und ein Passwort (Fehler 401). Geben Sie sie in den Eigenschaften des Feeds ein."),
            ] as [(String?, String)] {
                LanguageChoice.speak(language)
                XCTAssertEqual(reason.sentence, sentence)
            }
            XCTAssertNotEqual(ErrorReason(.httpStatus, [.status: "403"]).sentence, reason.sentence.replacingOccurrences(of: "401", with: "403"),
                              "a 403 is a refusal, not a question")
        }
    }
}
