import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// A reader scrolled deep into a long list while a refresh runs: the footer keeps paging through
/// the store, and the change notice that ends the refresh leaves the list as long and as far
/// down as it was (it listed the first page alone, back at the top, and a page load it overtook
/// left the footer refreshing for good).
final class EntryListFollowingTests: XCTestCase {
    func testAListScrolledDeepKeepsItsEntriesAndPlaceThroughARefresh() throws {
        let folder = temporaryDirectory()
        try onMain {
            let shown = try EntryListWindow(in: folder, height: 500, entries: EntryListWindow.numbered(300))
            defer { shown.close() }
            let list = shown.list
            nonisolated(unsafe) var done = false
            XCTAssertTrue(GtkTestEnvironment.iterate { list.order.count == EntryListView.pageSize })
            let adjustment = try XCTUnwrap(list.verticalAdjustment)
            let scrollToEnd = {
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
                GtkTestEnvironment.waitForFrames(of: list.widget)
            }

            while list.order.count < 4 * EntryListView.pageSize {
                let listed = list.order.count
                list.footer.beginRefreshing()
                XCTAssertTrue(GtkTestEnvironment.iterate { list.order.count > listed && !list.footer.isRefreshing }, "a page after \(listed)")
                scrollToEnd()
                if list.order.count == listed { break }
            }
            // A refresh runs in the header, as a background refresh shows it: the footer, which
            // pages through the store, is not held back by it.
            list.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { list.header.isRefreshing })
            XCTAssertFalse(list.footer.isBlocked, "the footer may load while the header refreshes")
            let listed = list.order.count
            XCTAssertEqual(listed, 4 * EntryListView.pageSize)
            let position = gtk_adjustment_get_value(adjustment)
            XCTAssertGreaterThan(position, gtk_adjustment_get_page_size(adjustment), "scrolled well past the first screen")

            // A page load under way when the refresh's notice lists the entries again: the
            // footer ends, free to load again.
            list.footer.beginRefreshing()
            done = false
            Task { @MainActor in
                await list.follow(.entries(newAtTop: true))
                done = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { done && !list.footer.isRefreshing }, "the footer ends")
            list.header.endRefreshing()
            GtkTestEnvironment.waitForFrames(of: list.widget)
            XCTAssertGreaterThanOrEqual(list.order.count, listed, "every entry scrolled through is still listed")
            XCTAssertEqual(Array(list.shownTitles.prefix(listed)), (0..<listed).map { "Entry \($0)" })
            XCTAssertGreaterThan(gtk_adjustment_get_value(adjustment), gtk_adjustment_get_page_size(adjustment),
                                 "still far down the list, not back at its top")

            // And the footer brings the next page after them.
            let before = list.order.count
            scrollToEnd()
            list.footer.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { list.order.count > before && !list.footer.isRefreshing }, "a page after the refresh")
        }
    }
}
