import CGtk
import CWebKit
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The reader from the keyboard alone.
final class KeyboardTests: XCTestCase {
    func testJAndKMoveThroughEntriesAndShiftedThroughFeeds() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let list = app.window.entryList
            let sidebar = app.window.sidebar
            RealInput.key(windowTitle: app.title, "j")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.selectedEntry?.title == "Entry 1" }, "j selects the first entry")
            RealInput.key(windowTitle: app.title, "j")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.selectedEntry?.title == "Entry 2" })
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.entry?.title == "Entry 2" }, "and shows it")
            RealInput.key(windowTitle: app.title, "k")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.selectedEntry?.title == "Entry 1" })

            RealInput.key(windowTitle: app.title, "shift+j")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .starred }, "J moves to the next feed")
            RealInput.key(windowTitle: app.title, "ctrl+j")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selectedFeedID == sidebar.feedIDs.first })
            RealInput.key(windowTitle: app.title, "shift+k")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .starred }, "K moves back")
            RealInput.key(windowTitle: app.title, "ctrl+k")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .all })
        }
    }

    func testSpacePagesTheArticleThenMovesToTheNextUnreadEntry() throws {
        try withReader(serving: ArticleViewTests.feedXML, entries: 2) { app in
            let list = app.window.entryList
            let article = app.window.article
            RealInput.key(windowTitle: app.title, "j")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded && article.entry?.title == "Formatted & safe" })

            var presses = 0
            while list.selectedEntry?.title != "Second", presses < 20 {
                let before = Self.scrollY(of: article.webView!)
                RealInput.key(windowTitle: app.title, "space")
                presses += 1
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                    list.selectedEntry?.title == "Second" || Self.scrollY(of: article.webView!) != before
                }, "Space either scrolled the article or moved on")
            }
            XCTAssertEqual(list.selectedEntry?.title, "Second", "Space reached the end of the article and moved on")
            XCTAssertGreaterThan(presses, 1, "Space paged before moving on")
        }
    }

    func testEnterAndOOpenTheEntryInTheBrowserAndANarrowWindowShowsTheArticleFirst() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            var opened: [URL] = []
            window.reading.openLink = { opened.append($0) }
            RealInput.click(windowTitle: app.title, at: app.point(in: window.entryList.listView, x: 100, y: 20))
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.selectedEntry?.title == "Entry 1" })
            RealInput.key(windowTitle: app.title, "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { opened.count == 1 }, "wide, Enter on the entry opens it in the browser")
            RealInput.key(windowTitle: app.title, "o")
            XCTAssertTrue(GtkTestEnvironment.iterate { opened.count == 2 }, "and so does o")
            XCTAssertEqual(opened, [URL(string: "https://example.org/1")!, URL(string: "https://example.org/1")!])

            PaneLeafletTests.resize(app, width: 500)
            XCTAssertTrue(GtkTestEnvironment.iterate { PaneLeafletTests.shownPanes(window) == [.article] },
                          "narrow, the article of the entry clicked: \(PaneLeafletTests.shownPanes(window))")
            RealInput.key(windowTitle: app.title, "alt+Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { PaneLeafletTests.shownPanes(window) == [.entries] })
            RealInput.key(windowTitle: app.title, "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { PaneLeafletTests.shownPanes(window) == [.article] },
                          "narrow, Enter on an entry of the list shows its article: \(PaneLeafletTests.shownPanes(window))")
            XCTAssertEqual(opened.count, 2, "without opening the browser")
            RealInput.key(windowTitle: app.title, "j")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { window.article.entry?.title == "Entry 2" }, "j reads the next entry")
            RealInput.key(windowTitle: app.title, "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { opened.count == 3 }, "Enter on the article opens it in the browser")
            RealInput.key(windowTitle: app.title, "o")
            XCTAssertTrue(GtkTestEnvironment.iterate { opened.count == 4 }, "and so does o")
            XCTAssertEqual(opened.suffix(2), [URL(string: "https://example.org/2")!, URL(string: "https://example.org/2")!])
            XCTAssertEqual(window.entryList.selectedEntry?.isStarred, false, "Enter did not star the entry")
        }
    }

    func testRRefreshesAndCtrlQuestionMarkListsTheShortcuts() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let header = app.window.entryList.header
            RealInput.key(windowTitle: app.title, "r")
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state != .idle }, "r began a refresh")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { header.state == .idle })

            RealInput.key(windowTitle: app.title, "ctrl+question")
            var shortcuts: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                shortcuts = Self.shortcutsWindow()
                return shortcuts != nil
            }, "Ctrl+? opened the shortcuts window")
            let titles = Self.shortcutTitles(in: try XCTUnwrap(shortcuts))
            for title in ["Next entry", "Previous feed", "Star or unstar", "Search", "Quit", "New Folder", "Expand folder",
                          "Collapse folder", "Open in Browser", "Open the entry", "Show only unread entries"] {
                XCTAssertTrue(titles.contains(title), "\(title) is listed: \(titles)")
            }
            XCTAssertEqual(titles.first, "Keyboard Shortcuts", "General comes first")
            saveRender(try XCTUnwrap(shortcuts), name: "shortcuts-window")
            gtk_window_close(cast(shortcuts))

            defer { app.window.switchLanguage(to: "") }
            app.window.switchLanguage(to: "fr")
            // The switch titles the window in French; the keys go to it by the test's title.
            gtk_window_set_title(cast(app.window.window), app.title)
            RealInput.key(windowTitle: app.title, "ctrl+question")
            XCTAssertTrue(GtkTestEnvironment.iterate {
                shortcuts = Self.shortcutsWindow()
                return shortcuts != nil
            }, "Ctrl+? opened the shortcuts window again")
            let french = Self.shortcutTitles(in: try XCTUnwrap(shortcuts))
            XCTAssertEqual(french.first, "Raccourcis clavier", "the overlay follows a language switch")
            XCTAssertTrue(french.contains("Ajouter ou retirer l’étoile"), "\(french)")
            gtk_window_close(cast(shortcuts))
            app.window.switchLanguage(to: "de")
            let toplevels = gtk_window_get_toplevels()!
            let overlays = (0..<g_list_model_get_n_items(toplevels)).filter { index in
                let window = g_list_model_get_item(toplevels, index)!
                defer { g_object_unref(window) }
                return g_type_check_instance_is_a(window.assumingMemoryBound(to: GTypeInstance.self), gtk_shortcuts_window_get_type()) != 0
            }
            XCTAssertEqual(overlays.count, 1, "each switch replaces the overlay, leaving no other behind")
        }
    }

    /// gtk/help-overlay.ui, as GtkApplication loads it, lists exactly the table's shortcuts:
    /// the same ids with the same keys for the same text direction, each titled for translation.
    func testTheHelpOverlayListsTheTableTheAcceleratorsComeFrom() throws {
        try onMain {
            XCTAssertTrue(AppResources.register())
            let path = AppResources.basePath + Shortcuts.overlayFile
            let builder = try XCTUnwrap(gtk_builder_new_from_resource(path))
            defer { g_object_unref(cast(builder)) }
            var overlay: [String: Shortcuts.Shortcut] = [:]
            var node = gtk_builder_get_objects(builder)
            defer { g_slist_free(node) }
            while let current = node {
                node = current.pointee.next
                let object = try XCTUnwrap(current.pointee.data)
                guard g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), gtk_shortcuts_shortcut_get_type()) != 0
                else { continue }
                let id = String(cString: try XCTUnwrap(gtk_buildable_get_buildable_id(OpaquePointer(object))))
                var accelerator = GValue(), direction = GValue()
                g_value_init(&accelerator, g_type_from_name("gchararray"))
                g_value_init(&direction, gtk_text_direction_get_type())
                g_object_get_property(cast(object), "accelerator", &accelerator)
                g_object_get_property(cast(object), "direction", &direction)
                defer { g_value_unset(&accelerator); g_value_unset(&direction) }
                XCTAssertNil(overlay[id], "\(id) is listed once")
                overlay[id] = Shortcuts.Shortcut(id: id, keys: g_value_get_string(&accelerator).map { String(cString: $0) } ?? "",
                                                 direction: GtkTextDirection(UInt32(g_value_get_enum(&direction))))
            }
            let table = Dictionary(uniqueKeysWithValues: Shortcuts.table.map { ($0.id, Shortcuts.Shortcut(id: $0.id, keys: $0.keys, direction: $0.direction)) })
            XCTAssertEqual(Set(overlay.keys), Set(table.keys), "the overlay and the table list the same shortcuts")
            for (id, shortcut) in table {
                XCTAssertEqual(overlay[id], shortcut, "\(id): the overlay shows the keys the table sets")
            }

            let bytes = try XCTUnwrap(g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil))
            defer { g_bytes_unref(bytes) }
            var size = 0
            let text = String(decoding: UnsafeRawBufferPointer(start: g_bytes_get_data(bytes, &size), count: size), as: UTF8.self)
            let titles = text.components(separatedBy: "<property name=\"title\"").count - 1
            let translatable = text.components(separatedBy: "<property name=\"title\" translatable=\"yes\"").count - 1
            XCTAssertEqual(translatable, titles, "every title is translatable")
            XCTAssertGreaterThanOrEqual(titles, table.count)
        }
    }

    @MainActor
    private static func shortcutsWindow() -> UnsafeMutablePointer<GtkWidget>? {
        toplevel { isWidget($0, a: gtk_shortcuts_window_get_type()) && gtk_widget_get_visible($0) != 0 }
    }

    /// How far the article's page is scrolled, read through WebKit as the page itself knows it.
    @MainActor
    static func scrollY(of webView: UnsafeMutablePointer<GtkWidget>) -> Double? {
        final class Result { var value: Double?; var done = false }
        let result = Result()
        let box = Unmanaged.passRetained(result).toOpaque()
        let finished: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, task, data in
            let result = Unmanaged<Result>.fromOpaque(data!).takeRetainedValue()
            if let value = webkit_web_view_evaluate_javascript_finish(cast(source), task, nil) {
                result.value = jsc_value_to_double(value)
                g_object_unref(cast(value))
            }
            result.done = true
        }
        webkit_web_view_evaluate_javascript(cast(webView), "window.scrollY", -1, "feed-reader-tests", nil, nil, finished, box)
        GtkTestEnvironment.iterate(timeout: 5) { result.done }
        return result.value
    }

    /// The titles of every GtkShortcutsShortcut in the window.
    @MainActor
    private static func shortcutTitles(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var titles: [String] = []
        _ = descendant(of: widget) { candidate in
            if isWidget(candidate, a: gtk_shortcuts_shortcut_get_type()) {
                var value = GValue()
                g_value_init(&value, g_type_from_name("gchararray"))
                g_object_get_property(cast(candidate), "title", &value)
                if let text = g_value_get_string(&value) { titles.append(String(cString: text)) }
                g_value_unset(&value)
            }
            return false
        }
        return titles
    }
}
