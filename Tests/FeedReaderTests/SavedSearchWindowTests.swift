import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Saved searches in the window, driven as a person would: typed in the search bar, saved with
/// its button under the pointer, named in the dialog, then read, renamed and deleted from the
/// sidebar's row.
final class SavedSearchWindowTests: XCTestCase {
    /// How many entries the test's feed serves, changed while the window runs.
    final class FeedSize: @unchecked Sendable {
        private let lock = NSLock()
        private var count: Int
        init(_ count: Int) { self.count = count }
        var value: Int {
            get { lock.withLock { count } }
            set { lock.withLock { count = newValue } }
        }
    }

    @MainActor
    private static func searchText(_ app: ReaderFixture) -> String {
        String(cString: gtk_editable_get_text(cast(app.window.filterBar.searchEntry)))
    }

    /// The texts of the menu popped up on `item`'s row; empty when none is shown.
    @MainActor
    private static func menuLabels(on item: FeedSelection, in sidebar: FeedSidebar) -> [String] {
        guard let row = sidebar.rowWidget(showing: item),
              let menu = descendant(of: row, where: { isWidget($0, a: gtk_popover_menu_get_type()) && gtk_widget_get_mapped($0) != 0 })
        else { return [] }
        var labels: [String] = []
        func collect(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if isWidget(widget, a: gtk_label_get_type()), gtk_widget_get_mapped(widget) != 0 { labels.append(String(cString: gtk_label_get_text(cast(widget)))) }
            var child = gtk_widget_get_first_child(widget)
            while let current = child { collect(current); child = gtk_widget_get_next_sibling(current) }
        }
        collect(menu)
        return labels
    }

    /// Types `text` in the search bar and saves it under `name` with the bar's button; the new row's id.
    @MainActor
    private static func saveSearch(_ text: String, as name: String, in app: ReaderFixture, listing count: Int) throws -> Int64 {
        let window = app.window
        RealInput.key(windowTitle: app.title, "ctrl+f")
        RealInput.type(windowTitle: app.title, text)
        XCTAssertTrue(GtkTestEnvironment.iterate { searchText(app) == text && window.entryList.order.count == count },
                      "the search lists its entries: \(window.entryList.shownTitles)")
        RealInput.click(windowTitle: app.title, at: app.point(in: window.filterBar.saveSearchButton, x: 10, y: 10))
        XCTAssertNotNil(MessageDialogTests.appearing("Save Search"), "the button asks for a name")
        RealInput.key(windowTitle: "Save Search", "ctrl+a")
        RealInput.type(windowTitle: "Save Search", name)
        RealInput.key(windowTitle: "Save Search", "Return")
        XCTAssertTrue(GtkTestEnvironment.iterate { window.model.savedSearches.contains { $0.name == name } }, "saved")
        return try XCTUnwrap(window.model.savedSearches.first { $0.name == name }?.id)
    }

    func testASavedSearchIsARowWithItsOwnUnreadCountFollowingNewAndReadEntries() throws {
        let size = FeedSize(3)
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: size.value)) }
        defer { server.stop() }
        try withReader(subscribedTo: server, entries: 3) { app in
            let window = app.window
            XCTAssertEqual(gtk_widget_is_sensitive(window.filterBar.saveSearchButton), 0, "nothing typed, nothing to save")

            let id = try Self.saveSearch("entry", as: "Every entry", in: app, listing: 3)

            XCTAssertTrue(GtkTestEnvironment.iterate { window.sidebar.selection == .savedSearch(id) }, "the new row is selected")
            XCTAssertEqual(window.sidebar.items[2], .savedSearch(id), "after All Feeds and Starred")
            let item = try XCTUnwrap(window.model.item(.savedSearch(id)))
            XCTAssertEqual(item.title, "Every entry")
            XCTAssertEqual(item.unreadCount, 3)
            XCTAssertEqual(gtk_search_bar_get_search_mode(cast(window.filterBar.searchBar)), 0, "the search bar closed on it")
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.order.count == 3 }, "the row lists its entries")
            let row = try XCTUnwrap(window.sidebar.rowWidget(showing: .savedSearch(id)))
            XCTAssertNil(AccessibilityTests.labelMismatch(cast(row), "Every entry, 3 unread"))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_child_visible(window.filterBar.searchEntry) == 0 || gtk_widget_get_mapped(window.filterBar.searchEntry) == 0 },
                          "the search bar is out of sight")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window.window, name: "sidebar-saved-search") })

            size.value = 5
            window.refreshing.refreshSelection()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { item.unreadCount == 5 }, "new entries count: \(item.unreadCount)")
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.order.count == 5 }, "and are listed")

            let second = try XCTUnwrap(window.entryList.entries.values.first { $0.title == "Entry 2" })
            window.reading.setRead(second, true)
            XCTAssertTrue(GtkTestEnvironment.iterate { item.unreadCount == 4 }, "an entry read is counted off: \(item.unreadCount)")
        }
    }

    /// Saved in a feed's view with the Unread filter on, it keeps both.
    func testItKeepsTheSelectedFeedAndTheUnreadFilter() throws {
        try withReader(serving: plainFeed(entries: 12), entries: 12) { app in
            let window = app.window
            let feed = try XCTUnwrap(window.sidebar.feedIDs.first)
            window.sidebar.select(.feed(feed))
            let first = try XCTUnwrap(window.entryList.entries.values.first { $0.title == "Entry 1" })
            window.reading.setRead(first, true)
            XCTAssertTrue(GtkTestEnvironment.iterate { window.model.feeds.first?.unreadCount == 11 })
            window.filterBar.select(.unread)

            let id = try Self.saveSearch("entry 1*", as: "Ones", in: app, listing: 4)

            let saved = try XCTUnwrap(window.model.savedSearch(id: id))
            XCTAssertEqual(saved.scope, .feed(feed))
            XCTAssertEqual(saved.filter, .unread)
            XCTAssertTrue(GtkTestEnvironment.iterate { Set(window.entryList.shownTitles) == ["Entry 10", "Entry 11", "Entry 12"] },
                          "the unread entries matching, Entry 1 read: \(window.entryList.shownTitles)")
            XCTAssertEqual(window.model.item(.savedSearch(id))?.unreadCount, 3)
        }
    }

    func testItsMenuRenamesAndDeletesItWithAnUndo() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window, sidebar = window.sidebar
            let id = try Self.saveSearch("entry 2", as: "Second", in: app, listing: 1)
            XCTAssertTrue(GtkTestEnvironment.iterate {
                sidebar.rowWidget(showing: .savedSearch(id)).map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_height($0) > 0 } ?? false
            }, "its row shows")
            let row = try XCTUnwrap(sidebar.rowWidget(showing: .savedSearch(id)))

            RealInput.click(windowTitle: app.title, at: app.point(in: row, x: Double(gtk_widget_get_width(row)) / 2,
                                                                   y: Double(gtk_widget_get_height(row)) / 2), rightButton: true)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.menuLabels(on: .savedSearch(id), in: sidebar) == ["Rename Search…", "Delete Search"] },
                          "its menu: \(Self.menuLabels(on: .savedSearch(id), in: sidebar))")
            RealInput.key(windowTitle: app.title, "Escape")

            g_action_group_activate_action(cast(window.window), "rename-saved-search", g_variant_new_int64(gint64(id)))
            XCTAssertNotNil(MessageDialogTests.appearing("Rename Search"))
            RealInput.key(windowTitle: "Rename Search", "ctrl+a")
            RealInput.type(windowTitle: "Rename Search", "Number two")
            RealInput.key(windowTitle: "Rename Search", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { window.model.item(.savedSearch(id))?.title == "Number two" })
            XCTAssertEqual(sidebar.rowWidget(showing: .savedSearch(id)), row, "renamed in place")

            try GtkTestEnvironment.withAnimations(false) {
                g_action_group_activate_action(cast(window.window), "delete-saved-search", g_variant_new_int64(gint64(id)))
                XCTAssertTrue(GtkTestEnvironment.iterate { !sidebar.items.contains(.savedSearch(id)) }, "the row went")
                XCTAssertEqual(sidebar.selection, .all, "the selection moved to All Feeds")
                XCTAssertEqual(window.notices.toasts.message, "Search “\u{2068}Number two\u{2069}” deleted")
                var undo: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    undo = toastButton(labelled: "_Undo", in: window)
                    return undo.map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_width($0) > 0 } ?? false
                })
                RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(undo), x: 12, y: 10))
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { window.model.savedSearches.map(\.name) == ["Number two"] }, "undone")
            let back = try XCTUnwrap(window.model.savedSearches.first)
            XCTAssertEqual(back.query, "entry 2")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .savedSearch(back.id) && window.entryList.shownTitles == ["Entry 2"] })
        }
    }
}
