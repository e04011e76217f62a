import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Read and unread: shown means read unless turned off, `m` toggles, mark-all-read can be undone.
final class ReadStateTests: XCTestCase {
    func testMTogglesTheSelectedEntrysReadState() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let list = app.window.entryList
            list.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 2 }, "shown means read")
            gtk_widget_grab_focus(list.listView)

            RealInput.key(windowTitle: app.title, "m")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 3 }, "m marked it unread")
            XCTAssertEqual(list.selectedEntry?.isRead, false)
            XCTAssertEqual(app.window.article.entry?.title, "Entry 1", "the article stays")

            RealInput.key(windowTitle: app.title, "m")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 2 }, "m marked it read again")
            XCTAssertEqual(list.selectedEntry?.isRead, true)
        }
    }

    /// An entry selected just as the Unread view appeared kept an unread row: the view's first
    /// page, read from the store before the entry was marked read, arrived after the mark and
    /// showed the entry as it had been. The row shows it read, as the store has it.
    func testAnEntrySelectedAsTheUnreadViewAppearsShowsReadInItsRow() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let list = app.window.entryList
            let listing = list.listing
            let id = list.order[0]
            app.window.filterBar.select(.unread)
            // At once, while the Unread view's first page is being read.
            list.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.listing > listing }, "the Unread view shows")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 2 }, "the entry selected is read")
            GtkTestEnvironment.waitForFrames(of: list.widget)
            XCTAssertEqual(list.entries[id]?.isRead, true, "listed as read")
            let row = try XCTUnwrap(list.rowWidgets(showing: id))
            XCTAssertEqual(gtk_widget_has_css_class(row.title, "unread"), 0, "its row is drawn read")
            XCTAssertEqual(app.window.article.entry?.id, id, "and it is the one being read")
        }
    }

    func testMarkAllReadOffersAnUndoThatRestoresTheUnreadEntries() throws {
        try withReader(serving: plainFeed(entries: 4), entries: 4) { app in
            let list = app.window.entryList
            let toasts = app.window.notices.toasts
            // Without the toast's slide, so the click lands where its button is.
            try GtkTestEnvironment.withAnimations(false) {
                g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
                XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == "4 entries marked as read" }, toasts.message ?? "no toast")
                XCTAssertEqual(app.unreadInStore(), 0)
                XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.values.allSatisfy(\.isRead) })
                var undo: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    undo = toastButton(labelled: "_Undo", in: app.window)
                    return undo.map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_width($0) > 0 } ?? false
                }, "the toast shows its Undo button")
                saveRender(app.window.window, name: "mark-all-read-toast")
                RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(undo), x: 12, y: 10))
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 4 }, "undo brought the unread entries back")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.values.allSatisfy { !$0.isRead } })
            XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == nil }, "the toast went away")
        }
    }

    func testTheToastGoesAwayByItself() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let toasts = app.window.notices.toasts
            toasts.timeout = 1
            // A toast under the pointer stays until the pointer leaves it: keep the pointer on the sidebar.
            RealInput.move(windowTitle: app.title, to: app.point(in: app.window.sidebar.widget, x: 40, y: 40))
            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message != nil })
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 5) { toasts.message == nil && toastButton(labelled: "_Undo", in: app.window) == nil })
            XCTAssertEqual(app.unreadInStore(), 0, "without an undo the entries stay read")
        }
    }

    func testMarkingOnlyByHandLeavesAShownEntryUnread() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            RealInput.key(windowTitle: app.title, "ctrl+comma")
            var preferencesWindow: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                preferencesWindow = toplevel(titled: "Preferences")
                return preferencesWindow != nil
            }, "Ctrl+, opened the preferences")
            let row = try XCTUnwrap(preferencesWindow.flatMap { window in
                descendant(of: window) { isWidget($0, a: adw_combo_row_get_type()) && Self.title(of: $0) == "Mark entries read" }
            })
            XCTAssertEqual(adw_combo_row_get_selected(cast(row)), 0, "when selected, by default")
            adw_combo_row_set_selected(cast(row), 2)
            XCTAssertEqual(app.window.preferences.markRead, .byHand)
            gtk_window_destroy(cast(preferencesWindow))

            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded })
            XCTAssertEqual(app.unreadInStore(), 2)
            XCTAssertEqual(app.window.entryList.selectedEntry?.isRead, false)
        }
    }
}

extension ReadStateTests {
    /// A preferences row's title.
    @MainActor
    static func title(of row: UnsafeMutablePointer<GtkWidget>) -> String? {
        adw_preferences_row_get_title(cast(row)).map { String(cString: $0) }
    }
}

/// The button of the toast up in `window`, found by its label (a mnemonic such as "_Undo").
@MainActor
func toastButton(labelled label: String, in window: MainWindow) -> UnsafeMutablePointer<GtkWidget>? {
    descendant(of: window.layout.widget) { widget in
        guard isWidget(widget, a: gtk_button_get_type()), let text = gtk_button_get_label(cast(widget)) else { return false }
        return String(cString: text) == label
    }
}
