import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The sidebar and the entry list built over the model alone, in a plain window: no MainWindow.
final class SidebarAndListPartsTests: XCTestCase {
    func testRowsFollowTheModelsItemsAndTheListFollowsItsChangeNotices() throws {
        let folder = temporaryDirectory()
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            let library = FeedLibrary(store: store)
            let model = LibraryModel(store: store)
            let sidebar = FeedSidebar(model: model)
            let list = EntryListView(library: library)
            model.onChange = { change, _ in
                sidebar.modelChanged(selecting: sidebar.selection)
                list.updateFeedTitles(model.feedTitles)
                await list.follow(change)
            }
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            let panes = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
            gtk_box_append(cast(panes), sidebar.widget)
            gtk_box_append(cast(panes), list.widget)
            gtk_window_set_child(cast(window), panes)
            gtk_window_set_default_size(cast(window), 900, 600)
            gtk_window_present(cast(window))

            nonisolated(unsafe) var done = false
            nonisolated(unsafe) var failure: (any Error)?
            @MainActor func run(_ body: @escaping @MainActor () async throws -> Void) {
                done = false
                Task { @MainActor in
                    do { try await body() } catch { failure = error }
                    done = true
                }
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { done })
                XCTAssertNil(failure)
            }
            var feedID: Int64 = 0
            run {
                let feed = try await store.addFeed(url: URL(string: "https://planet.example/rss")!)
                feedID = feed.id
                let parsed = ParsedFeed(format: .rss, feed: Feed(id: "planet", title: "Planet"),
                                        entries: [Entry(id: "1", title: "First post"), Entry(id: "2", title: "Second post")])
                try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                      toFeed: feed.id)
                await model.changed(.feeds)
            }
            list.show(.all, feedTitles: model.feedTitles)
            XCTAssertTrue(GtkTestEnvironment.iterate { Set(list.shownTitles) == ["First post", "Second post"] }, "\(list.shownTitles)")

            // The feed's row shows its item: its title and count, bound.
            let label = { (selection: FeedSelection) -> [String] in
                guard let widgets = sidebar.rowWidgets(showing: selection) else { return [] }
                return [widgets.name, widgets.count].map { String(cString: gtk_label_get_text(cast($0))) }
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { label(.feed(feedID)) == ["Planet", "2"] }, "\(label(.feed(feedID)))")
            XCTAssertEqual(label(.all), ["All Feeds", "2"])
            let row = sidebar.rowWidget(showing: .feed(feedID))

            // Renamed and marked read in the store: the model's notice updates the same row in
            // place, and the list lists again with its entries read.
            run {
                try await store.renameFeed(feedID, to: "Planet GNOME")
                _ = try await store.markAllRead(feedID: feedID)
                await model.changed(.entries())
            }
            XCTAssertEqual(label(.feed(feedID)), ["Planet GNOME", ""], "the new title, no unread count")
            XCTAssertEqual(label(.all), ["All Feeds", ""])
            XCTAssertEqual(sidebar.rowWidget(showing: .feed(feedID)), row, "the same row widget")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.values.allSatisfy(\.isRead) && list.entries.count == 2 },
                          "the list was listed again after the notice")
            let entryRow = try XCTUnwrap(list.entries.keys.first)
            let shown = { () -> (unread: Bool, meta: String)? in
                list.rowWidgets(showing: entryRow).map { (gtk_widget_has_css_class($0.title, "unread") != 0,
                                                          String(cString: gtk_label_get_text(cast($0.meta)))) }
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { shown()?.unread == false }, "its row drawn read")
            XCTAssertTrue(shown()?.meta.hasPrefix("\u{2068}Planet GNOME\u{2069}") ?? false,
                          "the row names the feed by its new title, isolated: \(String(describing: shown()))")
        }
    }
}
