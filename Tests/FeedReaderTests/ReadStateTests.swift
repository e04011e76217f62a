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

    func testMarkAllReadOffersAnUndoThatRestoresTheUnreadEntries() throws {
        try withReader(serving: plainFeed(entries: 4), entries: 4) { app in
            let list = app.window.entryList
            let toast = app.window.toast
            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { toast.message == "4 entries marked as read" }, toast.message ?? "no toast")
            XCTAssertEqual(app.unreadInStore(), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.values.allSatisfy(\.isRead) })
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_revealer_get_child_revealed(cast(toast.widget)) != 0 })
            saveRender(app.window.window, name: "mark-all-read-toast")

            RealInput.click(windowTitle: app.title, at: app.point(in: toast.undoButton, x: 12, y: 10))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 4 }, "undo brought the unread entries back")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.values.allSatisfy { !$0.isRead } })
            XCTAssertNil(toast.message, "the toast went away")
        }
    }

    func testTheToastGoesAwayByItself() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let toast = app.window.toast
            toast.duration = 0.5
            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { toast.message != nil })
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 5) { toast.message == nil })
            XCTAssertEqual(app.unreadInStore(), 0, "without an undo the entries stay read")
        }
    }

    func testWithThePreferenceOffShowingAnEntryLeavesItUnread() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            RealInput.key(windowTitle: app.title, "ctrl+comma")
            var preferencesWindow: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                preferencesWindow = toplevel(titled: "Preferences")
                return preferencesWindow != nil
            }, "Ctrl+, opened the preferences")
            let toggle = try XCTUnwrap(preferencesWindow.flatMap { descendant(of: $0) { isWidget($0, a: gtk_switch_get_type()) } })
            XCTAssertEqual(gtk_switch_get_active(cast(toggle)), 1, "on by default")
            gtk_switch_set_active(cast(toggle), 0)
            XCTAssertFalse(app.window.preferences.marksReadWhenShown)
            gtk_window_destroy(cast(preferencesWindow))

            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded })
            XCTAssertEqual(app.unreadInStore(), 2)
            XCTAssertEqual(app.window.entryList.selectedEntry?.isRead, false)
        }
    }
}
