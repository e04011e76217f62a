import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// What the list says when it has nothing to show, and the samples offered on the first run only.
final class EmptyStateTests: XCTestCase {
    func testRemovedSamplesStayRemovedAndTheEmptyListOffersToAddAFeed() throws {
        try onMain {
            let app = try ReaderFixture(healingStoreIn: temporaryDirectory())
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.sidebar.feedIDs.count == 3 },
                          "the first run subscribes to the three samples: \(app.window.sidebar.feedIDs)")
            let ids = app.window.sidebar.feedIDs
            nonisolated(unsafe) var removed = false
            Task { @MainActor [library = app.library] in
                for id in ids { try? await library.store.removeFeed(id: id) }
                removed = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { removed })
            app.close()

            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.statusTitle(restarted) == "No Feeds Yet" },
                          "no feed: \(Self.statusTitle(restarted) ?? "the list")")
            XCTAssertTrue(restarted.window.sidebar.feedIDs.isEmpty, "the samples removed did not come back")
            let button = restarted.window.layout.listStatusButton
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(button) != 0 })
            XCTAssertEqual(String(cString: gtk_button_get_label(cast(button))), "_Add a Feed")
            saveRender(restarted.window.window, name: "empty-no-feeds")
            RealInput.click(windowTitle: restarted.title, at: restarted.point(in: button, x: 20, y: 10))
            var dialog: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                dialog = toplevel(where: { isWidget($0, a: gtk_window_get_type()) && $0 != restarted.window.window && gtk_widget_get_visible($0) != 0 })
                return dialog != nil
            }, "Add a Feed opens the dialog")
            dialog.map { gtk_window_destroy(cast($0)) }
        }
    }

    /// With no feed at all the article pane said "No Entry Selected" beside the list's "No Feeds
    /// Yet", and the first window's welcome a second time what the list said: the window shows
    /// one empty state, at every width, with every way to bring feeds in.
    func testWithNoFeedsTheWindowShowsOneEmptyStateWithEveryWayToBringFeedsIn() throws {
        try onMain {
            let app = try ReaderFixture(healingStoreIn: temporaryDirectory())
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.sidebar.feedIDs.count == 3 })
            let checkOneState = { (app: ReaderFixture, when: String) in
                GtkTestEnvironment.withAnimations(false) {
                    for width: Int32 in [1280, 800, 420] {
                        PaneLeafletTests.resize(app, width: width)
                        GtkTestEnvironment.waitForFrames(of: app.window.window)
                        XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownStatusTitles(app.window.window) == ["No Feeds Yet"] },
                                      "\(when), \(width) px: one empty state, not \(Self.shownStatusTitles(app.window.window))")
                        let page = descendant(of: app.window.window) {
                            isWidget($0, a: adw_status_page_get_type()) && PaneLeafletTests.isShown($0)
                        }
                        XCTAssertEqual(page.map { FirstRunTests.buttons(in: $0).filter { PaneLeafletTests.isShown($0.button) }.map(\.label) },
                                       ["_Add a Feed", "_Import Subscriptions…", "Add Account…"], "\(when), \(width) px")
                        saveRender(app.window.window, name: "no-feeds-\(when)-\(width)")
                    }
                    PaneLeafletTests.resize(app, width: 1280)
                }
            }
            nonisolated(unsafe) var removed = false
            Task { @MainActor [window = app.window] in
                for feed in window.model.feeds { try? await window.library.store.removeFeed(id: feed.id) }
                await window.model.changed(.feeds)
                removed = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { removed })
            checkOneState(app, "first-window")
            app.close()
            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.statusTitle(restarted) == "No Feeds Yet" })
            checkOneState(restarted, "restarted")
        }
    }

    /// The titles of the status pages shown in `window`.
    @MainActor
    static func shownStatusTitles(_ window: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var titles: [String] = []
        func walk(_ widget: UnsafeMutablePointer<GtkWidget>) {
            guard PaneLeafletTests.isShown(widget) else { return }
            if isWidget(widget, a: adw_status_page_get_type()) {
                titles.append(adw_status_page_get_title(OpaquePointer(widget)).map { String(cString: $0) } ?? "")
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                walk(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        walk(window)
        return titles
    }

    func testASearchWithoutMatchesAndAnEmptyStarredSayWhyTheListIsEmpty() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            app.window.filterBar.startSearch()
            gtk_editable_set_text(cast(app.window.filterBar.searchEntry), "zzzz")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.statusTitle(app) == "No Results Found" }, Self.statusTitle(app) ?? "the list")
            XCTAssertFalse(Self.listShows(app), "the status page, never the refresh footer's No more data")
            saveRender(app.window.window, name: "empty-no-results")
            gtk_editable_set_text(cast(app.window.filterBar.searchEntry), "")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.statusTitle(app) == nil && app.window.entryList.order.count == 3 })

            app.window.sidebar.select(.starred)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.statusTitle(app) == "No Starred Entries" }, Self.statusTitle(app) ?? "the list")
            XCTAssertEqual(gtk_widget_get_visible(app.window.layout.listStatusButton), 0, "nothing to do there but star an entry")
        }
    }

    /// Every empty state is a status page as GNOME's HIG has it: an icon, a title without a full
    /// stop, a description that is a sentence with one. The article pane's "No Entry Selected"
    /// had neither icon nor full stop. Built without the window: the article pane, the first
    /// run's welcome in each of its states, and each of the list's states.
    func testEveryEmptyStateHasAnIconATitleAndADescriptionSentence() throws {
        try onMain {
            // The app's own icons, as an installed app has them in the theme.
            AppData.addBuildTreeIcons()
            let article = ArticleView()
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_child(cast(window), article.widget)
            gtk_window_set_default_size(cast(window), 600, 500)
            gtk_window_present(cast(window))
            let shownPage = {
                descendant(of: article.widget) { isWidget($0, a: adw_status_page_get_type()) && gtk_widget_get_mapped($0) != 0 }.map(OpaquePointer.init)
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { shownPage() != nil }, "the empty article pane is a status page")
            let empty = try XCTUnwrap(shownPage())
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "article-no-entry-selected") })
            var pages: [(name: String, icon: String, title: String, description: String)] = [
                ("article", adw_status_page_get_icon_name(empty).map { String(cString: $0) } ?? "",
                 String(cString: adw_status_page_get_title(empty)), adw_status_page_get_description(empty).map { String(cString: $0) } ?? ""),
            ]
            XCTAssertEqual(pages[0].title, "No Entry Selected")
            // The welcome with nothing subscribed; FirstRunTests sees it with the samples and with one's own feeds.
            let welcome = FirstRunWelcome()
            pages.append(("welcome", adw_status_page_get_icon_name(welcome.page).map { String(cString: $0) } ?? "", welcome.title, welcome.description))
            let states: [(Bool, FeedSelection, EntryFilter, Bool, Bool)] = [
                (false, .all, .all, false, true), (true, .all, .all, true, true), (true, .starred, .all, false, true),
                (true, .all, .unread, false, true), (true, .all, .all, false, false), (true, .all, .all, false, true),
            ]
            for (hasFeeds, selection, filter, searching, online) in states {
                let state = ListEmptyState.of(hasFeeds: hasFeeds, selection: selection, filter: filter, searching: searching, online: online)
                pages.append(("list, \(state.kind)", state.iconName, state.title, state.description))
            }
            XCTAssertEqual(Set(pages.map(\.name)).count, pages.count)
            for page in pages {
                XCTAssertNotEqual(gtk_icon_theme_has_icon(gtk_icon_theme_get_for_display(gdk_display_get_default()), page.icon), 0,
                                  "\(page.name): an icon the theme has, not \(page.icon)")
                XCTAssertFalse(page.title.isEmpty || page.title.hasSuffix("."), "\(page.name): a title without a full stop: \(page.title)")
                XCTAssertTrue(page.description.first?.isUppercase == true && page.description.hasSuffix("."),
                              "\(page.name): a sentence with a full stop: \(page.description)")
            }
        }
    }

    /// The status page's title, or nil while the list shows.
    @MainActor
    static func statusTitle(_ app: ReaderFixture) -> String? {
        let stack = app.window.layout.listStack
        guard let name = gtk_stack_get_visible_child_name(cast(stack)), String(cString: name) == "empty" else { return nil }
        return adw_status_page_get_title(app.window.layout.listStatus).map { String(cString: $0) }
    }

    /// Whether the list, with its footer, is on screen.
    @MainActor
    static func listShows(_ app: ReaderFixture) -> Bool {
        PaneLeafletTests.isShown(app.window.entryList.widget)
    }
}

/// The very first run: the bundled samples refresh from their own files, so a person's first pull
/// ends quietly, and the window offers what to do next.
final class FirstRunTests: XCTestCase {
    func testTheFirstWindowWelcomesWithWaysToBringOnesOwnFeedsAndLaterOnesDoNot() throws {
        try onMain {
            let app = try ReaderFixture(healingStoreIn: temporaryDirectory())
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.sidebar.feedIDs.count == 3 })
            let welcome = try XCTUnwrap(app.window.article.welcome, "the first run offers a welcome")
            XCTAssertTrue(GtkTestEnvironment.iterate { PaneLeafletTests.isShown(welcome.widget) }, "in the article pane, with no entry selected")
            XCTAssertEqual(welcome.title, "Welcome to Feed Reader")
            XCTAssertTrue(GtkTestEnvironment.iterate { welcome.feeds == .samples })
            XCTAssertEqual(welcome.description, "Sample feeds are here to try. Add the feeds you read, bring your subscriptions from another reader, or sync with your server.",
                           "no count that a removed or added feed would make untrue")
            let buttons = Self.buttons(in: welcome.widget)
            XCTAssertEqual(buttons.map(\.label), ["_Add a Feed", "_Import Subscriptions…", "Add Account…"])
            for (label, button) in buttons {
                XCTAssertNotEqual(gtk_widget_get_sensitive(button), 0, "\(label) can be pressed")
            }
            saveRender(app.window.window, name: "first-run-welcome")

            let addAccount = try XCTUnwrap(buttons.last?.button)
            RealInput.click(windowTitle: app.title, at: app.point(in: addAccount, x: 20, y: 10))
            var dialog: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                dialog = toplevel(where: { isWidget($0, a: gtk_window_get_type()) && $0 != app.window.window && gtk_widget_get_visible($0) != 0 })
                return dialog != nil
            }, "Add Account… opens its dialog")
            XCTAssertEqual(dialog.flatMap { gtk_window_get_title(cast($0)) }.map { String(cString: $0) }, "Add Account")
            dialog.map { gtk_window_destroy(cast($0)) }

            // An entry selected takes the welcome's place.
            app.showEntry(titled: try XCTUnwrap(app.window.entryList.entries[app.window.entryList.order[0]]?.title))
            XCTAssertTrue(GtkTestEnvironment.iterate { !PaneLeafletTests.isShown(welcome.widget) })
            // Once an entry was read, an empty pane asks for one instead of welcoming again.
            app.window.sidebar.select(.starred)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.article.entry == nil }, "nothing is starred: no entry shows")
            XCTAssertNil(app.window.article.welcome)
            XCTAssertTrue(GtkTestEnvironment.iterate { EmptyStateTests.shownStatusTitles(app.window.article.widget) == ["No Entry Selected"] })
            app.close()

            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertNil(restarted.window.article.welcome, "only the first window welcomes")
        }
    }

    /// The buttons under `widget`, in order, with their labels.
    @MainActor
    static func buttons(in widget: UnsafeMutablePointer<GtkWidget>) -> [(label: String, button: UnsafeMutablePointer<GtkWidget>)] {
        var found: [(String, UnsafeMutablePointer<GtkWidget>)] = []
        func walk(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if isWidget(widget, a: gtk_button_get_type()), let label = gtk_button_get_label(cast(widget)) {
                found.append((String(cString: label), widget))
                return
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                walk(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        walk(widget)
        return found
    }

    /// The welcome said "Three sample feeds are here to try" after the person added a feed of
    /// their own: it says what the sidebar holds, the samples, one's own feeds, or nothing.
    func testTheWelcomeSaysWhatTheSidebarHolds() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 2)) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(healingStoreIn: temporaryDirectory())
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.sidebar.feedIDs.count == 3 })
            let welcome = try XCTUnwrap(app.window.article.welcome)
            XCTAssertTrue(GtkTestEnvironment.iterate { welcome.feeds == .samples }, "\(welcome.feeds)")
            nonisolated(unsafe) var done = false
            Task { @MainActor [window = app.window] in
                _ = try? await window.library.subscribe(to: server.url("/feed.xml").absoluteString)
                await window.model.changed(.feeds)
                done = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { done })
            XCTAssertEqual(app.window.sidebar.feedIDs.count, 4)
            XCTAssertEqual(welcome.description, "Select an entry to read it. Add more feeds, bring your subscriptions from another reader, or sync with your server.")
            XCTAssertTrue(PaneLeafletTests.isShown(welcome.widget))
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "first-run-welcome-own-feeds") })

            done = false
            Task { @MainActor [window = app.window] in
                for feed in window.model.feeds { try? await window.library.store.removeFeed(id: feed.id) }
                await window.model.changed(.feeds)
                done = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { done })
            XCTAssertEqual(welcome.description, "Add the feeds you read, bring your subscriptions from another reader, or sync with your server.")
        }
    }

    func testAFirstPullOfTheSamplesEndsWithoutANotice() throws {
        try onMain {
            // A day later, when every sample is due again: the pull reads them all.
            nonisolated(unsafe) var later = 0.0
            let app = try ReaderFixture(healingStoreIn: temporaryDirectory(), now: { Date(timeIntervalSinceNow: later) })
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.sidebar.feedIDs.count == 3 })
            later = 86_400
            let header = app.window.entryList.header
            header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.refreshing.running > 0 }, "the pull started")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.refreshing.running == 0 && header.state == .idle },
                          "the pull ended")
            nonisolated(unsafe) var feeds: [StoredFeed]?
            Task { @MainActor [store = app.library.store] in feeds = try? await store.feeds() }
            XCTAssertTrue(GtkTestEnvironment.iterate { feeds != nil })
            for feed in feeds ?? [] {
                XCTAssertGreaterThan(feed.lastFetched ?? .distantPast, Date(timeIntervalSinceNow: 3600), "\(feed.url) was read by the pull")
                XCTAssertNil(feed.lastError, "\(feed.url)")
            }
            XCTAssertNil(app.window.notices.toasts.message, "a first pull shows no failure")
            XCTAssertNil(app.window.notices.banner.message)
            for id in app.window.sidebar.feedIDs {
                XCTAssertNil(app.window.sidebar.tooltip(forFeed: id), "feed \(id) is not marked as failing")
            }
        }
    }
}
