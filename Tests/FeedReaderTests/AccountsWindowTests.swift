import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Sync accounts in the window, against the real tt-rss server meson-helpers/test starts and the
/// real Secret Service (GNOME Keyring on the run's private bus): adding one in Preferences checks
/// the password first, F5 syncs it, a read mark made here reaches the server, removing asks.
final class AccountsWindowTests: XCTestCase {
    override func setUp() async throws {
        guard await MainActor.run(body: { TinyTinyRSSServer.shared }) != nil else { throw XCTSkip(TinyTinyRSSServer.skipReason) }
        let keyring = await Self.secretServiceRuns()
        if name.contains("WithoutASecretService") {
            guard !keyring else {
                throw XCTSkip("a Secret Service runs here: this test is for a session without one (the Wayland pass of meson-helpers/test)")
            }
        } else if !keyring {
            throw XCTSkip("no Secret Service on the session bus: run inside meson-helpers/keyring-session")
        }
    }

    /// Without a usable Secret Service the password has nowhere safe to go: adding says so and
    /// adds nothing, with no fallback to a file.
    func testAddingAnAccountWithoutASecretServiceSaysSoAndAddsNothing() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let server = try XCTUnwrap(TinyTinyRSSServer.shared)
            let user = try server.newUser()
            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(preferences)) }
            try Self.showPage("Accounts", of: preferences)
            let dialog = try Self.openAddAccount(from: preferences)
            try Self.type(server.url.absoluteString, into: "Server Address", of: dialog)
            try Self.type(user.name, into: "User Name", of: dialog)
            try Self.type(user.password, into: "Password", of: dialog)
            RealInput.key(windowTitle: "Add Account", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 30) { Self.problem(in: dialog) != nil })
            let keyringProblems = [ErrorCode.keyringUnavailable, .keyringLocked, .keyringFailed].map { SecretStoreError($0).message }
            XCTAssertTrue(keyringProblems.contains { Self.problem(in: dialog) == "The account could not be added. " + $0 },
                          "\(Self.problem(in: dialog) ?? "")")
            XCTAssertEqual(app.accounts().count, 0, "nothing was added")
            saveScreen(name: "add-account-no-keyring")
        }
    }

    private static func secretServiceRuns() async -> Bool {
        let key = SecretKey(kind: SyncServiceKind(rawValue: "probe"), server: URL(string: "http://probe.invalid/")!, user: "probe")
        do {
            try await LibsecretStore().save("probe", for: key)
            try await LibsecretStore().remove(for: key)
            return true
        } catch {
            return false
        }
    }

    func testAnAccountIsAddedInPreferencesSyncedByF5AndRemovedAfterAsking() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let (server, user) = try Self.userWithFeed("Synced News", count: 3)
            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            var preferencesOpen = true
            defer { if preferencesOpen { gtk_window_destroy(cast(preferences)) } }
            try Self.showPage("Accounts", of: preferences)
            XCTAssertEqual(PreferencesWindowTests.rowTitles(in: preferences), ["Add Account…"], "no account yet")

            let dialog = try Self.openAddAccount(from: preferences)
            XCTAssertEqual(PreferencesWindowTests.choice(try XCTUnwrap(PreferencesWindowTests.row(titled: "Service", in: dialog))),
                           "Tiny Tiny RSS")
            try Self.type(server.url.absoluteString, into: "Server Address", of: dialog)
            try Self.type(user.name, into: "User Name", of: dialog)
            try Self.type("not-" + user.password, into: "Password", of: dialog)
            RealInput.key(windowTitle: "Add Account", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.problem(in: dialog) != nil }, "the login failed in words")
            XCTAssertEqual(Self.problem(in: dialog),
                           "The account could not be added. The server did not accept the user name or password.")
            XCTAssertEqual(app.accounts().count, 0, "nothing was added")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(dialog, name: "add-account-wrong-password") })

            try Self.type(user.password, into: "Password", of: dialog, replacing: true)
            XCTAssertNil(Self.problem(in: dialog), "typing takes the problem away")
            RealInput.key(windowTitle: "Add Account", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { toplevel(titled: "Add Account") == nil }, "the right password adds it")
            XCTAssertEqual(app.accounts().map(\.user), [user.name])
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 5 },
                          "a new account syncs at once: \(Self.entryTitles(app))")
            XCTAssertEqual(Set(Self.entryTitles(app)), ["Entry 1", "Entry 2", "Synced News item 0", "Synced News item 1", "Synced News item 2"])
            // The page makes its rows again as the account's state changes: each look finds the row anew.
            let subtitle = { PreferencesWindowTests.row(titled: "Tiny Tiny RSS", in: preferences).flatMap(Self.subtitle) }
            XCTAssertTrue(GtkTestEnvironment.iterate { subtitle()?.contains("Last synced") == true }, subtitle() ?? "no row")
            XCTAssertEqual(subtitle()?.components(separatedBy: "\n").first, "\(user.name) — \(server.url.absoluteString)")
            XCTAssertEqual(PreferencesWindowTests.rowTitles(in: preferences), ["Tiny Tiny RSS", "Add Account…"])
            saveScreen(name: "preferences-accounts")

            // Another client adds a feed on the server; F5 over all feeds brings it, the header showing the sync.
            try server.subscribe(user, to: try server.writeFeed(title: "Later News", count: 2))
            gtk_window_destroy(cast(preferences))
            preferencesOpen = false
            RealInput.key(windowTitle: app.title, "F5")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.refreshing.running > 0 || Self.entryTitles(app).count == 7 })
            if app.window.refreshing.running > 0 { saveRender(app.window.window, name: "header-during-sync") }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 7 }, "\(Self.entryTitles(app))")
            XCTAssertTrue(Self.entryTitles(app).contains("Later News item 1"))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.refreshing.running == 0 && !app.window.entryList.header.isRefreshing })
        }
    }

    func testAReadMarkMadeInTheWindowReachesTheServerWithTheNextSync() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let (server, user) = try Self.userWithFeed("Marked", count: 2)
            try Self.addAccount(app, server: server, user: user)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 3 }, "\(Self.entryTitles(app))")
            XCTAssertEqual(try server.isUnread("Marked item 1", user: user.name), true)

            let index = try XCTUnwrap(Self.entryTitles(app).firstIndex(of: "Marked item 1"))
            app.window.entryList.select(index: index)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 2 }, "shown means read")
            Self.syncWithF5(app)
            XCTAssertEqual(try server.isUnread("Marked item 1", user: user.name), false, "the server has it read")
            XCTAssertEqual(try server.isUnread("Marked item 0", user: user.name), true, "and nothing else")

            // "Mark All as Read" asks the server to catch up with the next sync.
            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 0 })
            Self.syncWithF5(app)
            XCTAssertEqual(try server.isUnread("Marked item 0", user: user.name), false, "the server caught up")
        }
    }

    /// The service chosen shows whole in its row, however narrow the dialog: the row names the
    /// service alone, and its list names the servers that speak each below the service's name.
    func testTheServiceChosenShowsWholeAndItsListNamesTheServers() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(preferences)) }
            try Self.showPage("Accounts", of: preferences)
            let dialog = try Self.openAddAccount(from: preferences)
            defer { gtk_window_destroy(cast(dialog)) }
            let service = try XCTUnwrap(PreferencesWindowTests.row(titled: "Service", in: dialog))
            let shown = { (text: String) in
                PreferencesWindowTests.widgets(under: service, a: gtk_label_get_type()).first {
                    gtk_widget_get_mapped($0) != 0 && String(cString: gtk_label_get_text(cast($0))) == text
                }
            }

            adw_combo_row_set_selected(cast(service), 1)
            // Once laid out again for the new name: the row names the service whole, not cut short.
            XCTAssertTrue(GtkTestEnvironment.iterate {
                shown("Google Reader API").map { pango_layout_is_ellipsized(gtk_label_get_layout(cast($0))) == 0 } ?? false
            }, "the row names the service whole")

            PreferencesWindowTests.click(service, in: dialog)
            XCTAssertTrue(GtkTestEnvironment.iterate { shown("FreshRSS, Miniflux, Inoreader, The Old Reader") != nil },
                          "the list names the servers that speak the Google Reader API")
            XCTAssertNotNil(shown("FreshRSS, Miniflux"), "and those that speak Fever")
            saveScreen(name: "add-account-services")
            RealInput.key(windowTitle: "Add Account", "Escape")
        }
    }

    func testRemovingAnAccountAsksFirstAndTakesItsArticlesAway() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let (server, user) = try Self.userWithFeed("Gone Soon", count: 2)
            try Self.addAccount(app, server: server, user: user)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 3 })

            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(preferences)) }
            try Self.showPage("Accounts", of: preferences)
            let row = try XCTUnwrap(PreferencesWindowTests.row(titled: "Tiny Tiny RSS", in: preferences))
            let remove = try XCTUnwrap(descendant(of: row) { isWidget($0, a: gtk_button_get_type()) })
            XCTAssertEqual(gtk_widget_get_tooltip_text(remove).map { String(cString: $0) }, "Remove Account")

            PreferencesWindowTests.click(remove, in: preferences)
            var question = try XCTUnwrap(MessageDialogTests.appearing("Remove Account?"))
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(cast(question))),
                           "\u{2068}\(user.name) — \(server.url.absoluteString)\u{2069} is forgotten on this computer with its feeds and entries. Nothing changes on the server.")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(question, name: "remove-account-question") })
            RealInput.key(windowTitle: "Remove Account?", "Escape")
            XCTAssertTrue(GtkTestEnvironment.iterate { MessageDialogTests.shown("Remove Account?") == nil })
            XCTAssertEqual(app.accounts().count, 1, "Escape keeps it")

            PreferencesWindowTests.click(remove, in: preferences)
            question = try XCTUnwrap(MessageDialogTests.appearing("Remove Account?"))
            adw_message_dialog_response(cast(question), ConfirmDialog.Response.confirm)
            XCTAssertTrue(GtkTestEnvironment.iterate { PreferencesWindowTests.rowTitles(in: preferences) == ["Add Account…"] })
            XCTAssertEqual(app.accounts().count, 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.entryTitles(app) == ["Entry 1"] }, "its articles went with it")
            XCTAssertEqual(try server.isUnread("Gone Soon item 0", user: user.name), true, "nothing changed on the server")
        }
    }

    func testAddFeedSubscribesInAnAccountOnItsServer() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let (server, user) = try Self.userWithFeed("First", count: 1)
            try Self.addAccount(app, server: server, user: user)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 2 })
            let added = try server.writeFeed(title: "Added Here", count: 2)

            g_action_group_activate_action(cast(app.window.window), "add-feed", nil)
            let dialog = try XCTUnwrap(Self.appearing("Add Feed"))
            let destination = try XCTUnwrap(PreferencesWindowTests.widgets(under: dialog, a: gtk_drop_down_get_type()).first)
            let choices = try XCTUnwrap(gtk_drop_down_get_model(cast(destination)))
            XCTAssertEqual((0..<g_list_model_get_n_items(choices)).map { String(cString: gtk_string_list_get_string(cast(choices), $0)) },
                           ["This Computer", "\(user.name) — \(server.url.absoluteString)"])
            gtk_drop_down_set_selected(cast(destination), 1)
            RealInput.type(windowTitle: "Add Feed", added.absoluteString)
            RealInput.key(windowTitle: "Add Feed", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { toplevel(titled: "Add Feed") == nil }, "subscribed")
            XCTAssertTrue(try server.feedAddresses(user: user.name).contains(added.absoluteString), "on the server")
            // tt-rss fetches a new feed with its next update; the sync after that brings its articles.
            try server.run("update")
            RealInput.key(windowTitle: app.title, "F5")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).contains("Added Here item 1") },
                          "its articles came with the sync: \(Self.entryTitles(app))")
            XCTAssertEqual(app.window.model.feeds.map(\.title), ["Plain"], "not a subscription of this computer")
        }
    }

    /// Each way logging in can fail has its own words, and none adds an account.
    func testEachFailureToAddAnAccountIsSaidInItsOwnWords() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let server = try XCTUnwrap(TinyTinyRSSServer.shared)
            let locked = try server.newUser(apiAccess: false)
            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(preferences)) }
            try Self.showPage("Accounts", of: preferences)
            let dialog = try Self.openAddAccount(from: preferences)
            try Self.type(locked.name, into: "User Name", of: dialog)
            try Self.type(locked.password, into: "Password", of: dialog)
            let cases = [
                (server.url.absoluteString,
                 "API access is switched off for this user. Switch on “Enable API” in the Preferences of Tiny Tiny RSS, then try again."),
                (server.feedsURL.absoluteString, "No \u{2068}Tiny Tiny RSS\u{2069} server answers at this address."),
                ("http://127.0.0.1:9/", "The server could not be reached. Check the address and the network connection."),
            ]
            for (address, reason) in cases {
                try Self.type(address, into: "Server Address", of: dialog, replacing: true)
                RealInput.key(windowTitle: "Add Account", "Return")
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.problem(in: dialog) != nil }, address)
                XCTAssertEqual(Self.problem(in: dialog), "The account could not be added. " + reason)
            }
            // An http:// address on another network is warned of as it is typed, before anything
            // is sent; one on this computer is not.
            let warning = "With an http:// address the password crosses the network unencrypted: use https:// if the server has it."
            try Self.type("http://rss.example.org/", into: "Server Address", of: dialog, replacing: true)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.problem(in: dialog) == warning }, Self.problem(in: dialog) ?? "")
            try Self.type(server.url.absoluteString, into: "Server Address", of: dialog, replacing: true)
            XCTAssertTrue(GtkTestEnvironment.iterate { (Self.problem(in: dialog) ?? "").isEmpty }, Self.problem(in: dialog) ?? "")
            XCTAssertEqual(app.accounts().count, 0, "nothing was added")
            RealInput.key(windowTitle: "Add Account", "Escape")
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Add Account") == nil })
            XCTAssertEqual(PreferencesWindowTests.rowTitles(in: preferences), ["Add Account…"])
        }
    }

    /// A server gone mid-session: the failure names the account, in a toast and on its row, and Retry syncs again.
    func testASyncFailureNamesTheAccountAndRetrySyncsAgain() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let (server, user) = try Self.userWithFeed("Flaky", count: 1)
            try Self.addAccount(app, server: server, user: user)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 2 })

            try server.subscribe(user, to: try server.writeFeed(title: "Later", count: 1))
            try server.run("stop-web")
            var restarted = false
            defer { if !restarted { try? server.run("start-web") } }
            // The toast stays until acted on, however long the checks below take.
            app.window.notices.toasts.timeout = 0
            RealInput.key(windowTitle: app.title, "F5")
            let reason = "The server could not be reached. Check the address and the network connection."
            let expected = "\u{2068}\(user.name) — \(server.url.absoluteString)\u{2069} could not be synced. " + reason
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.notices.toasts.message == expected }, "\(app.window.notices.toasts.message ?? "")")
            saveScreen(name: "sync-failure-toast")

            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            try Self.showPage("Accounts", of: preferences)
            let row = try XCTUnwrap(PreferencesWindowTests.row(titled: "Tiny Tiny RSS", in: preferences))
            XCTAssertEqual(Self.subtitle(row), "\(user.name) — \(server.url.absoluteString)\n" + reason, "the row keeps the reason")
            saveScreen(name: "preferences-account-error")
            gtk_window_destroy(cast(preferences))

            try server.run("start-web")
            restarted = true
            let retry = try XCTUnwrap(toastButton(labelled: "_Retry", in: app.window))
            PreferencesWindowTests.click(retry, in: app.window.window)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).contains("Later item 0") }, "\(Self.entryTitles(app))")
        }
    }

    /// Moving a synced feed asks its server through the sync engine; tt-rss cannot move feeds
    /// through its API, so the window says so and the feed stays where it is.
    func testMovingASyncedFeedGoesThroughItsServer() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let (server, user) = try Self.userWithFeed("Unmovable", count: 1)
            try Self.addAccount(app, server: server, user: user)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 2 })
            let account = try XCTUnwrap(app.accounts().first)
            nonisolated(unsafe) var ids: (feed: Int64, folder: Int64)?
            Task { @MainActor [library = app.library] in
                guard let feed = try await library.store.feeds(accountID: account.id).first?.id else { return }
                ids = (feed, try await library.store.createFolder(named: "Local"))
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { ids != nil })
            let (feedID, folderID) = try XCTUnwrap(ids)

            let target = g_variant_new_tuple([g_variant_new_int64(gint64(feedID)), g_variant_new_int64(gint64(folderID))], 2)
            g_action_group_activate_action(cast(app.window.window), "move-to-folder", target)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.notices.toasts.message == "The server cannot do this." },
                          "\(app.window.notices.toasts.message ?? "")")
            nonisolated(unsafe) var folderOfFeed: Int64?? = .none
            Task { @MainActor [library = app.library] in
                folderOfFeed = .some(try await library.store.feeds(accountID: account.id).first?.folderID)
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { folderOfFeed != nil })
            XCTAssertEqual(folderOfFeed, .some(nil), "the synced feed stays out of the local folder")
        }
    }

    /// Two accounts sync side by side with one Ctrl+R, each bringing its own articles, and both rows say so.
    func testSeveralAccountsSyncWithOneRefresh() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let server = try XCTUnwrap(TinyTinyRSSServer.shared)
            let users = [try server.newUser(), try server.newUser()]
            for (index, user) in users.enumerated() {
                try server.subscribe(user, to: try server.writeFeed(title: "Of \(index)", count: 1))
                try Self.addAccount(app, server: server, user: user)
            }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 3 }, "\(Self.entryTitles(app))")
            for (index, user) in users.enumerated() {
                try server.subscribe(user, to: try server.writeFeed(title: "Newer of \(index)", count: 1))
            }
            RealInput.key(windowTitle: app.title, "ctrl+r")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) {
                Set(Self.entryTitles(app)).isSuperset(of: ["Newer of 0 item 0", "Newer of 1 item 0"])
            }, "\(Self.entryTitles(app))")
            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(preferences)) }
            try Self.showPage("Accounts", of: preferences)
            XCTAssertEqual(PreferencesWindowTests.rowTitles(in: preferences), ["Tiny Tiny RSS", "Tiny Tiny RSS", "Add Account…"])
            let rows = PreferencesWindowTests.widgets(under: preferences, a: adw_action_row_get_type())
                .filter { String(cString: adw_preferences_row_get_title(cast($0))) == "Tiny Tiny RSS" }
            XCTAssertEqual(rows.compactMap { Self.subtitle($0)?.components(separatedBy: "\n").first },
                           users.map { "\($0.name) — \(server.url.absoluteString)" })
            XCTAssertTrue(rows.allSatisfy { Self.subtitle($0)?.contains("Last synced") == true })
        }
    }

    /// Background refresh syncs the accounts every interval: a turn brings the server's new
    /// articles, tells of them in a notification as it does for local feeds, and sets the next
    /// turn one interval on.
    func testTheBackgroundIntervalSyncsTheAccounts() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let (server, user) = try Self.userWithFeed("Early", count: 1)
            try Self.addAccount(app, server: server, user: user)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).count == 2 })
            let notifications = try FakeNotificationServer()
            defer { notifications.stop() }
            // Set first: a change of the preferences sets the background interval from them again.
            app.window.preferences.notifiesWhenFocused = true
            let background = app.window.backgroundRefresh
            background.minutes = 60
            let firstTurn = try XCTUnwrap(background.nextAccountSync)
            XCTAssertEqual(firstTurn.timeIntervalSinceNow, 60 * 60, accuracy: 5, "one interval on")

            try server.subscribe(user, to: try server.writeFeed(title: "Overnight", count: 2))
            background.syncAccountsNow()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { Self.entryTitles(app).contains("Overnight item 0") }, "\(Self.entryTitles(app))")
            XCTAssertTrue(GtkTestEnvironment.iterate { notifications.shown.count == 1 }, "\(notifications.shown)")
            XCTAssertEqual(notifications.shown.first?.body, "2 new entries in 1 feed")
            XCTAssertTrue(GtkTestEnvironment.iterate { background.nextAccountSync.map { $0 > firstTurn } ?? false }, "the next turn is set")
            XCTAssertNil(app.window.notices.toasts.message, "a background sync that went well says nothing")
        }
    }

    // MARK: - Helpers

    /// The run's tt-rss server and a new user of it, subscribed there to a new feed titled
    /// `title` of `count` articles.
    @MainActor
    private static func userWithFeed(_ title: String, count: Int) throws -> (TinyTinyRSSServer, (name: String, password: String)) {
        let server = try XCTUnwrap(TinyTinyRSSServer.shared)
        let user = try server.newUser()
        try server.subscribe(user, to: try server.writeFeed(title: title, count: count))
        return (server, user)
    }

    /// Presses F5 and waits until the sync it starts has sent every change made here.
    @MainActor
    private static func syncWithF5(_ app: ReaderFixture, file: StaticString = #filePath, line: UInt = #line) {
        RealInput.key(windowTitle: app.title, "F5")
        XCTAssertTrue(GtkTestEnvironment.iterate { app.window.refreshing.running > 0 || app.queuedChanges() == 0 }, "a sync starts",
                      file: file, line: line)
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.refreshing.running == 0 && app.queuedChanges() == 0 },
                      "the sync ends with nothing left to send", file: file, line: line)
    }

    /// Clicks Add Account… on the Accounts page of `preferences` and returns the dialog it opens.
    @MainActor
    private static func openAddAccount(from preferences: UnsafeMutablePointer<GtkWidget>) throws -> UnsafeMutablePointer<GtkWidget> {
        PreferencesWindowTests.click(try XCTUnwrap(PreferencesWindowTests.row(titled: "Add Account…", in: preferences)), in: preferences)
        return try XCTUnwrap(appearing("Add Account"))
    }

    /// Adds the account through the Accounts page and its dialog, as a person does, and closes Preferences.
    @MainActor
    private static func addAccount(_ app: ReaderFixture, server: TinyTinyRSSServer, user: (name: String, password: String)) throws {
        let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
        defer { gtk_window_destroy(cast(preferences)) }
        try showPage("Accounts", of: preferences)
        let dialog = try openAddAccount(from: preferences)
        try type(server.url.absoluteString, into: "Server Address", of: dialog)
        try type(user.name, into: "User Name", of: dialog)
        try type(user.password, into: "Password", of: dialog)
        RealInput.key(windowTitle: "Add Account", "Return")
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { toplevel(titled: "Add Account") == nil }, "\(problem(in: dialog) ?? "")")
    }

    /// Clicks the page's name in the preferences window's view switcher.
    @MainActor
    static func showPage(_ title: String, of window: UnsafeMutablePointer<GtkWidget>) throws {
        let label = try XCTUnwrap(PreferencesWindowTests.widgets(under: window, a: gtk_label_get_type())
            .first { String(cString: gtk_label_get_label(cast($0))) == title }, "the view switcher offers \(title)")
        let shown = {
            adw_preferences_window_get_visible_page(cast(window)).flatMap { adw_preferences_page_get_title($0) }.map { String(cString: $0) } == title
                && PreferencesWindowTests.row(titled: "Style", in: window) == nil
        }
        PreferencesWindowTests.click(label, in: window)
        // Under sway the first click on a window that has just opened may only give it the pointer.
        if !GtkTestEnvironment.iterate(timeout: 2, until: shown) { PreferencesWindowTests.click(label, in: window) }
        XCTAssertTrue(GtkTestEnvironment.iterate(until: shown), "the \(title) page shows")
    }

    /// Clicks the entry row titled `title` and types `text` into it, over what it held when `replacing`.
    @MainActor
    private static func type(_ text: String, into title: String, of window: UnsafeMutablePointer<GtkWidget>, replacing: Bool = false) throws {
        let row = try XCTUnwrap(PreferencesWindowTests.row(titled: title, in: window))
        PreferencesWindowTests.click(row, in: window)
        let windowTitle = String(cString: gtk_window_get_title(cast(window)))
        if replacing { RealInput.key(windowTitle: windowTitle, "ctrl+a") }
        RealInput.type(windowTitle: windowTitle, text)
        XCTAssertTrue(GtkTestEnvironment.iterate { String(cString: gtk_editable_get_text(cast(row))) == text }, "typed into \(title)")
    }

    /// The problem the dialog shows in red, nil while it shows none.
    @MainActor
    private static func problem(in dialog: UnsafeMutablePointer<GtkWidget>) -> String? {
        PreferencesWindowTests.widgets(under: dialog, a: gtk_label_get_type())
            .first { gtk_widget_has_css_class($0, "error") != 0 }
            .map { String(cString: gtk_label_get_text(cast($0))) }
    }

    @MainActor
    /// The row's subtitle as it reads, without the marks that set its lines' direction.
    static func subtitle(_ row: UnsafeMutablePointer<GtkWidget>) -> String? {
        adw_action_row_get_subtitle(cast(row)).map { String(String(cString: $0).unicodeScalars.filter { !["\u{200F}", "\u{2068}", "\u{2069}"].contains($0) }) }
    }

    /// The titles the list shows, top to bottom.
    @MainActor
    private static func entryTitles(_ app: ReaderFixture) -> [String] {
        app.window.entryList.order.compactMap { app.window.entryList.entries[$0]?.title }
    }

    /// The window titled `title` once it shows.
    @MainActor
    private static func appearing(_ title: String) -> UnsafeMutablePointer<GtkWidget>? {
        GtkTestEnvironment.iterate { toplevel(titled: title).map { gtk_widget_get_mapped($0) != 0 } ?? false }
        return toplevel(titled: title)
    }
}

extension ReaderFixture {
    /// The accounts the store holds.
    func accounts() -> [SyncAccount] {
        nonisolated(unsafe) var accounts: [SyncAccount]?
        Task { @MainActor [library] in accounts = try? await library.store.accounts() }
        GtkTestEnvironment.iterate(timeout: 5) { accounts != nil }
        return accounts ?? []
    }

    /// The changes queued for the servers.
    func queuedChanges() -> Int? {
        nonisolated(unsafe) var count: Int?
        Task { @MainActor [library] in count = try? await library.store.queuedChangeCount() }
        GtkTestEnvironment.iterate(timeout: 5) { count != nil }
        return count
    }
}

/// What Add Account takes as a server's address.
final class AddAccountAddressTests: XCTestCase {
    func testAnAddressWithoutSchemeIsTakenAsHTTPSAndOnlyWebAddressesAreTaken() {
        onMain {
            XCTAssertEqual(AddAccountDialog.serverURL(from: " rss.example.org/tt-rss/ ")?.absoluteString, "https://rss.example.org/tt-rss/")
            XCTAssertEqual(AddAccountDialog.serverURL(from: "http://127.0.0.1:8080/")?.absoluteString, "http://127.0.0.1:8080/")
            XCTAssertNil(AddAccountDialog.serverURL(from: "ftp://example.org/"))
            XCTAssertNil(AddAccountDialog.serverURL(from: "https://"))
            XCTAssertNil(AddAccountDialog.serverURL(from: "   "))
        }
    }
}
