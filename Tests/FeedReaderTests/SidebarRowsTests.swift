import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The sidebar of many feeds: the first frame builds only its first rows, the rest follow.
final class SidebarRowsTests: XCTestCase {
    func testEveryFeedGetsItsRowAndASavedSelectionBelowTheFirstRowsIsShown() throws {
        let feedCount = 90
        let folder = temporaryDirectory()
        nonisolated(unsafe) var ids: Result<[Int64], any Error>?
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    var added: [Int64] = []
                    for index in 0..<feedCount { added.append(try await store.addFeed(url: URL(string: "https://feeds.example/\(index)")!).id) }
                    ids = .success(added)
                } catch { ids = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 20) { ids != nil }
        }
        let feedIDs = try XCTUnwrap(ids).get()
        let selected = feedIDs[80]
        try onMain {
            SettingsStore(path: folder.appendingPathComponent("settings.ini").path).setInteger(Int(selected), forKey: "selected-feed", in: "Window")

            let app = try ReaderFixture(healingStoreIn: folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.feedIDs == feedIDs }, "every feed is listed")
            XCTAssertEqual(sidebar.selection, .feed(selected), "the saved selection, far below the first rows")
            let rows = { () -> [UnsafeMutablePointer<GtkWidget>] in
                var rows: [UnsafeMutablePointer<GtkWidget>] = []
                func collect(_ widget: UnsafeMutablePointer<GtkWidget>) {
                    if isWidget(widget, a: gtk_list_box_row_get_type()) { rows.append(widget) }
                    var child = gtk_widget_get_first_child(widget)
                    while let current = child { collect(current); child = gtk_widget_get_next_sibling(current) }
                }
                collect(sidebar.widget)
                return rows
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { rows().count == feedCount + 2 }, "All Feeds, Starred and a row for each feed")
            let shownSelection = rows().firstIndex { gtk_list_box_row_is_selected(cast($0)) != 0 }
            XCTAssertEqual(shownSelection, 2 + 80, "the selected row is the saved feed's")
            sidebar.select(.feed(feedIDs[89]))
            XCTAssertEqual(sidebar.selection, .feed(feedIDs[89]))
            XCTAssertEqual(rows().firstIndex { gtk_list_box_row_is_selected(cast($0)) != 0 }, 2 + 89)
        }
    }
}
