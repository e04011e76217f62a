import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The questions the window asks: removing a feed and deleting a folder ask first, with Cancel
/// as the answer Enter and Escape give; naming a folder takes a named entry.
final class MessageDialogTests: XCTestCase {
    private static func server() throws -> TestHTTPServer {
        try TestHTTPServer { _ in .ok(plainFeed(entries: 2)) }
    }

    func testRemovingAFeedAsksFirstAndOnlyTheRedAnswerRemovesIt() throws {
        let server = try Self.server()
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            let ask = { g_action_group_activate_action(cast(app.window.window), "remove-feed", g_variant_new_int64(gint64(feedID))) }

            ask()
            var dialog = try XCTUnwrap(Self.appearing("Remove Feed?"))
            XCTAssertEqual(String(cString: adw_message_dialog_get_heading(cast(dialog))), "Remove Feed?")
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(cast(dialog))), "“\u{2068}Plain\u{2069}” and all its entries will be removed.")
            XCTAssertEqual(String(cString: adw_message_dialog_get_default_response(cast(dialog))), ConfirmDialog.Response.cancel)
            XCTAssertEqual(adw_message_dialog_get_response_appearance(cast(dialog), ConfirmDialog.Response.confirm), ADW_RESPONSE_DESTRUCTIVE)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(dialog, name: "remove-feed-question") })
            RealInput.key(windowTitle: "Remove Feed?", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shown("Remove Feed?") == nil }, "Enter answers Cancel")

            ask()
            _ = try XCTUnwrap(Self.appearing("Remove Feed?"))
            RealInput.key(windowTitle: "Remove Feed?", "Escape")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shown("Remove Feed?") == nil }, "Escape answers Cancel")
            XCTAssertEqual(app.window.sidebar.feedIDs, [feedID], "cancelled twice, the feed stays")

            ask()
            dialog = try XCTUnwrap(Self.appearing("Remove Feed?"))
            adw_message_dialog_response(cast(dialog), ConfirmDialog.Response.confirm)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.feedIDs.isEmpty }, "Remove removes it")
        }
    }

    func testNamingAFolderTakesANamedEntryAndEnterCreatesIt() throws {
        let server = try Self.server()
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }

            g_action_group_activate_action(cast(app.window.window), "new-folder", nil)
            let dialog = try XCTUnwrap(Self.appearing("New Folder"))
            let entry = try XCTUnwrap(descendant(of: dialog) { isWidget($0, a: gtk_entry_get_type()) })
            XCTAssertEqual(String(cString: gtk_entry_get_placeholder_text(cast(entry))), "Folder name")
            XCTAssertNil(AccessibilityTests.labelMismatch(entry, "Folder name"), "the entry is named for screen readers")
            XCTAssertEqual(adw_message_dialog_get_response_enabled(cast(dialog), NameDialog.Response.accept), 0,
                           "nothing to create before a name is typed")

            RealInput.type(windowTitle: "New Folder", "Podcasts")
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_message_dialog_get_response_enabled(cast(dialog), NameDialog.Response.accept) != 0 })
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(dialog, name: "new-folder-question") })
            RealInput.key(windowTitle: "New Folder", "Return")

            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.folders.map(\.name) == ["Podcasts"] })
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shown("New Folder") == nil })
        }
    }

    /// Rename Feed… and Edit Address… from a feed's menu: the new title shows in the sidebar, and
    /// the feed is fetched from its new address at once.
    func testAFeedIsRenamedAndMovedToANewAddressFromItsMenu() throws {
        let server = try Self.server()
        defer { server.stop() }
        let moved = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { moved.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            let labels = { MessageDialogTests.labels(in: app.window.sidebar.rowWidget(showing: .feed(feedID))) }
            XCTAssertTrue(GtkTestEnvironment.iterate { labels().contains("Plain") })

            g_action_group_activate_action(cast(app.window.window), "rename-feed", g_variant_new_int64(gint64(feedID)))
            let rename = try XCTUnwrap(Self.appearing("Rename Feed"))
            let entry = try XCTUnwrap(descendant(of: rename) { isWidget($0, a: gtk_entry_get_type()) })
            XCTAssertEqual(String(cString: gtk_editable_get_text(cast(entry))), "Plain", "the current title, ready to edit")
            RealInput.key(windowTitle: "Rename Feed", "ctrl+a")
            RealInput.type(windowTitle: "Rename Feed", "Morning News")
            RealInput.key(windowTitle: "Rename Feed", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { labels().contains("Morning News") }, "\(labels())")

            g_action_group_activate_action(cast(app.window.window), "edit-feed-address", g_variant_new_int64(gint64(feedID)))
            let edit = try XCTUnwrap(Self.appearing("Edit Address"))
            let address = try XCTUnwrap(descendant(of: edit) { isWidget($0, a: gtk_entry_get_type()) })
            XCTAssertEqual(gtk_widget_get_direction(address), GTK_TEXT_DIR_LTR)
            gtk_editable_set_text(cast(address), "not an address")
            XCTAssertEqual(adw_message_dialog_get_response_enabled(cast(edit), NameDialog.Response.accept), 0)
            gtk_editable_set_text(cast(address), moved.url("/feed.xml").absoluteString)
            XCTAssertNotEqual(adw_message_dialog_get_response_enabled(cast(edit), NameDialog.Response.accept), 0)
            RealInput.key(windowTitle: "Edit Address", "Return")

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { moved.requests.map(\.path) == ["/feed.xml"] }, "fetched from there at once")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.entryList.order.count == 3 })
            XCTAssertTrue(labels().contains("Morning News"), "the chosen title stays")
        }
    }

    /// The texts of the labels under `widget`.
    @MainActor
    static func labels(in widget: UnsafeMutablePointer<GtkWidget>?) -> [String] {
        guard let widget else { return [] }
        var texts: [String] = []
        func visit(_ current: UnsafeMutablePointer<GtkWidget>) {
            if isWidget(current, a: gtk_label_get_type()) { texts.append(String(cString: gtk_label_get_text(cast(current)))) }
            var child = gtk_widget_get_first_child(current)
            while let next = child {
                visit(next)
                child = gtk_widget_get_next_sibling(next)
            }
        }
        visit(widget)
        return texts
    }

    /// The message dialog titled `title` that shows now, if any.
    @MainActor
    static func shown(_ title: String) -> UnsafeMutablePointer<GtkWidget>? {
        toplevel(titled: title).flatMap { isWidget($0, a: adw_message_dialog_get_type()) && gtk_widget_get_mapped($0) != 0 ? $0 : nil }
    }

    /// The message dialog titled `title` once it shows, or nil when none comes.
    @MainActor
    static func appearing(_ title: String) -> UnsafeMutablePointer<GtkWidget>? {
        GtkTestEnvironment.iterate { shown(title) != nil }
        return shown(title)
    }
}
