import AppSupport
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The sidebar of many feeds: every feed is listed, but only the rows on screen are widgets.
final class SidebarRowsTests: XCTestCase {
    func testEveryFeedIsListedOnlyTheRowsOnScreenAreWidgetsAndASavedSelectionFarBelowIsShown() throws {
        let feedCount = 500
        let folder = temporaryDirectory()
        nonisolated(unsafe) var ids: Result<[Int64], any Error>?
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    // In one transaction, as an import adds them.
                    let subscriptions = (0..<feedCount).map { OPMLDocument.Subscription(url: URL(string: "https://feeds.example/\($0)")!) }
                    ids = .success(try await store.addSubscriptions(subscriptions).added.map(\.id))
                } catch { ids = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 20) { ids != nil }
        }
        let feedIDs = try XCTUnwrap(ids).get()
        let selected = feedIDs[480]
        try onMain {
            let previousRun = SettingsStore(path: folder.appendingPathComponent("settings.ini").path)
            previousRun.setInteger(Int(selected), forKey: "selected-feed", in: "Window")
            previousRun.flush()

            let app = try ReaderFixture(healingStoreIn: folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.feedIDs == feedIDs }, "every feed is listed")
            XCTAssertEqual(sidebar.selection, .feed(selected), "the saved selection, far below the first rows")
            let list = try XCTUnwrap(gtk_scrolled_window_get_child(cast(sidebar.widget)))
            let rowWidgets = { () -> Int in
                var count = 0
                var child = gtk_widget_get_first_child(list)
                while let current = child { count += 1; child = gtk_widget_get_next_sibling(current) }
                return count
            }
            /// Where the row of `item` is within the sidebar's visible part (nil when it is not
            /// shown there), and whether it is drawn as selected.
            let shown = { (item: FeedSelection) -> (y: Float, selected: Bool)? in
                guard let row = sidebar.rowWidget(showing: item), gtk_widget_get_mapped(row) != 0 else { return nil }
                var bounds = graphene_rect_t()
                guard gtk_widget_compute_bounds(row, sidebar.widget, &bounds) != 0, bounds.origin.y >= 0,
                      Int32(bounds.origin.y + bounds.size.height) <= gtk_widget_get_height(sidebar.widget) else { return nil }
                return (bounds.origin.y, gtk_widget_get_state_flags(row).rawValue & GTK_STATE_FLAG_SELECTED.rawValue != 0)
            }
            let isShownSelected = { (item: FeedSelection) in shown(item)?.selected ?? false }
            XCTAssertTrue(GtkTestEnvironment.iterate { isShownSelected(.feed(selected)) },
                          "the saved feed's row is scrolled to and selected: \(String(describing: shown(.feed(selected))))")
            // GTK 4.8's list view keeps up to 200 rows around the visible ones.
            XCTAssertLessThan(rowWidgets(), 250, "row widgets only for the rows around the screen, not for all \(feedCount + 2)")
            XCTAssertFalse(isShownSelected(.all))

            sidebar.select(.feed(feedIDs[2]))
            XCTAssertEqual(sidebar.selection, .feed(feedIDs[2]))
            XCTAssertTrue(GtkTestEnvironment.iterate { isShownSelected(.feed(feedIDs[2])) }, "the list scrolls up to the row selected")
            XCTAssertFalse(isShownSelected(.feed(selected)))
            XCTAssertLessThan(rowWidgets(), 250)
        }
    }
}
