import CAdw
import CGtk
@testable import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Each sync account is a section of the sidebar, built from what the store holds: no server is
/// needed for the sidebar itself. The accounts, their categories, feeds and articles are written
/// through FeedStore as a sync writes them.
final class SidebarAccountsTests: XCTestCase {
    /// What the store holds: a local folder "Tech" with one feed, a Tiny Tiny RSS account whose
    /// category "News" holds a feed with 2 unread articles (and a feed outside categories), and a
    /// Fever account with one unread article, whose last sync failed.
    private struct Library {
        var folder: URL
        var localFeed: Int64
        var localFolder: Int64
        var ttrss: SyncAccount
        var fever: SyncAccount
        var news: Int64
        var daily: Int64
        var loose: Int64
        var feverFeed: Int64
    }

    private static func makeLibrary() throws -> Library {
        let folder = temporaryDirectory()
        nonisolated(unsafe) var made: Result<Library, any Error>?
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    let local = try await store.addSubscriptions([OPMLDocument.Subscription(url: URL(string: "https://local.example/feed.xml")!,
                                                                                            title: "Local Notes", folderPath: ["Tech"])])
                    let ttrss = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "http://127.0.0.1:8080/tt-rss/")!,
                                                           user: "alice")
                    try await store.applySubscriptions(RemoteSubscriptions(
                        categories: [RemoteCategory(id: "3", title: "News")],
                        feeds: [RemoteFeed(id: "11", url: URL(string: "https://news.example/daily.xml")!, title: "Daily", categoryID: "3"),
                                RemoteFeed(id: "12", url: URL(string: "https://loose.example/feed.xml")!, title: "Loose", categoryID: nil)]),
                        accountID: ttrss.id)
                    let articles = (1...3).map { number in
                        RemoteArticle(id: "\(number)", feedID: "11", title: "Synced \(number)", link: URL(string: "https://news.example/\(number)"),
                                      author: nil, published: Date(timeIntervalSince1970: 1_790_000_000 + Double(number)), updated: nil,
                                      content: "<p>Text</p>", isRead: number == 3, isStarred: false)
                    }
                    _ = try await store.storeArticles(articles, accountID: ttrss.id, cursor: "3")
                    let fever = try await store.addAccount(kind: FeverService.kind, server: URL(string: "https://rss.example.org/api/fever.php")!,
                                                           user: "bob")
                    try await store.applySubscriptions(RemoteSubscriptions(
                        categories: [RemoteCategory(id: "1", title: "Blogs")],
                        feeds: [RemoteFeed(id: "5", url: URL(string: "https://blog.example/atom.xml")!, title: "A Blog", categoryID: "1")]),
                        accountID: fever.id)
                    _ = try await store.storeArticles([
                        RemoteArticle(id: "900", feedID: "5", title: "Blog post", link: URL(string: "https://blog.example/1"), author: nil,
                                      published: Date(timeIntervalSince1970: 1_790_000_100), updated: nil, content: "<p>Post</p>",
                                      isRead: false, isStarred: false),
                    ], accountID: fever.id, cursor: "900")
                    try await store.recordSync(accountID: fever.id, at: Date(), error: SyncError(.unreachable, "connection refused"))
                    let ttrssFeeds = try await store.feeds(accountID: ttrss.id)
                    let localFolders = try await store.folders()
                    let failedFever = try await store.account(id: fever.id)
                    let news = try await store.folders(accountID: ttrss.id).first?.id
                    let feverFeed = try await store.feeds(accountID: fever.id).first?.id
                    made = .success(Library(
                        folder: folder, localFeed: try XCTUnwrap(local.added.first?.id), localFolder: try XCTUnwrap(localFolders.first?.id),
                        ttrss: ttrss, fever: try XCTUnwrap(failedFever), news: try XCTUnwrap(news),
                        daily: try XCTUnwrap(ttrssFeeds.first { $0.title == "Daily" }?.id),
                        loose: try XCTUnwrap(ttrssFeeds.first { $0.title == "Loose" }?.id),
                        feverFeed: try XCTUnwrap(feverFeed)))
                } catch { made = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 20) { made != nil }
        }
        return try XCTUnwrap(made).get()
    }

    func testEachAccountIsASectionWithItsCategoriesFeedsCountsAndLastError() throws {
        let library = try Self.makeLibrary()
        let feverBlogs = try Self.folderID(named: "Blogs", in: library)
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            let expected: [FeedSelection] = [
                .all, .starred, .folder(library.localFolder), .feed(library.localFeed),
                .account(library.ttrss.id), .feed(library.loose), .folder(library.news), .feed(library.daily),
                .account(library.fever.id), .folder(feverBlogs), .feed(library.feverFeed),
            ]
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items == expected }, "\(sidebar.items)")

            // What a screen reader hears: the user and the server, the count; the service in the description.
            let names: [(FeedSelection, String)] = [
                (.all, "All Feeds, 3 unread"), (.account(library.ttrss.id), "alice — http://127.0.0.1:8080/tt-rss/, 2 unread"),
                (.folder(library.news), "News, 2 unread"), (.feed(library.daily), "Daily, 2 unread"),
                (.account(library.fever.id), "bob — https://rss.example.org/api/fever.php, 1 unread"),
            ]
            for (item, name) in names {
                let row = try XCTUnwrap(sidebar.rowWidget(showing: item), "\(item)")
                XCTAssertNil(AccessibilityTests.labelMismatch(row, name))
            }
            let ttrssBox = try XCTUnwrap(Self.box(of: .account(library.ttrss.id), in: sidebar))
            XCTAssertNil(Self.descriptionMismatch(ttrssBox, "Tiny Tiny RSS"))
            XCTAssertEqual(Self.labels(of: .account(library.ttrss.id), in: sidebar), ["127.0.0.1:8080", "alice", "2"])

            // The failed sync shows on the Fever account's row, in the user's language.
            let reason = "The server could not be reached. Check the address and the network connection."
            XCTAssertEqual(sidebar.tooltip(of: .account(library.fever.id)), reason)
            XCTAssertNil(sidebar.tooltip(of: .account(library.ttrss.id)), "an account whose last sync completed")
            let feverBox = try XCTUnwrap(Self.box(of: .account(library.fever.id), in: sidebar))
            XCTAssertNil(Self.descriptionMismatch(feverBox, "Fever API \(reason)"))
            let warning = try XCTUnwrap(descendant(of: feverBox) { gtk_widget_has_css_class($0, "error") != 0 })
            XCTAssertNotEqual(gtk_widget_get_mapped(warning), 0, "the warning icon shows")
            XCTAssertNil(AccessibilityTests.labelMismatch(warning, reason))
            XCTAssertNil(descendant(of: ttrssBox) { gtk_widget_has_css_class($0, "error") != 0 && gtk_widget_get_mapped($0) != 0 })

            // Selecting an account lists all its articles, and only them.
            sidebar.select(.account(library.fever.id))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.shownTitles == ["Blog post"] }, "\(app.window.entryList.shownTitles)")
            sidebar.select(.account(library.ttrss.id))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 3 }, "\(app.window.entryList.order.count)")
            XCTAssertEqual(Set(app.window.entryList.entries.values.map(\.feedID)), [library.daily])

            // Nothing offers to subscribe or move a local feed into an account: not the Fever
            // account (which cannot), not another's. A synced feed's menu offers what its server
            // can do: Fever neither moves nor unsubscribes, tt-rss unsubscribes but cannot move; its
            // Properties hold what is this computer's.
            XCTAssertEqual(Self.menuActions(sidebar.menu(for: .account(library.fever.id))), ["win.mark-account-read"])
            XCTAssertEqual(Self.menuActions(sidebar.menu(for: .folder(feverBlogs))), ["win.mark-folder-read"])
            XCTAssertEqual(Self.menuActions(sidebar.menu(for: .folder(library.news))), ["win.mark-folder-read"])
            let fullArticle = "win." + FullArticleSetting.actionName
            XCTAssertEqual(Self.menuActions(sidebar.menu(for: .feed(library.feverFeed))), ["win.mark-feed-read", fullArticle, "win.mute-feed", "win.feed-properties"])
            XCTAssertEqual(Self.menuActions(sidebar.menu(for: .feed(library.daily))),
                           ["win.mark-feed-read", fullArticle, "win.mute-feed", "win.feed-properties", "win.remove-feed"], "removing last, in a section of its own")
            XCTAssertFalse(sidebar.drop(.feed(library.localFeed), on: .folder(feverBlogs)))
            XCTAssertFalse(sidebar.drop(.feed(library.localFeed), on: .account(library.fever.id)))
            XCTAssertFalse(sidebar.drop(.feed(library.daily), on: .folder(library.localFolder)), "a synced feed stays in its account")
            XCTAssertTrue(Self.menuActions(sidebar.menu(for: .feed(library.localFeed))).contains("win.move-to-folder"),
                          "a local feed's menu is as before")

            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "sidebar-accounts-light") })

            // The account's menu marks all its articles read, the other account's stay unread.
            g_action_group_activate_action(cast(app.window.window), "mark-account-read", g_variant_new_int64(gint64(library.ttrss.id)))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 1 }, "the Fever article stays unread")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.labels(of: .account(library.ttrss.id), in: sidebar) == ["127.0.0.1:8080", "alice"] },
                          "the count is gone from the account's row: \(Self.labels(of: .account(library.ttrss.id), in: sidebar))")

            // An account's folder marks its articles read from its menu, and its server's category
            // is caught up at the next sync: one queued change, not one per article.
            g_action_group_activate_action(cast(app.window.window), "mark-folder-read", g_variant_new_int64(gint64(feverBlogs)))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 0 }, "the Fever article is read")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.labels(of: .folder(feverBlogs), in: sidebar) == ["Blogs"] },
                          "the count is gone from the folder's row: \(Self.labels(of: .folder(feverBlogs), in: sidebar))")
            XCTAssertEqual(try Self.queue(of: library.fever, in: library), ["catchupCategory 1"])

            // The keys that open and close a folder do so for an account.
            RealInput.click(windowTitle: app.title, at: FolderTests.point(of: .account(library.fever.id), in: app))
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .account(library.fever.id) })
            RealInput.key(windowTitle: app.title, "Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { !sidebar.items.contains(.feed(library.feverFeed)) }, "Left closes the account")
            RealInput.key(windowTitle: app.title, "Right")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.feed(library.feverFeed)) }, "Right opens it, Blogs open inside")

            let styles = adw_style_manager_get_default()
            adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_FORCE_DARK)
            defer { adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_DEFAULT) }
            GtkTestEnvironment.iterate(for: 0.3)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "sidebar-accounts-dark") })
        }
    }

    func testAClosedAccountOrFolderStaysClosedAndTheSelectionSurvivesAReload() throws {
        let library = try Self.makeLibrary()
        try onMain {
            var app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            var sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.feed(library.daily)) })
            sidebar.select(.feed(library.daily))
            XCTAssertEqual(sidebar.selection, .feed(library.daily))
            let row = try XCTUnwrap(sidebar.rowWidget(showing: .feed(library.daily)))

            // A reload, as after a sync or a refresh: the row and its selection stay.
            nonisolated(unsafe) var reloaded = false
            let window = app.window
            Task { @MainActor in
                await window.model.changed(.entries())
                reloaded = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { reloaded })
            XCTAssertEqual(sidebar.selection, .feed(library.daily))
            XCTAssertEqual(sidebar.rowWidget(showing: .feed(library.daily)), row, "the same row widget, not a rebuilt list")
            XCTAssertNotEqual(gtk_widget_get_state_flags(row).rawValue & GTK_STATE_FLAG_SELECTED.rawValue, 0, "drawn selected")

            // Closing the account around the selected feed selects the account.
            sidebar.setExpanded(.account(library.ttrss.id), false)
            XCTAssertFalse(sidebar.items.contains(.feed(library.daily)))
            XCTAssertFalse(sidebar.items.contains(.folder(library.news)))
            XCTAssertEqual(sidebar.selection, .account(library.ttrss.id))
            let accountRow = try XCTUnwrap(sidebar.rowWidget(showing: .account(library.ttrss.id)))
            XCTAssertEqual(gtk_test_accessible_check_state_expanded(accountRow), false)
            sidebar.setExpanded(library.localFolder, false)
            XCTAssertFalse(sidebar.items.contains(.feed(library.localFeed)))

            // As the person left them, after a restart.
            let restarted = try app.restarted()
            app.close()
            app = restarted
            sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.account(library.fever.id)) })
            XCTAssertEqual(sidebar.selection, .account(library.ttrss.id), "the account selected when the reader closed")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 3 }, "its articles listed")
            XCTAssertEqual(sidebar.items, [.all, .starred, .folder(library.localFolder), .account(library.ttrss.id),
                                           .account(library.fever.id), .folder(try Self.folderID(named: "Blogs", in: library)),
                                           .feed(library.feverFeed)])
            sidebar.setExpanded(.account(library.ttrss.id), true)
            XCTAssertTrue(sidebar.items.contains(.folder(library.news)))
            XCTAssertTrue(sidebar.items.contains(.feed(library.daily)), "News opens as it was left")
            let opened = try XCTUnwrap(sidebar.rowWidget(showing: .account(library.ttrss.id)))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_test_accessible_check_state_expanded(opened) == true })
        }
    }

    /// One user's Google Reader and Fever accounts on one server show their service below the
    /// user, or the two sections would look the same; other accounts show the user alone.
    func testTwoAccountsOfOneUserOnOneServerAreToldApartByTheirService() throws {
        let library = try Self.makeLibrary()
        let greader = try Self.addAccount(GoogleReaderService.kind, server: "https://rss.example.org/api/greader.php", user: "bob", in: library)
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.account(greader.id)) })
            XCTAssertEqual(Self.labels(of: .account(library.fever.id), in: sidebar), ["rss.example.org", "bob · Fever API", "1"])
            XCTAssertEqual(Self.labels(of: .account(greader.id), in: sidebar), ["rss.example.org", "bob · Google Reader API"])
            XCTAssertEqual(Self.labels(of: .account(library.ttrss.id), in: sidebar), ["127.0.0.1:8080", "alice", "2"])
        }
    }

    /// Everywhere else an account is named, one user's Google Reader and Fever accounts on one
    /// server are told apart by their service too: the Accounts page's rows, the question before
    /// removing one, the toast after it, a sync's failure; Add Feed's choices.
    func testTwoAccountsOfOneUserOnOneServerAreNamedApartEverywhere() throws {
        let library = try Self.makeLibrary()
        let greader = try Self.addAccount(GoogleReaderService.kind, server: "https://rss.example.org/api/greader.php", user: "bob", in: library)
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.items.contains(.account(greader.id)) })
            let feverSection = try XCTUnwrap(app.window.sidebar.rowWidget(showing: .account(library.fever.id)))
            XCTAssertNil(AccessibilityTests.labelMismatch(feverSection, "bob — https://rss.example.org/api/fever.php (Fever API), 1 unread"))
            let fever = "\u{2068}bob — https://rss.example.org/api/fever.php (Fever API)\u{2069}"

            app.window.notices.toasts.timeout = 0
            var outcome = AccountSync.Outcome()
            outcome.failures = [(library.fever, .server(SyncError(.unreachable, "connection refused")))]
            app.window.accounts.report(outcome)
            XCTAssertEqual(app.window.notices.toasts.message,
                           fever + " could not be synced. The server could not be reached. Check the address and the network connection.")

            let preferences = try PreferencesWindowTests.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(preferences)) }
            try AccountsWindowTests.showPage("Accounts", of: preferences)
            let feverRow = try XCTUnwrap(PreferencesWindowTests.row(titled: "Fever API", in: preferences))
            let greaderRow = try XCTUnwrap(PreferencesWindowTests.row(titled: "Google Reader API", in: preferences))
            XCTAssertEqual(AccountsWindowTests.subtitle(greaderRow)?.split(separator: "\n").first,
                           "bob — https://rss.example.org/api/greader.php (Google Reader API)")
            XCTAssertEqual(AccountsWindowTests.subtitle(feverRow)?.split(separator: "\n").first,
                           "bob — https://rss.example.org/api/fever.php (Fever API)")
            let ttrssRow = try XCTUnwrap(PreferencesWindowTests.row(titled: "Tiny Tiny RSS", in: preferences))
            XCTAssertEqual(AccountsWindowTests.subtitle(ttrssRow)?.split(separator: "\n").first, "alice — http://127.0.0.1:8080/tt-rss/",
                           "an account without a twin is named by its user and server alone")

            let remove = try XCTUnwrap(descendant(of: feverRow) { isWidget($0, a: gtk_button_get_type()) })
            PreferencesWindowTests.click(remove, in: preferences)
            let question = try XCTUnwrap(MessageDialogTests.appearing("Remove Account?"))
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(cast(question))),
                           fever + " is forgotten on this computer with its feeds and entries. Nothing changes on the server.")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(question, name: "remove-twin-account-question") })
            adw_message_dialog_response(cast(question), ConfirmDialog.Response.confirm)
            let removed = fever + " was removed."
            XCTAssertTrue(GtkTestEnvironment.iterate {
                PreferencesWindowTests.widgets(under: preferences, a: gtk_label_get_type())
                    .contains { gtk_widget_get_mapped($0) != 0 && String(cString: gtk_label_get_text(cast($0))) == removed }
            }, "the toast names the account removed as the question did")
            XCTAssertTrue(GtkTestEnvironment.iterate { !app.window.sidebar.items.contains(.account(library.fever.id)) })
            XCTAssertEqual(AccountsWindowTests.subtitle(try XCTUnwrap(PreferencesWindowTests.row(titled: "Google Reader API", in: preferences)))?
                .split(separator: "\n").first, "bob — https://rss.example.org/api/greader.php", "alone again, no service is needed")
            XCTAssertEqual(Self.labels(of: .account(greader.id), in: app.window.sidebar), ["rss.example.org", "bob"])
        }
    }

    /// In Arabic an account's row on the Accounts page reads from the right on every line: its
    /// name, in Latin letters, lines up with the Arabic line below it instead of at the left.
    func testInArabicAnAccountsRowReadsFromTheRightOnEveryLine() throws {
        let library = try Self.makeLibrary()
        try onMain {
            LanguageChoice.speak("ar")
            defer { LanguageChoice.speak(nil) }
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.items.contains(.account(library.fever.id)) })
            let preferences = try PreferencesWindowTests.open(app, titled: tr("Preferences"))
            defer { gtk_window_destroy(cast(preferences)) }
            try AccountsWindowTests.showPage(tr("Accounts"), of: preferences)
            let row = try XCTUnwrap(PreferencesWindowTests.row(titled: "Tiny Tiny RSS", in: preferences))
            let subtitle = try XCTUnwrap(PreferencesWindowTests.widgets(under: row, a: gtk_label_get_type())
                .first { gtk_widget_has_css_class($0, "subtitle") != 0 })
            let layout = try XCTUnwrap(gtk_label_get_layout(cast(subtitle)))
            XCTAssertEqual(pango_layout_get_line_count(layout), 2, "the name, then when it last synced")
            for line in 0..<pango_layout_get_line_count(layout) {
                XCTAssertEqual(pango_layout_line_get_resolved_direction(pango_layout_get_line_readonly(layout, line)), PANGO_DIRECTION_RTL,
                               "line \(line) of \(String(cString: gtk_label_get_text(cast(subtitle))))")
            }
            saveScreen(name: "accounts-page-arabic")
        }
    }

    /// Add Feed opened with an account's feed or folder selected starts in that account and
    /// folder; with a Fever account's selected, or a local feed, it starts on this computer.
    func testAddFeedStartsInTheAccountAndFolderSelected() throws {
        let library = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.feed(library.daily)) })
            /// Opens Add Feed with `selection` selected and checks where it starts, once it has looked the selection up.
            let opens = { (selection: FeedSelection, account: String, folder: String?) throws in
                sidebar.select(selection)
                XCTAssertTrue(GtkTestEnvironment.iterate { app.window.model.selection == selection })
                g_action_group_activate_action(cast(app.window.window), "add-feed", nil)
                XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Add Feed").map { gtk_widget_get_mapped($0) != 0 } ?? false })
                let dialog = try XCTUnwrap(toplevel(titled: "Add Feed"))
                defer { gtk_window_destroy(cast(dialog)) }
                let dropDowns = { PreferencesWindowTests.widgets(under: dialog, a: gtk_drop_down_get_type()) }
                let chosen = { (dropDown: UnsafeMutablePointer<GtkWidget>) -> String? in
                    guard gtk_widget_is_visible(dropDown) != 0, let item = gtk_drop_down_get_selected_item(cast(dropDown)) else { return nil }
                    return String(cString: gtk_string_object_get_string(cast(item)))
                }
                // The folder's choice shows only for an account with folders.
                let expected: [String?] = [account] + (folder.map { [$0] } ?? [])
                let shows = { dropDowns().map(chosen) == expected }
                if account == "This Computer" {
                    // Nothing to wait for: the lookup of the selection must leave it there.
                    GtkTestEnvironment.iterate(for: 1)
                    XCTAssertTrue(shows(), "\(selection): \(dropDowns().map(chosen))")
                } else {
                    XCTAssertTrue(GtkTestEnvironment.iterate(until: shows), "\(selection): \(dropDowns().map(chosen))")
                }
            }

            try opens(.feed(library.daily), "alice — http://127.0.0.1:8080/tt-rss/", "News")
            try opens(.account(library.ttrss.id), "alice — http://127.0.0.1:8080/tt-rss/", "No Folder")
            try opens(.feed(library.feverFeed), "This Computer", nil)
            try opens(.feed(library.localFeed), "This Computer", nil)
        }
    }

    /// Add Feed offers to subscribe in each account; with a Fever account chosen it says that the
    /// Fever API cannot subscribe, and Add stays off, whatever address is typed.
    func testAddFeedSaysAFeverAccountCannotSubscribe() throws {
        let library = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.items.contains(.account(library.fever.id)) })
            g_action_group_activate_action(cast(app.window.window), "add-feed", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Add Feed").map { gtk_widget_get_mapped($0) != 0 } ?? false })
            let dialog = try XCTUnwrap(toplevel(titled: "Add Feed"))
            defer { gtk_window_destroy(cast(dialog)) }
            let destination = try XCTUnwrap(PreferencesWindowTests.widgets(under: dialog, a: gtk_drop_down_get_type()).first)
            let model = try XCTUnwrap(gtk_drop_down_get_model(cast(destination)))
            let choices = (0..<g_list_model_get_n_items(model)).map { String(cString: gtk_string_list_get_string(cast(model), $0)) }
            XCTAssertEqual(choices, ["This Computer", "alice — http://127.0.0.1:8080/tt-rss/", "bob — https://rss.example.org/api/fever.php"])
            let entry = try XCTUnwrap(PreferencesWindowTests.widgets(under: dialog, a: gtk_text_get_type()).first)
            gtk_editable_set_text(cast(entry), "https://blog.example/other.xml")
            let add = try XCTUnwrap(PreferencesWindowTests.widgets(under: dialog, a: gtk_button_get_type())
                .first { gtk_button_get_label(cast($0)).map { String(cString: $0) } == "_Add" })
            let says = { (text: String) in
                PreferencesWindowTests.widgets(under: dialog, a: gtk_label_get_type())
                    .contains { gtk_widget_get_visible($0) != 0 && String(cString: gtk_label_get_text(cast($0))) == text }
            }
            let cannot = "The Fever API cannot subscribe to feeds. Subscribe on the server instead: the feed comes here with the next sync."
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_sensitive(add) != 0 }, "a feed's address can be added here")

            gtk_drop_down_set_selected(cast(destination), 2)
            XCTAssertTrue(GtkTestEnvironment.iterate { says(cannot) }, "the dialog says why not")
            XCTAssertEqual(gtk_widget_get_sensitive(add), 0, "nothing can be added in the Fever account")
            saveScreen(name: "add-feed-fever")

            gtk_drop_down_set_selected(cast(destination), 1)
            XCTAssertTrue(GtkTestEnvironment.iterate { !says(cannot) && gtk_widget_get_sensitive(add) != 0 }, "tt-rss can subscribe")
        }
    }

    func testEveryRowOfTheAccountsIsNamedThroughAtspi() throws {
        let library = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.items.contains(.feed(library.feverFeed)) })
            let (status, output) = AtspiTests.runScript(arguments: ["--pane", app.title, "accounts"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("every focusable or clickable element is named with the accounts shown"), output)
        }
    }

    /// The id of the account folder named `name`.
    private static func folderID(named name: String, in library: Library) throws -> Int64 {
        nonisolated(unsafe) var found: Result<Int64?, any Error>?
        try onMain {
            let store = try FeedStore(path: library.folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    var all: [StoredFolder] = []
                    for account in [library.ttrss, library.fever] { all += try await store.folders(accountID: account.id) }
                    found = .success(all.first { $0.name == name }?.id)
                } catch { found = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 10) { found != nil }
        }
        return try XCTUnwrap(try XCTUnwrap(found).get())
    }

    /// The account's queued changes, oldest first, as "action remoteID".
    private static func queue(of account: SyncAccount, in library: Library) throws -> [String] {
        nonisolated(unsafe) var found: Result<[String], any Error>?
        try onMain {
            let store = try FeedStore(path: library.folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    found = .success(try await store.queuedChanges(accountID: account.id).map { "\($0.action.rawValue) \($0.remoteID ?? "")" })
                } catch { found = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 10) { found != nil }
        }
        return try XCTUnwrap(found).get()
    }

    /// The row's content (its icon, names, warning and count), found through the sidebar's model.
    @MainActor
    private static func box(of item: FeedSelection, in sidebar: FeedSidebar) -> UnsafeMutablePointer<GtkWidget>? {
        sidebar.rowWidgets(showing: item)?.box
    }

    /// Adds an account to the library's store, as adding one in Preferences stores it.
    private static func addAccount(_ kind: SyncServiceKind, server: String, user: String, in library: Library) throws -> SyncAccount {
        nonisolated(unsafe) var added: Result<SyncAccount, any Error>?
        try onMain {
            let store = try FeedStore(path: library.folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    added = .success(try await store.addAccount(kind: kind, server: try XCTUnwrap(URL(string: server)), user: user))
                } catch { added = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 10) { added != nil }
        }
        return try XCTUnwrap(added).get()
    }

    /// The texts of the row's labels that show, in order.
    @MainActor
    private static func labels(of item: FeedSelection, in sidebar: FeedSidebar) -> [String] {
        guard let widgets = sidebar.rowWidgets(showing: item) else { return [] }
        return [widgets.name, widgets.subtitle, widgets.count].filter { gtk_widget_get_visible($0) != 0 }
            .map { String(cString: gtk_label_get_text(cast($0))) }.filter { !$0.isEmpty }
    }

    /// Nil when `widget`'s accessible description is `expected`, else what differs.
    @MainActor
    private static func descriptionMismatch(_ widget: UnsafeMutablePointer<GtkWidget>, _ expected: String) -> String? {
        guard let message = cgtk_accessible_check_description(cast(widget), expected) else { return nil }
        defer { g_free(message) }
        return String(cString: message)
    }

    /// The actions of a menu's items, sections and submenus included; empty for no menu.
    @MainActor
    static func menuActions(_ menu: OpaquePointer?) -> [String] {
        guard let menu else { return [] }
        defer { g_object_unref(cast(menu)) }
        return MenuContents.allItems(of: menu).compactMap(\.action)
    }
}

/// Whether `widget` says to screen readers that it is expanded (nil: it says nothing).
@MainActor
private func gtk_test_accessible_check_state_expanded(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool? {
    guard gtk_test_accessible_has_state(cast(widget), GTK_ACCESSIBLE_STATE_EXPANDED) != 0 else { return nil }
    return cgtk_accessible_check_expanded(cast(widget), 1) == nil
}
