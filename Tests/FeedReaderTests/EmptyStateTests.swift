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
