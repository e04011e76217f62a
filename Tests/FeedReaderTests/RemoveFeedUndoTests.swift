import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Removing a feed offers an Undo that brings it all back; with no feed left, the Unread and
/// Search toggles have nothing to work on and are greyed out.
final class RemoveFeedUndoTests: XCTestCase {
    func testUndoBringsBackTheFeedItsEntriesTheirStatesAndItsFolder() throws {
        try withReader(serving: plainFeed(entries: 4), entries: 4) { app in try GtkTestEnvironment.withAnimations(false) {
            let store = app.library.store
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            let list = app.window.entryList
            let (read, starred) = (list.order[0], list.order[1])
            nonisolated(unsafe) var folderID: Int64?
            Task { @MainActor in
                folderID = try? await store.createFolder(named: "News")
                try? await store.moveFeed(feedID, toFolder: folderID)
                try? await store.markRead(entryID: read)
                try? await store.setStarred(entryID: starred)
                await app.window.model.changed(.feeds)
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 3 && app.starredInStore() == 1 })
            let before = try Self.snapshot(store)

            Self.removeFeed(feedID, in: app)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.feedIDs.isEmpty }, "the feed is gone")
            XCTAssertEqual(app.unreadInStore(), 0, "with its entries")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.notices.toasts.message == "“\u{2068}Plain\u{2069}” removed" },
                          app.window.notices.toasts.message ?? "no toast")
            XCTAssertEqual(gtk_widget_get_sensitive(app.window.filterBar.unreadButton), 0, "no feed: nothing to filter")
            XCTAssertEqual(gtk_widget_get_sensitive(app.window.filterBar.searchButton), 0, "no feed: nothing to search")
            XCTAssertEqual(g_action_group_get_action_enabled(cast(app.window.window), "search"), 0, "Ctrl+F does nothing")
            XCTAssertEqual(g_action_group_get_action_enabled(cast(app.window.window), "show-unread"), 0, "Ctrl+2 does nothing")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "remove-feed-undo-toast") })

            do {
                var undo: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    undo = toastButton(labelled: "_Undo", in: app.window)
                    return undo.map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_width($0) > 0 } ?? false
                })
                RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(undo), x: 12, y: 10))
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.feedIDs == [feedID] }, "Undo brought the feed back")
            XCTAssertEqual(try Self.snapshot(store), before, "with its entries, their read and starred states and its folder")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_sensitive(app.window.filterBar.unreadButton) != 0 })
            XCTAssertNotEqual(gtk_widget_get_sensitive(app.window.filterBar.searchButton), 0)
            XCTAssertNotEqual(g_action_group_get_action_enabled(cast(app.window.window), "search"), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.title(of: .feed(feedID)) == "Plain" })
        } }
    }

    func testARemovedFeedComesBackOutsideAFolderDeletedMeanwhile() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in try GtkTestEnvironment.withAnimations(false) {
            let store = app.library.store
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            nonisolated(unsafe) var restored: StoredFeed?
            nonisolated(unsafe) var failure: (any Error)?
            Task { @MainActor in
                do {
                    let folderID = try await store.createFolder(named: "Gone")
                    try await store.moveFeed(feedID, toFolder: folderID)
                    let removed = try await store.removeFeedKeepingCopy(id: feedID)
                    try await store.deleteFolder(folderID)
                    try await store.restore(removed)
                    restored = try await store.feed(id: feedID)
                } catch {
                    failure = error
                }
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { restored != nil || failure != nil })
            XCTAssertNil(failure)
            XCTAssertNil(restored?.folderID, "back outside any folder")
            XCTAssertEqual(try Self.snapshot(store).entries.count, 2, "with its entries")
        } }
    }

    /// Answers Remove in the question "Remove Feed?" for `feedID`.
    @MainActor
    static func removeFeed(_ feedID: Int64, in app: ReaderFixture) {
        g_action_group_activate_action(cast(app.window.window), "remove-feed", g_variant_new_int64(gint64(feedID)))
        guard let dialog = MessageDialogTests.appearing("Remove Feed?") else { return XCTFail("no question") }
        adw_message_dialog_response(cast(dialog), ConfirmDialog.Response.confirm)
        // Answered from code, the dialog stays up until closed, as its button would close it.
        gtk_window_close(cast(dialog))
        XCTAssertTrue(GtkTestEnvironment.iterate { MessageDialogTests.shown("Remove Feed?") == nil }, "the question went")
    }

    struct Snapshot: Equatable {
        var feeds: [String]
        var entries: [String]
    }

    /// The feeds (with their folders and places) and entries (with their states) as stored.
    @MainActor
    static func snapshot(_ store: FeedStore) throws -> Snapshot {
        nonisolated(unsafe) var result: Result<Snapshot, any Error>?
        Task { @MainActor in
            do {
                let feeds = try await store.feeds().map { "\($0.id) \($0.url) \($0.folderID.map(String.init) ?? "-") \($0.title ?? "")" }
                let entries = try await store.entries(EntryQuery(limit: 1000)).map {
                    "\($0.id) \($0.feedID) \($0.title ?? "") read:\($0.isRead) starred:\($0.isStarred)"
                }
                result = .success(Snapshot(feeds: feeds, entries: entries))
            } catch {
                result = .failure(error)
            }
        }
        GtkTestEnvironment.iterate { result != nil }
        return try XCTUnwrap(result).get()
    }
}
