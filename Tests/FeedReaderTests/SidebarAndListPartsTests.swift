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

    /// Scrolling through a long list kept an item (its entry made into markup, about a kilobyte)
    /// for every entry it had listed, 10 MB over 10,000: items now live only while a row shows
    /// them, however far the list scrolled, and a row's item still follows its entry's changes.
    func testTheListKeepsItemsOnlyForTheRowsItShows() throws {
        let folder = temporaryDirectory()
        try onMain {
            let stored = 300
            let shown = try EntryListWindow(in: folder, height: 500,
                                            entries: EntryListWindow.numbered(stored, summary: String(repeating: "Its summary. ", count: 20)))
            defer { shown.close() }
            let list = shown.list
            XCTAssertTrue(GtkTestEnvironment.iterate { list.order.count == EntryListView.pageSize })
            let adjustment = try XCTUnwrap(list.verticalAdjustment)
            while list.order.count < stored {
                let listed = list.order.count
                list.footer.beginRefreshing()
                XCTAssertTrue(GtkTestEnvironment.iterate { list.order.count > listed && !list.footer.isRefreshing }, "page after \(listed)")
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
                GtkTestEnvironment.waitForFrames(of: list.widget)
            }
            XCTAssertEqual(list.order.count, stored)

            // The rows at the end show the last entries, through their items.
            let last = try XCTUnwrap(list.order.last)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.rowWidgets(showing: last) != nil }, "the last entry's row is bound")
            let title = { (id: Int64) in list.rowWidgets(showing: id).map { String(cString: gtk_label_get_text(cast($0.title))) } }
            XCTAssertEqual(title(last), "Entry \(stored - 1)")

            // Every position's item, watched: those no row holds go as soon as they are let go.
            let model = try XCTUnwrap(gtk_list_view_get_model(cast(list.listView)))
            XCTAssertEqual(Int(g_list_model_get_n_items(cast(model))), stored)
            var watched = [GWeakRef](repeating: GWeakRef(), count: stored)
            for position in 0..<stored {
                let item = try XCTUnwrap(g_list_model_get_item(cast(model), guint(position)))
                XCTAssertEqual(EntryItem(item).titleMarkup, "Entry \(position)", "an item asked for anywhere shows its entry")
                g_weak_ref_init(&watched[position], item)
                g_object_unref(item)
            }
            var rows = 0
            var row = gtk_widget_get_first_child(list.listView)
            while let current = row {
                rows += 1
                row = gtk_widget_get_next_sibling(current)
            }
            var alive = 0
            for position in 0..<stored {
                if let item = g_weak_ref_get(&watched[position]) {
                    alive += 1
                    g_object_unref(item)
                }
                g_weak_ref_clear(&watched[position])
            }
            XCTAssertGreaterThan(alive, 0, "the rows shown hold their items")
            XCTAssertLessThanOrEqual(alive, rows, "no item lives but those the list's \(rows) rows show, of \(stored) listed")

            // A row's item still follows its entry: read, its title is drawn read.
            let unread = { list.rowWidgets(showing: last).map { gtk_widget_has_css_class($0.title, "unread") != 0 } }
            XCTAssertEqual(unread(), true)
            list.showRead(true, ids: [last])
            XCTAssertEqual(unread(), false)
        }
    }

    /// In Arabic an English row had its title on the right and its summary running from the
    /// left: each row now reads in its entry's own direction, every line alike, whatever the
    /// window's; an entry with no letters to tell follows the window. An episode's icon, made
    /// only for the row that shows it, reads in its row's direction too, before the byline.
    func testEachEntryRowReadsInItsOwnDirectionInAnArabicWindow() throws {
        let folder = temporaryDirectory()
        try onMain {
            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
            let shown = try EntryListWindow(in: folder, height: 600,
                                            entries: [Entry(id: "en", title: "An English title", summary: "Its summary runs from the left."),
                                                      Entry(id: "ar", title: "عنوان عربي", summary: "ملخص يبدأ من اليمين."),
                                                      Entry(id: "number", title: "2026", summary: "42"),
                                                      Entry(id: "episode", title: "An English episode", summary: "Listen from the left.",
                                                            enclosures: [Enclosure(url: URL(string: "http://127.0.0.1/episode.mp3")!, type: "audio/mpeg")])])
            defer { shown.close() }
            let list = shown.list
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.count == 4 && list.entries.keys.allSatisfy { list.rowWidgets(showing: $0) != nil } })
            GtkTestEnvironment.waitForFrames(of: list.widget)

            let expected: [String: GtkTextDirection] = ["An English title": GTK_TEXT_DIR_LTR, "عنوان عربي": GTK_TEXT_DIR_RTL, "2026": GTK_TEXT_DIR_RTL,
                                                        "An English episode": GTK_TEXT_DIR_LTR]
            for (id, entry) in list.entries {
                let row = try XCTUnwrap(list.rowWidgets(showing: id))
                let title = entry.title ?? ""
                for label in [row.title, row.meta, row.summary] {
                    XCTAssertEqual(gtk_widget_get_direction(label), expected[title], "\(title): every line in one direction")
                }
                // Where each line's text lies in the row, as drawn: an LTR row's lines start at
                // one left edge, an RTL row's end at one right edge.
                var extents = [row.title, row.summary].map { Self.textExtent(of: $0, in: row.box) }
                if let icon = row.mediaIcon {
                    XCTAssertEqual(gtk_widget_get_direction(icon), expected[title], "\(title): the icon too")
                    var bounds = graphene_rect_t()
                    XCTAssertTrue(gtk_widget_compute_bounds(icon, row.box, &bounds) != 0)
                    let meta = Self.textExtent(of: row.meta, in: row.box)
                    XCTAssertLessThan(Double(bounds.origin.x + bounds.size.width), meta.minX, "\(title): the icon before the byline")
                    extents.append((Double(bounds.origin.x), meta.maxX))
                } else {
                    extents.append(Self.textExtent(of: row.meta, in: row.box))
                }
                let edges = expected[title] == GTK_TEXT_DIR_LTR ? extents.map(\.minX) : extents.map(\.maxX)
                XCTAssertLessThan((edges.max() ?? 0) - (edges.min() ?? 0), 2, "\(title): the lines align at one edge: \(extents)")
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(shown.window, name: "entry-rows-ar") })
        }
    }

    /// Where the text of `label` lies, left and right, in `ancestor`'s coordinates.
    @MainActor
    private static func textExtent(of label: UnsafeMutablePointer<GtkWidget>,
                                   in ancestor: UnsafeMutablePointer<GtkWidget>) -> (minX: Double, maxX: Double) {
        var offsetX: Int32 = 0
        var offsetY: Int32 = 0
        gtk_label_get_layout_offsets(cast(label), &offsetX, &offsetY)
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(gtk_label_get_layout(cast(label)), nil, &logical)
        var origin = graphene_point_t()
        var zero = graphene_point_t(x: 0, y: 0)
        _ = gtk_widget_compute_point(label, ancestor, &zero, &origin)
        let minX = Double(origin.x) + Double(offsetX + logical.x)
        return (minX, minX + Double(logical.width))
    }
}
