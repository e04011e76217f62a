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
            XCTAssertTrue(GtkTestEnvironment.iterate {
                g_list_model_get_n_items(cast(gtk_list_view_get_model(cast(sidebar.listView)))) == guint(feedCount + 2)
            }, "once the entries are drawn, the list view is given every row")

            sidebar.select(.feed(feedIDs[2]))
            XCTAssertEqual(sidebar.selection, .feed(feedIDs[2]))
            XCTAssertTrue(GtkTestEnvironment.iterate { isShownSelected(.feed(feedIDs[2])) }, "the list scrolls up to the row selected")
            XCTAssertFalse(isShownSelected(.feed(selected)))
            XCTAssertLessThan(rowWidgets(), 250)
        }
    }

    /// The window's first frame of entries makes widgets only for the sidebar's rows a screen
    /// shows, where GTK's list view would make 200: the others come once it is drawn.
    func testTheFirstFrameOfEntriesMakesOnlyTheSidebarRowsAScreenShows() throws {
        let folder = temporaryDirectory()
        nonisolated(unsafe) var stored: Result<Void, any Error>?
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            let parsed = try FeedParser().parse(plainFeed(entries: 60))
            Task { @MainActor in
                do {
                    let subscriptions = (0..<500).map { OPMLDocument.Subscription(url: URL(string: "https://feeds.example/\($0)")!) }
                    let added = try await store.addSubscriptions(subscriptions).added
                    let first = try XCTUnwrap(added.first)
                    try await store.apply(FetchResult(request: first.request, outcome: .fetched(parsed, validators: CacheValidators())),
                                          toFeed: first.id)
                    stored = .success(())
                } catch { stored = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 20) { stored != nil }
        }
        try XCTUnwrap(stored).get()
        try onMain {
            let children = { (widget: UnsafeMutablePointer<GtkWidget>) -> Int in
                var count = 0
                var child = gtk_widget_get_first_child(widget)
                while let current = child { count += 1; child = gtk_widget_get_next_sibling(current) }
                return count
            }
            // Counted as each frame starts: what the frame before it laid out.
            nonisolated(unsafe) var sidebarRowsAtFirstEntries: Int?
            let app = try ReaderFixture(healingStoreIn: folder, beforePresenting: { window in
                let box = Unmanaged.passRetained(TickBody { [weak window] in
                    guard let window, sidebarRowsAtFirstEntries == nil else { return false }
                    guard children(window.entryList.listView) > 0 else { return true }
                    sidebarRowsAtFirstEntries = children(window.sidebar.listView)
                    return false
                }).toOpaque()
                gtk_widget_add_tick_callback(window.window, { _, _, data in
                    MainActor.assumeIsolated { gboolean(Unmanaged<TickBody>.fromOpaque(data!).takeUnretainedValue().body() ? 1 : 0) }
                }, box, { data in Unmanaged<TickBody>.fromOpaque(data!).release() })
            })
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebarRowsAtFirstEntries != nil })
            let rows = try XCTUnwrap(sidebarRowsAtFirstEntries)
            XCTAssertGreaterThan(rows, 10, "the rows on screen")
            XCTAssertLessThanOrEqual(rows, Int(FeedSidebar.rowsBeforeFirstFrame), "no more than a screen's rows before the entries show")
            XCTAssertTrue(GtkTestEnvironment.iterate { children(app.window.sidebar.listView) > 150 }, "the others once they are drawn")
        }
    }

    /// The first frame of entries fills only the sidebar items of the rows it shows, the others
    /// once it is drawn: a feed far below then shows its name, its count and its words for
    /// screen readers when scrolled to, as its neighbours show theirs.
    func testRowsBelowTheFirstScreenShowTheirNamesAndCountsOnceScrolledTo() throws {
        let folder = temporaryDirectory()
        nonisolated(unsafe) var stored: Result<[Int64], any Error>?
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            let parsed = try FeedParser().parse(plainFeed(entries: 3, title: "Far Down Feed"))
            Task { @MainActor in
                do {
                    let subscriptions = (0..<500).map { index in
                        OPMLDocument.Subscription(url: URL(string: "https://feeds.example/\(index)")!, title: index == 480 ? nil : "Feed \(index)")
                    }
                    let added = try await store.addSubscriptions(subscriptions).added
                    try await store.apply(FetchResult(request: added[480].request, outcome: .fetched(parsed, validators: CacheValidators())),
                                          toFeed: added[480].id)
                    stored = .success(added.map(\.id))
                } catch { stored = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 20) { stored != nil }
        }
        let ids = try XCTUnwrap(stored).get()
        try onMain {
            /// The sidebar's items holding their rows' names, of the 502.
            let filledItems = { (model: LibraryModel) -> Int in
                (0..<g_list_model_get_n_items(cast(model.sidebarRoot))).filter { SidebarItem.at($0, in: model.sidebarRoot)?.title.isEmpty == false }.count
            }
            nonisolated(unsafe) var filledAtFirstEntries: Int?
            let app = try ReaderFixture(healingStoreIn: folder, beforePresenting: { window in
                Signal.connect(cast(window.window), "realize") { [weak window] in
                    guard let window, let clock = gtk_widget_get_frame_clock(window.window) else { return }
                    // Once a frame is painted, before the main loop goes idle.
                    Signal.connect(cast(clock), "after-paint") { [weak window] in
                        guard let window, filledAtFirstEntries == nil, gtk_widget_get_first_child(window.entryList.listView) != nil else { return }
                        filledAtFirstEntries = filledItems(window.model)
                    }
                }
            })
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { filledAtFirstEntries != nil })
            let filled = try XCTUnwrap(filledAtFirstEntries)
            XCTAssertLessThanOrEqual(filled, Int(FeedSidebar.rowsBeforeFirstFrame) + 2,
                                     "the first frame of entries fills the items of the rows it lists, not all 502")
            let sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.feedIDs == ids && filledItems(app.window.model) == 502 },
                          "once the entries are drawn, every row is listed and every item filled")
            let far = FeedSelection.feed(ids[480])
            sidebar.select(far)
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.rowWidget(showing: far).map { gtk_widget_get_mapped($0) != 0 } ?? false },
                          "the feed far below is scrolled to")
            let widgets = try XCTUnwrap(sidebar.rowWidgets(showing: far))
            let row = try XCTUnwrap(sidebar.rowWidget(showing: far))
            let text = { (label: UnsafeMutablePointer<GtkWidget>) in String(cString: gtk_label_get_text(cast(label))) }
            XCTAssertEqual(text(widgets.name), "Far Down Feed")
            XCTAssertEqual(text(widgets.count), "3")
            XCTAssertNotEqual(gtk_widget_get_visible(widgets.count), 0)
            XCTAssertNil(AccessibilityTests.labelMismatch(row, "Far Down Feed, 3 unread"))
            let neighbour = try XCTUnwrap(sidebar.rowWidgets(showing: .feed(ids[478])), "a row near it")
            let neighbourRow = try XCTUnwrap(sidebar.rowWidget(showing: .feed(ids[478])))
            XCTAssertEqual(text(neighbour.name), "Feed 478")
            XCTAssertEqual(gtk_widget_get_visible(neighbour.count), 0, "no count where nothing is unread")
            XCTAssertNil(AccessibilityTests.labelMismatch(neighbourRow, "Feed 478, 0 unread"))
        }
    }
}

/// A tick callback's body for GTK: true to be called at the next frame too.
@MainActor
private final class TickBody {
    let body: @MainActor () -> Bool
    init(_ body: @escaping @MainActor () -> Bool) { self.body = body }
}
