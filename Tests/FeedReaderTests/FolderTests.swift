import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Folders in the sidebar, inside one another as other readers' files nest them: made by an
/// import, from the main menu or by hand; feeds and folders moved by the context menu's actions
/// and dragged with the real pointer; opened and closed with the real keyboard; a folder's entries
/// and unread counts take in all below it.
final class FolderTests: XCTestCase {
    /// Tech holding A and Linux, which holds B and Kernel, which holds C; World holding D. Feed
    /// `/x.xml` has as many entries as `entries` says.
    static let nested = """
        <?xml version="1.0"?>
        <opml version="1.0"><head><title>Liferea Feed List Export</title></head><body>
          <outline title="Tech" text="Tech" type="folder" expanded="true">
            <outline title="A" text="A" type="rss" xmlUrl="URL/a.xml"/>
            <outline title="Linux" text="Linux" type="folder">
              <outline title="B" text="B" type="rss" xmlUrl="URL/b.xml"/>
              <outline title="Kernel" text="Kernel" type="folder"><outline title="C" text="C" type="rss" xmlUrl="URL/c.xml"/></outline>
            </outline>
          </outline>
          <outline title="World" text="World" type="folder"><outline title="D" text="D" type="rss" xmlUrl="URL/d.xml"/></outline>
        </body></opml>
        """
    static let entries = ["/feed.xml": 1, "/a.xml": 2, "/b.xml": 3, "/c.xml": 4, "/d.xml": 5]

    private static func server() throws -> TestHTTPServer {
        try TestHTTPServer { request in .ok(plainFeed(entries: entries[request.path] ?? 1)) }
    }

    private static func nestedFile(_ server: TestHTTPServer) throws -> URL {
        let file = temporaryDirectory().appendingPathComponent("nested.opml")
        try Data(nested.replacingOccurrences(of: "URL/", with: server.url("/").absoluteString).utf8).write(to: file)
        return file
    }

    func testNestedFoldersShowAsATreeCountAllBelowOpenAndCloseAndMove() throws {
        let server = try Self.server()
        defer { server.stop() }
        let file = try Self.nestedFile(server)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let sidebar = app.window.sidebar
            let top = try XCTUnwrap(sidebar.feedIDs.first)
            app.window.subscriptions.importSubscriptions(from: LocalFile(file))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.importBar.message?.hasPrefix("4 subscriptions") ?? false })
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.first?.unreadCount == 9 }, "Tech counts A, B and C")
            let folder = Dictionary(uniqueKeysWithValues: sidebar.folders.map { ($0.name, $0.id) })
            let (tech, linux, kernel, world) = (folder["Tech"]!, folder["Linux"]!, folder["Kernel"]!, folder["World"]!)
            let feed = try Self.feedIDs(app, ["a", "b", "c", "d"])
            XCTAssertEqual(sidebar.items, [.all, .starred, .feed(top), .folder(tech), .feed(feed["a"]!), .folder(linux), .feed(feed["b"]!),
                                           .folder(kernel), .feed(feed["c"]!), .folder(world), .feed(feed["d"]!)])
            XCTAssertEqual(sidebar.folders.map(\.unreadCount), [9, 7, 4, 5], "each folder counts all below it")
            XCTAssertEqual(Self.indent(of: .folder(kernel), in: sidebar) - Self.indent(of: .folder(linux), in: sidebar),
                           Self.indent(of: .folder(linux), in: sidebar) - Self.indent(of: .folder(tech), in: sidebar),
                           "each level a step in")
            XCTAssertGreaterThan(Self.indent(of: .folder(linux), in: sidebar), Self.indent(of: .folder(tech), in: sidebar))
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "folders-nested") })

            RealInput.click(windowTitle: app.title, at: Self.point(of: .folder(linux), in: app))
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .folder(linux) })
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 7 }, "Linux lists B's and Kernel's C's entries")

            RealInput.key(windowTitle: app.title, "Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { !sidebar.items.contains(.folder(kernel)) }, "Left closes the folder")
            XCTAssertEqual(sidebar.items.suffix(5), [.folder(tech), .feed(feed["a"]!), .folder(linux), .folder(world), .feed(feed["d"]!)])
            XCTAssertEqual(sidebar.selection, .folder(linux))
            RealInput.key(windowTitle: app.title, "Right")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.feed(feed["c"]!)) }, "Right opens it again")
            RealInput.key(windowTitle: app.title, "Down")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .feed(feed["b"]!) })
            RealInput.key(windowTitle: app.title, "Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .folder(linux) }, "Left on a feed goes to its folder")

            RealInput.click(windowTitle: app.title, at: Self.point(ofArrowOf: kernel, in: app))
            XCTAssertTrue(GtkTestEnvironment.iterate { !sidebar.items.contains(.feed(feed["c"]!)) }, "a click on the arrow closes the folder")
            XCTAssertEqual(sidebar.selection, .folder(linux), "the arrow does not select its row")
            do {
                let again = try app.restarted()
                defer { again.close() }
                XCTAssertTrue(GtkTestEnvironment.iterate { again.window.sidebar.items.contains(.folder(kernel)) }, "\(again.window.sidebar.items)")
                XCTAssertFalse(again.window.sidebar.items.contains(.feed(feed["c"]!)), "a closed folder stays closed after a restart")
            }
            RealInput.click(windowTitle: app.title, at: Self.point(ofArrowOf: kernel, in: app))
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.feed(feed["c"]!)) })

            Self.drag(.folder(kernel), onto: .folder(world), in: app)
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.suffix(4) == [.folder(world), .feed(feed["d"]!), .folder(kernel), .feed(feed["c"]!)] },
                          "Kernel dragged into World: \(sidebar.items)")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.map(\.unreadCount) == [5, 3, 9, 4] }, "\(sidebar.folders.map(\.unreadCount))")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 3 }, "the selected Linux lists only B's now")

            Self.drag(.feed(top), onto: .folder(linux), in: app)
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.first { $0.id == linux }?.unreadCount == 4 }, "the top feed dragged into Linux")
            XCTAssertEqual(sidebar.items[2], .folder(tech))

            let inTechMenu = Self.menuTargets(sidebar.menu(for: .folder(tech)))
            XCTAssertFalse(inTechMenu.contains(linux), "Tech's move menu offers no folder inside it")
            XCTAssertTrue(inTechMenu.contains(world))
            XCTAssertEqual(sidebar.pathName(of: kernel), "World › Kernel")
            g_action_group_activate_action(cast(app.window.window), "move-folder", FeedSidebar.moveTarget(folderID: world, parentID: tech))
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.first?.unreadCount == 15 }, "World moved into Tech by the menu's action")

            let linuxFolder = try XCTUnwrap(sidebar.folders.first { $0.id == linux })
            XCTAssertEqual(Subscriptions.deletingSays(linuxFolder), "The feeds and folders in “\u{2068}Linux\u{2069}” are kept: they move out of it, into the folder it is in.")
            app.window.subscriptions.deleteFolder(linux)
            XCTAssertTrue(GtkTestEnvironment.iterate { !sidebar.items.contains(.folder(linux)) })
            XCTAssertEqual(sidebar.items, [.all, .starred, .folder(tech), .feed(top), .feed(feed["a"]!), .feed(feed["b"]!), .folder(world),
                                           .feed(feed["d"]!), .folder(kernel), .feed(feed["c"]!)], "Linux's feeds are in Tech now")
            XCTAssertEqual(sidebar.selection, .all)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.source == .all && app.window.entryList.order.count == 15 },
                          "the deleted folder's list gives way to every feed's entries")
        }
    }

    /// Row widgets are reused for other rows as folders open and close: each shows its row's
    /// name, count and expanded state to screen readers, and opens its row's menu on a right
    /// click and, with the keyboard on it, on Shift+F10.
    func testReusedRowsNameTheirRowAndOpenItsMenu() throws {
        let server = try Self.server()
        defer { server.stop() }
        let file = try Self.nestedFile(server)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let sidebar = app.window.sidebar
            app.window.subscriptions.importSubscriptions(from: LocalFile(file))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { sidebar.folders.first?.unreadCount == 9 })
            let folder = Dictionary(uniqueKeysWithValues: sidebar.folders.map { ($0.id, $0) })
            let tech = try XCTUnwrap(sidebar.folders.first { $0.name == "Tech" }).id
            let world = try XCTUnwrap(sidebar.folders.first { $0.name == "World" }).id
            for closed in [[tech], [], [world]] {
                for id in [tech, world] { sidebar.setExpanded(id, !closed.contains(id)) }
                for item in sidebar.items {
                    let row = Self.row(of: item, in: sidebar)
                    if case let .folder(id) = item {
                        XCTAssertNotEqual(gtk_test_accessible_has_state(cast(row), GTK_ACCESSIBLE_STATE_EXPANDED), 0, "\(item)")
                        let name = "\(folder[id]!.name), \(folder[id]!.unreadCount) unread"
                        XCTAssertNil(AccessibilityTests.labelMismatch(cast(row), name), "closed: \(closed)")
                    } else {
                        XCTAssertEqual(gtk_test_accessible_has_state(cast(row), GTK_ACCESSIBLE_STATE_EXPANDED), 0, "\(item), closed: \(closed)")
                    }
                }
            }

            RealInput.click(windowTitle: app.title, at: Self.point(of: .folder(world), in: app), rightButton: true)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.menuLabels(on: .folder(world), in: sidebar).contains("Rename Folder…") },
                          "a right click opens the folder's menu: \(Self.menuLabels(on: .folder(world), in: sidebar))")
            RealInput.key(windowTitle: app.title, "Escape")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.menuLabels(on: .folder(world), in: sidebar).isEmpty })

            let top = try XCTUnwrap(sidebar.feedIDs.first)
            RealInput.click(windowTitle: app.title, at: Self.point(of: .feed(top), in: app))
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .feed(top) })
            RealInput.key(windowTitle: app.title, "shift+F10")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.menuLabels(on: .feed(top), in: sidebar).contains("Mark All as Read") },
                          "Shift+F10 opens the selected feed's menu: \(Self.menuLabels(on: .feed(top), in: sidebar))")
            RealInput.key(windowTitle: app.title, "Escape")

            // A count that changes is shown in the row already on screen, not in a new one.
            let worldRow = Self.row(of: .folder(world), in: sidebar)
            let count = {
                descendant(of: worldRow) { gtk_widget_has_css_class($0, "unread-count") != 0 }.map { String(cString: gtk_label_get_text(cast($0))) }
            }
            XCTAssertEqual(count(), "5")
            let d = try XCTUnwrap(Self.feedIDs(app, ["d"])["d"])
            g_action_group_activate_action(cast(app.window.window), "mark-feed-read", g_variant_new_int64(gint64(d)))
            XCTAssertTrue(GtkTestEnvironment.iterate { count() == "" }, "World's count cleared in place: \(count() ?? "no row")")
            XCTAssertEqual(sidebar.rowWidget(showing: .folder(world)), worldRow)
        }
    }

    /// The texts of the menu popped up on `item`'s row; empty when none is shown.
    @MainActor
    private static func menuLabels(on item: FeedSelection, in sidebar: FeedSidebar) -> [String] {
        guard let row = sidebar.rowWidget(showing: item),
              let menu = descendant(of: row, where: { isWidget($0, a: gtk_popover_menu_get_type()) && gtk_widget_get_mapped($0) != 0 })
        else { return [] }
        var labels: [String] = []
        func collect(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if isWidget(widget, a: gtk_label_get_type()), gtk_widget_get_mapped(widget) != 0 { labels.append(String(cString: gtk_label_get_text(cast(widget)))) }
            var child = gtk_widget_get_first_child(widget)
            while let current = child { collect(current); child = gtk_widget_get_next_sibling(current) }
        }
        collect(menu)
        return labels
    }

    /// New Folder… from the main menu, opened with the pointer and chosen by its mnemonic, then by
    /// its shortcut; a feed dragged into the new folder.
    func testNewFolderFromTheMainMenuTakesAFeedDraggedIntoIt() throws {
        let server = try Self.server()
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/a.xml").absoluteString)
            defer { app.close() }
            let sidebar = app.window.sidebar
            let feedID = try XCTUnwrap(sidebar.feedIDs.first)

            RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(Self.mainMenuButton(of: app)), x: 10, y: 10))
            RealInput.key(windowTitle: app.title, "f")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.toplevel(titled: "New Folder") != nil }, "the menu's New Folder… asks for a name")
            RealInput.type(windowTitle: "New Folder", "Reading List")
            RealInput.key(windowTitle: "New Folder", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.map(\.name) == ["Reading List"] })
            let reading = sidebar.folders[0].id

            RealInput.key(windowTitle: app.title, "ctrl+shift+n")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.toplevel(titled: "New Folder") != nil }, "Ctrl+Shift+N asks too")
            RealInput.type(windowTitle: "New Folder", "Later")
            RealInput.key(windowTitle: "New Folder", "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.map(\.name) == ["Reading List", "Later"] })

            Self.drag(.feed(feedID), onto: .folder(reading), in: app)
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items == [.all, .starred, .folder(reading), .feed(feedID), .folder(sidebar.folders[1].id)] },
                          "the feed dragged into Reading List: \(sidebar.items)")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders[0].unreadCount == 2 })
            Self.drag(.feed(feedID), onto: .all, in: app)
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items[2] == .feed(feedID) }, "dragged onto All Feeds: out of any folder")
        }
    }

    /// The main menu's Mark as Read marks what the list shows, and says so: a feed, a folder with
    /// all below it, and everything only for All Feeds; Starred is named too.
    func testTheMainMenusMarkReadMarksWhatTheListShowsAndNamesIt() throws {
        let server = try Self.server()
        defer { server.stop() }
        let file = try Self.nestedFile(server)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let sidebar = app.window.sidebar
            let toasts = app.window.notices.toasts
            app.window.subscriptions.importSubscriptions(from: LocalFile(file))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.unreadInStore() == 15 })
            let tech = try XCTUnwrap(sidebar.folders.first { $0.name == "Tech" }).id
            let ids = try Self.feedIDs(app, ["d"])
            let button = try XCTUnwrap(Self.mainMenuButton(of: app))
            let label = { Self.markReadLabel(of: button).filter { $0 != "\u{2068}" && $0 != "\u{2069}" } }
            XCTAssertEqual(label(), "_Mark All as Read")

            // A search lists its results from every feed, whatever the sidebar has selected: those are marked.
            sidebar.select(.folder(tech))
            XCTAssertTrue(GtkTestEnvironment.iterate { label() == "_Mark “Tech” as Read" }, label())
            app.window.filterBar.startSearch()
            gtk_editable_set_text(cast(app.window.filterBar.searchEntry), "Entry 4")
            XCTAssertTrue(GtkTestEnvironment.iterate { label() == "_Mark Results as Read" }, label())
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 2 }, "C's and D's fourth entries")
            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == "2 entries marked as read" }, toasts.message ?? "no toast")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 13 }, "only the results: \(app.unreadInStore())")
            gtk_editable_set_text(cast(app.window.filterBar.searchEntry), "")
            XCTAssertTrue(GtkTestEnvironment.iterate { label() == "_Mark “Tech” as Read" }, label())

            // Each marks only its own: Tech holds A, B and C (2 + 3 + 4), D 5, of 15 unread, less
            // the fourth entries of C and D the search marked.
            let cases: [(item: FeedSelection, label: String, marked: Int, left: Int)] = [
                (.folder(tech), "_Mark “Tech” as Read", 8, 5),
                // The feed is named as the sidebar names it: by its fetched title.
                (.feed(try XCTUnwrap(ids["d"])), "_Mark “Plain” as Read", 4, 1),
            ]
            for (item, expected, marked, left) in cases {
                sidebar.select(item)
                XCTAssertTrue(GtkTestEnvironment.iterate { label() == expected }, "\(item): \(label())")
                g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
                XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == "\(marked) entries marked as read" }, toasts.message ?? "no toast")
                XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == left }, "only \(item)'s entries: \(app.unreadInStore())")
            }

            sidebar.select(.starred)
            XCTAssertTrue(GtkTestEnvironment.iterate { label() == "_Mark “Starred” as Read" }, label())
            sidebar.select(.all)
            XCTAssertTrue(GtkTestEnvironment.iterate { label() == "_Mark All as Read" }, label())
            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 0 })
        }
    }

    /// The label of the first item of `button`'s menu, the one marking entries read.
    @MainActor
    private static func markReadLabel(of button: UnsafeMutablePointer<GtkWidget>) -> String {
        guard let menu = gtk_menu_button_get_menu_model(cast(button)),
              let section = g_menu_model_get_item_link(menu, 0, "section") else { return "" }
        defer { g_object_unref(cast(section)) }
        // The item is found by its action, wherever the menu puts it.
        for index in 0..<g_menu_model_get_n_items(section) {
            guard let action = g_menu_model_get_item_attribute_value(section, index, "action", nil) else { continue }
            defer { g_variant_unref(action) }
            guard String(cString: g_variant_get_string(action, nil)) == "win.mark-all-read",
                  let value = g_menu_model_get_item_attribute_value(section, index, "label", nil) else { continue }
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
        return ""
    }

    /// An empty folder is not shown open over nothing; once a feed goes in, it opens as folders do.
    func testAnEmptyFolderIsNotShownOpen() throws {
        let server = try Self.server()
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/a.xml").absoluteString)
            defer { app.close() }
            let sidebar = app.window.sidebar
            let feedID = try XCTUnwrap(sidebar.feedIDs.first)
            app.window.subscriptions.createFolder(named: "Later")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.folders.map(\.name) == ["Later"] })
            let later = sidebar.folders[0].id
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.isShownOpen(.folder(later), in: sidebar) == false },
                          "the empty folder is closed: \(String(describing: Self.isShownOpen(.folder(later), in: sidebar)))")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "folder-empty") })

            app.window.subscriptions.moveFeed(feedID, toFolder: later)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.isShownOpen(.folder(later), in: sidebar) == true }, "with a feed in it, it opens")
        }
    }

    /// Whether `item`'s row shows its expander open; nil when the row is not shown.
    @MainActor
    private static func isShownOpen(_ item: FeedSelection, in sidebar: FeedSidebar) -> Bool? {
        guard let row = sidebar.rowWidget(showing: item),
              let expander = descendant(of: row, where: { isWidget($0, a: gtk_tree_expander_get_type()) }),
              let listRow = gtk_tree_expander_get_list_row(cast(expander)) else { return nil }
        return gtk_tree_list_row_get_expanded(listRow) != 0
    }

    /// The nested folders in English and in Arabic (right to left), for people to look at.
    func testNestedFoldersRenderInEnglishAndArabic() throws {
        let server = try Self.server()
        defer { server.stop() }
        let file = try Self.nestedFile(server)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer {
                app.window.switchLanguage(to: "")
                gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR)
                app.close()
            }
            app.window.subscriptions.importSubscriptions(from: LocalFile(file))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.sidebar.folders.first?.unreadCount == 9 })
            let kernel = try XCTUnwrap(app.window.sidebar.folders.first { $0.name == "Kernel" })
            let world = try XCTUnwrap(app.window.sidebar.folders.first { $0.name == "World" })
            app.window.sidebar.setExpanded(world.id, false)
            app.window.sidebar.select(.folder(kernel.id))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 4 }, "Kernel's entries")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "folders-nested-light") })
            saveScreen(name: "folders-nested-light-screen")

            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            app.window.switchLanguage(to: "ar")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_direction(app.window.sidebar.widget) == GTK_TEXT_DIR_RTL })
            let linux = try XCTUnwrap(app.window.sidebar.folders.first { $0.name == "Linux" })
            let indents = { [.folder(linux.id), .folder(kernel.id)].map { Self.indent(of: $0, in: app.window.sidebar, from: .trailing) } }
            // The rows stay: they are laid out again from the right on the next frame.
            XCTAssertTrue(GtkTestEnvironment.iterate { indents()[1] > indents()[0] && indents()[0] > 0 }, "indented from the right: \(indents())")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "folders-nested-arabic") })
            saveScreen(name: "folders-nested-arabic-screen")
        }
    }

    // MARK: - Helpers

    private static func feedIDs(_ app: ReaderFixture, _ names: [String]) throws -> [String: Int64] {
        nonisolated(unsafe) var feeds: [StoredFeed]?
        Task { @MainActor in feeds = try? await app.library.store.feeds() }
        GtkTestEnvironment.iterate(timeout: 5) { feeds != nil }
        return Dictionary(uniqueKeysWithValues: try names.map { name in
            (name, try XCTUnwrap(feeds?.first { $0.url.path == "/\(name).xml" }).id)
        })
    }

    /// The sidebar's list view.
    @MainActor
    private static func list(of sidebar: FeedSidebar) -> UnsafeMutablePointer<GtkWidget> {
        gtk_scrolled_window_get_child(cast(sidebar.widget))!
    }

    /// The row widget showing `item`, once it is laid out (row widgets are reused for other rows
    /// whenever the list changes).
    @MainActor
    static func row(of item: FeedSelection, in sidebar: FeedSidebar) -> UnsafeMutablePointer<GtkWidget> {
        GtkTestEnvironment.iterate {
            sidebar.rowWidget(showing: item).map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_height($0) > 0 } ?? false
        }
        return sidebar.rowWidget(showing: item)!
    }

    enum Edge { case leading, trailing }

    /// How far the row's icon is from the list's start (left, or right in right-to-left).
    @MainActor
    private static func indent(of item: FeedSelection, in sidebar: FeedSidebar, from edge: Edge = .leading) -> Double {
        _ = row(of: item, in: sidebar)
        let icon = sidebar.rowWidgets(showing: item)!.icon
        var bounds = graphene_rect_t()
        _ = gtk_widget_compute_bounds(icon, list(of: sidebar), &bounds)
        let listWidth = Double(gtk_widget_get_width(list(of: sidebar)))
        return edge == .leading ? Double(bounds.origin.x) : listWidth - Double(bounds.origin.x + bounds.size.width)
    }

    /// The middle of a row, where the window's surface has it.
    @MainActor
    static func point(of item: FeedSelection, in app: ReaderFixture) -> (x: Int, y: Int) {
        let row = row(of: item, in: app.window.sidebar)
        return app.point(in: row, x: Double(gtk_widget_get_width(row)) / 2, y: Double(gtk_widget_get_height(row)) / 2)
    }

    /// The middle of a folder row's arrow.
    @MainActor
    private static func point(ofArrowOf folderID: Int64, in app: ReaderFixture) -> (x: Int, y: Int) {
        // The tree expander's arrow, GTK's "expander" node.
        let arrow = descendant(of: row(of: .folder(folderID), in: app.window.sidebar)) {
            String(cString: gtk_widget_get_css_name($0)) == "expander"
        }!
        return app.point(in: arrow, x: Double(gtk_widget_get_width(arrow)) / 2, y: Double(gtk_widget_get_height(arrow)) / 2)
    }

    /// Drags a row onto another with the real pointer: pressed, moved there in steps, held a
    /// moment over the target (a few more motions), released.
    @MainActor
    static func drag(_ item: FeedSelection, onto target: FeedSelection, in app: ReaderFixture) {
        let (start, end) = (point(of: item, in: app), point(of: target, in: app))
        RealInput.drag(windowTitle: app.title, from: start, dx: end.x - start.x, dy: end.y - start.y, steps: 16, interval: 0.03, release: false)
        for offset in [2, -2, 1] { RealInput.move(windowTitle: app.title, to: (end.x + offset, end.y + offset)) }
        RealInput.release()
    }

    @MainActor
    static func mainMenuButton(of app: ReaderFixture) -> UnsafeMutablePointer<GtkWidget>? {
        // The sidebar's header bar holds the main menu.
        find(in: app.window.layout.sidebarContent) { g_type_check_instance_is_a(cast($0), gtk_menu_button_get_type()) != 0 }
    }

    @MainActor
    private static func find(in widget: UnsafeMutablePointer<GtkWidget>, _ test: (UnsafeMutablePointer<GtkWidget>) -> Bool) -> UnsafeMutablePointer<GtkWidget>? {
        if test(widget) { return widget }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let found = find(in: current, test) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    @MainActor
    static func toplevel(titled title: String) -> UnsafeMutablePointer<GtkWidget>? {
        let toplevels = gtk_window_get_toplevels()!
        for index in 0..<g_list_model_get_n_items(toplevels) {
            let window = UnsafeMutablePointer<GtkWidget>(OpaquePointer(g_list_model_get_item(toplevels, index)!))
            g_object_unref(window)
            if gtk_widget_get_visible(window) != 0, let name = gtk_window_get_title(cast(window)), String(cString: name) == title { return window }
        }
        return nil
    }

    /// The folders a folder's "Move to Folder" submenu offers (0 for the top of the list).
    @MainActor
    private static func menuTargets(_ menu: OpaquePointer?) -> [Int64] {
        guard let menu else { return [] }
        defer { g_object_unref(cast(menu)) }
        return MenuContents.sections(of: menu).flatMap { $0 }.flatMap(\.submenu).compactMap { item in
            guard let target = item.target else { return nil }
            defer { g_variant_unref(target) }
            let parent = g_variant_get_child_value(target, 1)!
            defer { g_variant_unref(parent) }
            return Int64(g_variant_get_int64(parent))
        }
    }
}
