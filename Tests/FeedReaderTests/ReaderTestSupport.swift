import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Runs `body` on a reader window subscribed to `xml` served on 127.0.0.1, once its `entries` show.
func withReader(serving xml: Data, entries: Int, _ body: @MainActor (ReaderFixture) throws -> Void) throws {
    let server = try TestHTTPServer { _ in .ok(xml) }
    defer { server.stop() }
    try withReader(subscribedTo: server, entries: entries, body)
}

/// Runs `body` on a reader window subscribed to `server`'s /feed.xml, once its `entries` show.
func withReader(subscribedTo server: TestHTTPServer, entries: Int, _ body: @MainActor (ReaderFixture) throws -> Void) throws {
    try onMain {
        let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
        defer { app.close() }
        XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == entries })
        try body(app)
    }
}

extension ReaderFixture {
    /// Selects the entry titled `title` and waits until the article view has loaded it.
    func showEntry(titled title: String, file: StaticString = #filePath, line: UInt = #line) {
        let list = window.entryList
        guard let index = list.order.firstIndex(where: { list.entries[$0]?.title == title }) else {
            return XCTFail("no entry \(title)", file: file, line: line)
        }
        list.select(index: index)
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { window.article.isLoaded && window.article.entry?.title == title },
                      "the article view shows \(title)", file: file, line: line)
    }
}

/// An RSS feed titled `title` of `count` plain entries titled "Entry 1" (newest) to "Entry count".
func plainFeed(entries count: Int, title: String = "Plain") -> Data {
    let items = (1...count).map { number in
        """
        <item><title>Entry \(number)</title><link>https://example.org/\(number)</link><guid>e-\(number)</guid>
        <pubDate>\(String(format: "%02d", 28 - number % 28)) Oct 2026 10:00:00 +0000</pubDate><description>Text \(number)</description></item>
        """
    }
    return Data("""
        <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\(title)</title>
        <description>d</description>\(items.joined())</channel></rss>
        """.utf8)
}

/// Saves `window` as GTK renders it to `name`.png in `$REFRESHGTK_TEST_RENDERS` (else a temporary
/// folder), for people to look at. Returns whether it was saved: a window between frames may
/// give no render node yet.
@MainActor
@discardableResult
func saveRender(_ window: UnsafeMutablePointer<GtkWidget>, name: String) -> Bool {
    let folder = ProcessInfo.processInfo.environment["REFRESHGTK_TEST_RENDERS"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("refreshgtk-renders").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let paintable = gtk_widget_paintable_new(window)!
    defer { g_object_unref(cast(paintable)) }
    let snapshot = gtk_snapshot_new()!
    gdk_paintable_snapshot(paintable, cast(snapshot), Double(gtk_widget_get_width(window)), Double(gtk_widget_get_height(window)))
    guard let node = gtk_snapshot_free_to_node(snapshot), let renderer = gtk_native_get_renderer(cast(window)),
          let texture = gsk_renderer_render_texture(renderer, node, nil) else { return false }
    gsk_render_node_unref(node)
    defer { g_object_unref(cast(texture)) }
    return gdk_texture_save_to_png(texture, "\(folder)/\(name).png") != 0
}

/// Saves the whole screen as ImageMagick's `import` sees it on X11 (`grim` on Wayland) to
/// `name`.png in `$REFRESHGTK_TEST_RENDERS` (else a temporary folder): the window with its
/// popovers and dialogs, as the display server shows them.
@MainActor
func saveScreen(name: String) {
    let folder = ProcessInfo.processInfo.environment["REFRESHGTK_TEST_RENDERS"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("refreshgtk-renders").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    GtkTestEnvironment.settleInput()
    let file = "\(folder)/\(name).png"
    let shot = GtkTestEnvironment.isWayland ? try? Subprocess("/usr/bin/grim", [file])
        : try? Subprocess("/usr/bin/import", ["-window", "root", file])
    _ = shot?.wait()
}

/// The first widget at or under `widget`, depth first, for which `matches` holds.
@MainActor
func descendant(of widget: UnsafeMutablePointer<GtkWidget>,
                where matches: (UnsafeMutablePointer<GtkWidget>) -> Bool) -> UnsafeMutablePointer<GtkWidget>? {
    if matches(widget) { return widget }
    var child = gtk_widget_get_first_child(widget)
    while let current = child {
        if let found = descendant(of: current, where: matches) { return found }
        child = gtk_widget_get_next_sibling(current)
    }
    return nil
}

/// Whether `widget` is a `type` (a `*_get_type()` result).
func isWidget(_ widget: UnsafeMutablePointer<GtkWidget>, a type: GType) -> Bool {
    g_type_check_instance_is_a(cast(widget), type) != 0
}

/// The open window titled `title`, if any.
@MainActor
func toplevel(titled title: String) -> UnsafeMutablePointer<GtkWidget>? {
    toplevel { widget in gtk_window_get_title(cast(widget)).map { String(cString: $0) } == title }
}

/// The first open window for which `matches` holds.
@MainActor
func toplevel(where matches: (UnsafeMutablePointer<GtkWidget>) -> Bool) -> UnsafeMutablePointer<GtkWidget>? {
    let toplevels = gtk_window_get_toplevels()!
    for index in 0..<g_list_model_get_n_items(toplevels) {
        guard let window = g_list_model_get_item(toplevels, index) else { continue }
        g_object_unref(window)
        let widget = window.assumingMemoryBound(to: GtkWidget.self)
        if matches(widget) { return widget }
    }
    return nil
}

/// What a menu model shows, as a person reads it: its sections, and items inside sections and submenus.
@MainActor
enum MenuContents {
    /// An item: its label, its action (nil for a submenu), its target and its submenu's items.
    struct Item {
        var label: String
        var action: String?
        var target: OpaquePointer?
        var submenu: [Item] = []
    }

    /// The menu's sections in order, each its items; items outside any section form one of their own.
    static func sections(of menu: OpaquePointer) -> [[Item]] {
        var sections: [[Item]] = []
        var loose: [Item] = []
        for index in 0..<g_menu_model_get_n_items(cast(menu)) {
            if let section = g_menu_model_get_item_link(cast(menu), index, "section") {
                defer { g_object_unref(section) }
                if !loose.isEmpty { sections.append(loose); loose = [] }
                sections.append(items(ofLevel: OpaquePointer(section)))
            } else {
                loose.append(item(at: index, of: menu))
            }
        }
        if !loose.isEmpty { sections.append(loose) }
        return sections
    }

    /// Every item of the menu, sections and submenus opened, in order.
    static func allItems(of menu: OpaquePointer) -> [Item] {
        sections(of: menu).flatMap { $0 }.flatMap { [$0] + $0.submenu }
    }

    /// The labels of the menu's sections.
    static func labels(of menu: OpaquePointer) -> [[String]] {
        sections(of: menu).map { $0.map(\.label) }
    }

    private static func items(ofLevel menu: OpaquePointer) -> [Item] {
        (0..<g_menu_model_get_n_items(cast(menu))).map { item(at: $0, of: menu) }
    }

    private static func item(at index: Int32, of menu: OpaquePointer) -> Item {
        func string(_ name: String) -> String? {
            guard let value = g_menu_model_get_item_attribute_value(cast(menu), index, name, nil) else { return nil }
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
        var item = Item(label: string("label") ?? "", action: string("action"),
                        target: g_menu_model_get_item_attribute_value(cast(menu), index, "target", nil))
        if let submenu = g_menu_model_get_item_link(cast(menu), index, "submenu") {
            defer { g_object_unref(submenu) }
            item.submenu = sections(of: OpaquePointer(submenu)).flatMap { $0 }
        }
        return item
    }
}

/// The metainfo as `meson-helpers/compile-po` installs it, with the catalogs' translations merged.
func installedMetainfo() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("metainfo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    let compile = try Subprocess(root.appendingPathComponent("meson-helpers/compile-po").path,
                                 [output.appendingPathComponent("locale").path, output.appendingPathComponent("share").path]).wait()
    XCTAssertEqual(compile.status, 0, "compile-po installs the metainfo: \(compile.errors)")
    return try String(contentsOf: output.appendingPathComponent("share/metainfo/io.github.refreshgtk.FeedReader.metainfo.xml"), encoding: .utf8)
}
