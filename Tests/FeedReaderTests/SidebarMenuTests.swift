import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The sidebar's context menus, built over the model alone in a plain window: their items come
/// in GNOME's sections (reading, arranging, removing last), not in one flat list of nine.
final class SidebarMenuTests: XCTestCase {
    func testAFeedsAndAFoldersMenusAreInSectionsWithRemovingLast() throws {
        let folder = temporaryDirectory()
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            let model = LibraryModel(store: store)
            let sidebar = FeedSidebar(model: model)
            model.onChange = { _, _ in sidebar.modelChanged(selecting: sidebar.selection) }
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_child(cast(window), sidebar.widget)
            gtk_window_present(cast(window))
            nonisolated(unsafe) var feedID: Int64?
            Task { @MainActor in
                let added = try await store.addSubscriptions([
                    OPMLDocument.Subscription(url: URL(string: "https://planet.example/rss")!, title: "Planet GNOME", folderPath: ["Tech"]),
                ])
                await model.changed(.feeds)
                feedID = added.added.first?.id
            }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { feedID != nil && sidebar.folders.count == 1 })
            let feed = try XCTUnwrap(feedID)
            let tech = try XCTUnwrap(sidebar.folders.first?.id)

            let cases: [(FeedSelection, [[String]])] = [
                (.feed(feed), [["Mark All as Read", "Mute Entries Like This…"],
                               ["Move to Folder", "Rename Feed…", "Edit Address…", "Properties…"],
                               ["Remove Feed…"]]),
                (.folder(tech), [["Rename Folder…", "Move to Folder"], ["Delete Folder…"]]),
            ]
            for (item, expected) in cases {
                let menu = try XCTUnwrap(sidebar.menu(for: item), "\(item)")
                defer { g_object_unref(cast(menu)) }
                XCTAssertEqual(MenuContents.labels(of: menu), expected, "\(item)")
            }
            XCTAssertNil(sidebar.menu(for: .all), "All Feeds has no menu")
        }
    }
}
