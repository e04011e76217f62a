import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Folders in the sidebar: made by an import or by hand, feeds moved by the context menu's
/// action and by drag and drop, a folder's entries and unread count.
final class FolderTests: XCTestCase {
    func testFoldersGroupFeedsShowTheirEntriesAndTakeFeedsMovedIntoThem() throws {
        let server = try TestHTTPServer { request in .ok(plainFeed(entries: request.path == "/feed.xml" ? 3 : 2)) }
        defer { server.stop() }
        let opml = temporaryDirectory().appendingPathComponent("tech.opml")
        try Data("""
            <opml version="2.0"><body><outline text="Tech">
            <outline text="A" xmlUrl="\(server.url("/a.xml"))"/><outline text="B" xmlUrl="\(server.url("/b.xml"))"/>
            </outline></body></opml>
            """.utf8).write(to: opml)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let sidebar = app.window.sidebar
            let first = try XCTUnwrap(sidebar.feedIDs.first)
            app.window.importSubscriptions(from: opml)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.importBar.message?.hasPrefix("2 subscriptions") ?? false })
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.first?.unreadCount == 4 })
            let tech = try XCTUnwrap(sidebar.folders.first)
            XCTAssertEqual(tech.name, "Tech")
            XCTAssertEqual(tech.unreadCount, 4, "the folder counts its feeds' unread entries")
            let (a, b) = (sidebar.feedIDs[1], sidebar.feedIDs[2])
            XCTAssertEqual(sidebar.items, [.all, .starred, .feed(first), .folder(tech.id), .feed(a), .feed(b)])

            sidebar.select(.folder(tech.id))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 4 }, "a folder shows its feeds' entries")

            let target = FeedSidebar.moveTarget(feedID: first, folderID: tech.id)
            g_action_group_activate_action(cast(app.window.window), "move-to-folder", target)
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items == [.all, .starred, .folder(tech.id), .feed(first), .feed(a), .feed(b)] })
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.first?.unreadCount == 7 })
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 7 }, "the selected folder lists the moved feed's entries: \(app.window.entryList.order.count)")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "folders-sidebar") })

            XCTAssertTrue(Self.dropFeed(b, on: try XCTUnwrap(sidebar.dropTargets[nil])), "dropped on All Feeds: out of the folder")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items == [.all, .starred, .feed(b), .folder(tech.id), .feed(first), .feed(a)] })
            XCTAssertTrue(Self.dropFeed(b, on: try XCTUnwrap(sidebar.dropTargets[tech.id])), "dropped on the folder: into it")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.count == 6 && sidebar.items[2] == .folder(tech.id) })

            app.window.renameFolder(tech.id, to: "Technology")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.first?.name == "Technology" })
            app.window.deleteFolder(tech.id)
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.isEmpty })
            XCTAssertEqual(Set(sidebar.feedIDs), [first, a, b], "the feeds stay subscribed")
            XCTAssertEqual(sidebar.selection, .all)
        }
    }

    /// Delivers a feed's id to a drop target as a drag from its row does.
    @MainActor
    private static func dropFeed(_ feedID: Int64, on target: OpaquePointer) -> Bool {
        var text = GValue()
        g_value_init(&text, GType(16 << 2))
        g_value_set_string(&text, "\(feedID)")
        defer { g_value_unset(&text) }
        var values = [GValue](repeating: GValue(), count: 4)
        g_value_init(&values[0], gtk_drop_target_get_type())
        g_value_set_object(&values[0], UnsafeMutableRawPointer(target))
        g_value_init(&values[1], g_value_get_type())
        withUnsafeMutablePointer(to: &text) { g_value_set_boxed(&values[1], $0) }
        g_value_init(&values[2], GType(15 << 2))
        g_value_init(&values[3], GType(15 << 2))
        var result = GValue()
        g_value_init(&result, GType(5 << 2))
        g_signal_emitv(&values, g_signal_lookup("drop", gtk_drop_target_get_type()), 0, &result)
        defer { for index in values.indices { g_value_unset(&values[index]) } }
        return g_value_get_boolean(&result) != 0
    }
}
