import AppSupport
import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The preferences window: the style, the language, background refresh, notifications and
/// retention, each taking effect at once and kept in the settings file.
final class PreferencesWindowTests: XCTestCase {
    func testChoicesTakeEffectAtOnceAndAreKept() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = try Self.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(window)) }
            XCTAssertTrue(isWidget(window, a: adw_preferences_window_get_type()))
            saveScreen(name: "preferences-window")
            XCTAssertEqual(Self.rowTitles(in: window), [
                "Style", "Language", "Mark entries read", "Mark read as you scroll", "Article font", "Text size", "Line length", "Load remote images",
                "Refresh in the background", "Notify about new entries",
                "Notify even when the window is focused", "Run in the background", "Keep read entries",
                "Keep unread entries however old", "Keep starred entries however old",
            ])
            let row = { (title: String) in try XCTUnwrap(Self.row(titled: title, in: window)) }
            XCTAssertEqual(Self.choice(try row("Style")), "Follow System")
            XCTAssertEqual(Self.choice(try row("Refresh in the background")), "Every 30 minutes")
            XCTAssertEqual(Self.choice(try row("Keep read entries")), "For 3 months")
            XCTAssertEqual(Self.choice(try row("Mark entries read")), "When selected")
            XCTAssertEqual(Self.choice(try row("Article font")), "Same as the desktop")
            XCTAssertEqual(Self.choice(try row("Text size")), "Same as the desktop")
            XCTAssertEqual(Self.choice(try row("Line length")), "Medium")
            XCTAssertEqual(try ["Mark read as you scroll", "Load remote images", "Notify about new entries", "Notify even when the window is focused",
                                "Run in the background", "Keep unread entries however old", "Keep starred entries however old"]
                .map { Self.isOn(try row($0)) }, [false, true, true, false, false, true, true])
            XCTAssertFalse(app.window.reading.scrollMarking.isOn, "off, scrolling is not followed")

            adw_combo_row_set_selected(cast(try row("Refresh in the background")), 3)
            XCTAssertEqual(app.window.backgroundRefresh.minutes, 60, "the schedule follows at once")
            adw_combo_row_set_selected(cast(try row("Refresh in the background")), 0)
            XCTAssertEqual(app.window.backgroundRefresh.minutes, 0)
            XCTAssertNil(app.window.backgroundRefresh.nextWake)
            XCTAssertEqual(gtk_widget_is_sensitive(try row("Run in the background")), 0,
                           "running in the background means nothing with refresh off")
            Self.click(try row("Notify about new entries"), in: window)
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_is_sensitive(try! row("Notify even when the window is focused")) == 0 },
                          "a click on the row turns notifications off, and what depends on them is greyed out")
            Self.click(try row("Mark read as you scroll"), in: window)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.reading.scrollMarking.isOn }, "a click on the row turns it on at once")
            adw_combo_row_set_selected(cast(try row("Keep read entries")), 5)
            XCTAssertEqual(gtk_widget_is_sensitive(try row("Keep unread entries however old")), 0,
                           "nothing is removed when entries are kept forever")
            saveScreen(name: "preferences-window-changed")

            app.settings.flush()
            let reread = Preferences(settings: SettingsStore(path: app.settings.path))
            XCTAssertEqual(reread.refreshMinutes, 0)
            XCTAssertFalse(reread.notifiesNewEntries)
            XCTAssertEqual(reread.keepDays, 0)
            XCTAssertTrue(reread.marksReadOnScroll)
            XCTAssertNil(reread.retention.days)
        }
    }

    /// Follow System takes the desktop's light or dark style; Light and Dark hold whatever the
    /// desktop says; the window's own background shows it.
    func testTheStyleFollowsTheDesktopUnlessLightOrDarkIsChosen() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let desktop = g_settings_new("org.gnome.desktop.interface")!
            let manager = adw_style_manager_get_default()
            defer {
                g_settings_reset(desktop, "color-scheme")
                g_object_unref(desktop)
                app.window.preferences.style = .followSystem
            }
            let window = try Self.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(window)) }
            let style = try XCTUnwrap(Self.row(titled: "Style", in: window))
            XCTAssertEqual(Self.choices(style), ["Follow System", "Light", "Dark"])
            XCTAssertEqual(adw_style_manager_get_dark(manager), 0, "the desktop's default is light")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.backgroundIsDark(window) == false })

            g_settings_set_string(desktop, "color-scheme", "prefer-dark")
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_style_manager_get_dark(manager) != 0 }, "following the desktop's dark style")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.backgroundIsDark(window) == true })
            saveScreen(name: "preferences-window-dark")

            adw_combo_row_set_selected(cast(style), 1)
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_style_manager_get_dark(manager) == 0 }, "Light holds over the desktop's dark")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.backgroundIsDark(window) == false })
            g_settings_set_string(desktop, "color-scheme", "default")
            adw_combo_row_set_selected(cast(style), 2)
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_style_manager_get_dark(manager) != 0 }, "Dark holds over the desktop's light")
            app.settings.flush()
            XCTAssertEqual(Preferences(settings: SettingsStore(path: app.settings.path)).style, .dark, "and is kept")
        }
    }

    /// The language moved from the main menu into Preferences: choosing one switches the whole
    /// app at once, the preferences included, and is kept.
    func testChoosingALanguageSwitchesTheAppAndThePreferencesAtOnce() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            defer { app.window.switchLanguage(to: "") }
            let window = try Self.open(app, titled: "Preferences")
            defer { gtk_window_destroy(cast(window)) }
            let language = try XCTUnwrap(Self.row(titled: "Language", in: window))
            XCTAssertEqual(Self.choice(language), "System Default")
            let choices = Self.choices(language)
            XCTAssertEqual(choices.first, "System Default")
            XCTAssertTrue(choices.contains("Deutsch") && choices.contains("العربية"), "\(choices)")

            // libadwaita's own texts, its search's, stayed in English: German from libadwaita's
            // catalog, Arabic (which Debian's libadwaita lacks) from the app's.
            let search: [String: (button: String, none: String)] = ["Deutsch": ("Suchen", "Keine Ergebnisse gefunden"),
                                                                    "العربية": ("ابحث", "لا نتائج")]
            for (name, title, label, appName) in [("Deutsch", "Einstellungen", "Im Hintergrund aktualisieren", "Feedreader"),
                                                  ("العربية", "التفضيلات", "التحديث في الخلفية", "قارئ الموجزات")] {
                let row = try XCTUnwrap(Self.row(titled: Self.rowTitles(in: window)[1], in: window))
                adw_combo_row_set_selected(cast(row), guint(try XCTUnwrap(choices.firstIndex(of: name))))
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_window_get_title(cast(window)).map { String(cString: $0) } == title },
                              "the preferences read in \(name)")
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.row(titled: label, in: window) != nil }, "\(name): \(label)")
                XCTAssertEqual(gtk_window_get_title(cast(app.window.window)).map { String(cString: $0) }, appName, "the main window follows")
                let said = try XCTUnwrap(search[name])
                XCTAssertNotNil(descendant(of: window) { gtk_widget_get_tooltip_text($0).map { String(cString: $0) } == said.button },
                                "\(name): the search button says \(said.button)")
                XCTAssertNotNil(descendant(of: window) { widget in
                    isWidget(widget, a: adw_status_page_get_type()) && adw_status_page_get_title(OpaquePointer(widget)).map { String(cString: $0) } == said.none
                }, "\(name): a search that finds nothing says \(said.none)")
                XCTAssertNil(descendant(of: window) { gtk_widget_get_tooltip_text($0).map { String(cString: $0) } == "Search" }, "\(name): no English")
                saveScreen(name: "preferences-window-\(name)")
            }
            // Saved when the main loop is next idle, which the rebuilt page's frames can put off: at once here.
            app.settings.flush()
            XCTAssertEqual(Preferences(settings: SettingsStore(path: app.settings.path)).language, "ar")
        }
    }

    /// Opens the preferences with Ctrl+, and returns their window once it shows.
    @MainActor
    static func open(_ app: ReaderFixture, titled title: String) throws -> UnsafeMutablePointer<GtkWidget> {
        RealInput.key(windowTitle: app.title, "ctrl+comma")
        var found: UnsafeMutablePointer<GtkWidget>?
        XCTAssertTrue(GtkTestEnvironment.iterate {
            found = toplevel(titled: title)
            return found.map { gtk_widget_get_mapped($0) != 0 } ?? false
        }, "Ctrl+, opened the preferences")
        return try XCTUnwrap(found)
    }

    /// The titles of the rows, top to bottom.
    @MainActor
    static func rowTitles(in window: UnsafeMutablePointer<GtkWidget>) -> [String] {
        widgets(under: window, a: adw_preferences_row_get_type()).map { String(cString: adw_preferences_row_get_title(cast($0))) }
    }

    /// The row titled `title`, if it shows.
    @MainActor
    static func row(titled title: String, in window: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        widgets(under: window, a: adw_preferences_row_get_type()).first { String(cString: adw_preferences_row_get_title(cast($0))) == title }
    }

    /// What a combo row offers, in order.
    @MainActor
    static func choices(_ row: UnsafeMutablePointer<GtkWidget>) -> [String] {
        let model = adw_combo_row_get_model(cast(row))!
        return (0..<g_list_model_get_n_items(model)).map { String(cString: gtk_string_list_get_string(cast(model), $0)) }
    }

    /// The choice a combo row shows.
    @MainActor
    static func choice(_ row: UnsafeMutablePointer<GtkWidget>) -> String {
        choices(row)[Int(adw_combo_row_get_selected(cast(row)))]
    }

    /// Whether a switch row's switch is on.
    @MainActor
    static func isOn(_ row: UnsafeMutablePointer<GtkWidget>) -> Bool {
        widgets(under: row, a: gtk_switch_get_type()).first.map { gtk_switch_get_active(cast($0)) != 0 } ?? false
    }

    /// Clicks in the middle of `row`, with the pointer.
    @MainActor
    static func click(_ row: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) {
        let title = String(cString: gtk_window_get_title(cast(window)))
        // Scrolled into view first, as a reader scrolls to it: the page is taller than the window.
        if let scrolled = gtk_widget_get_ancestor(row, gtk_scrolled_window_get_type()),
           let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled)) {
            var bounds = graphene_rect_t()
            if gtk_widget_compute_bounds(row, scrolled, &bounds) != 0 {
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + Double(bounds.origin.y) - 12)
            }
        }
        // Measured in the window's own coordinates: on Wayland a surface point also carries the
        // window's place on the output.
        XCTAssertTrue(GtkTestEnvironment.iterate {
            var inWindow = graphene_rect_t()
            guard gtk_widget_compute_bounds(row, window, &inWindow) != 0 else { return false }
            return inWindow.origin.y >= 0 && inWindow.origin.y + inWindow.size.height <= Float(gtk_widget_get_height(window))
        }, "the row scrolled into view")
        RealInput.click(windowTitle: title, at: surfacePoint(of: row, in: window, x: Double(gtk_widget_get_width(row)) / 2,
                                                             y: Double(gtk_widget_get_height(row)) / 2))
    }

    /// Whether the window's background, as rendered, is dark; nil before it renders.
    @MainActor
    static func backgroundIsDark(_ window: UnsafeMutablePointer<GtkWidget>) -> Bool? {
        guard let (red, green, blue) = renderedPixel(window, x: 8, y: gtk_widget_get_height(window) - 8) else { return nil }
        return (Int(red) + Int(green) + Int(blue)) / 3 < 128
    }

    /// The red, green and blue of the pixel at (x, y) of `window` as GTK renders it; nil before it renders.
    @MainActor
    static func renderedPixel(_ window: UnsafeMutablePointer<GtkWidget>, x: Int32, y: Int32) -> (UInt8, UInt8, UInt8)? {
        let paintable = gtk_widget_paintable_new(window)!
        defer { g_object_unref(cast(paintable)) }
        let snapshot = gtk_snapshot_new()!
        let (width, height) = (gtk_widget_get_width(window), gtk_widget_get_height(window))
        guard width > x, height > y, y >= 0 else { return nil }
        gdk_paintable_snapshot(paintable, cast(snapshot), Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot), let renderer = gtk_native_get_renderer(cast(window)),
              let texture = gsk_renderer_render_texture(renderer, node, nil) else { return nil }
        gsk_render_node_unref(node)
        defer { g_object_unref(cast(texture)) }
        let stride = Int(gdk_texture_get_width(texture)) * 4
        var pixels = [UInt8](repeating: 0, count: stride * Int(gdk_texture_get_height(texture)))
        pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(stride)) }
        // Cairo's ARGB32 in memory order on a little-endian machine: blue, green, red, alpha.
        let offset = Int(y) * stride + Int(x) * 4
        return (pixels[offset + 2], pixels[offset + 1], pixels[offset])
    }

    /// Every widget of `type` under `root`, depth first.
    @MainActor
    static func widgets(under root: UnsafeMutablePointer<GtkWidget>, a type: GType) -> [UnsafeMutablePointer<GtkWidget>] {
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if isWidget(widget, a: type), gtk_widget_get_mapped(widget) != 0 { found.append(widget) }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        visit(root)
        return found
    }
}
