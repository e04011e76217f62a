import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// GTK's and libadwaita's own texts after a live language switch: they kept gettext's language of
/// the start (English here), so a feed's Properties showed "Show Text" and "Apply" and the
/// shortcuts window "Search Shortcuts" and "Ctrl" in a German window. Debian's libadwaita has no
/// Arabic, so there its texts come from the app's catalog.
final class ToolkitTextsLanguageTests: XCTestCase {
    func testTheToolkitsOwnTextsFollowALiveSwitch() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            defer { app.window.switchLanguage(to: "") }
            let window = app.window.window
            let feedID = try XCTUnwrap(app.window.model.feeds.first?.id)
            let cases: [(language: String, show: String, hide: String, apply: String, search: String, control: String?)] = [
                ("de", "Text anzeigen", "Text verbergen", "Anwenden", "Nach Tastenkürzeln suchen", "Strg"),
                ("ar", "أظهر النص", "أخفِ النص", "طبّق", "اختصارات البحث", nil),
            ]
            for said in cases {
                // As the language row of Preferences switches it.
                g_action_group_activate_action(cast(window), "language", g_variant_new_string(said.language))

                g_action_group_activate_action(cast(window), "feed-properties", g_variant_new_int64(gint64(feedID)))
                var found: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    found = toplevel { $0 != window && Self.all(under: $0, a: adw_password_entry_row_get_type()).first != nil }
                    return found.map { gtk_widget_get_mapped($0) != 0 } ?? false
                }, "\(said.language): the feed's properties open")
                let properties = try XCTUnwrap(found)
                defer { gtk_window_destroy(cast(properties)) }
                GtkTestEnvironment.waitForFrames(of: properties)
                let password = try XCTUnwrap(Self.all(under: properties, a: adw_password_entry_row_get_type()).first)
                let toggle = try XCTUnwrap(Self.all(under: password, a: gtk_button_get_type()).first { button in
                    gtk_button_get_icon_name(cast(button)).map { String(cString: $0) } == "view-reveal-symbolic"
                }, "the password row's Show Text button")
                XCTAssertEqual(Self.tooltip(toggle), said.show, "\(said.language): the password's Show Text button")
                gtk_widget_activate(toggle)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.tooltip(toggle) == said.hide },
                              "\(said.language): shown, it offers to hide it: \(Self.tooltip(toggle) ?? "none")")
                // The Apply buttons of the rows shown (one shows once its row's text changes).
                let applies = Self.all(under: properties, a: adw_entry_row_get_type()).filter { gtk_widget_get_mapped($0) != 0 }.flatMap { row in
                    Self.all(under: row, a: gtk_button_get_type()).filter { gtk_widget_has_css_class($0, "suggested-action") != 0 }
                }
                XCTAssertGreaterThan(applies.count, 2, "the entry rows' Apply buttons")
                XCTAssertEqual(Set(applies.map(Self.tooltip)), [said.apply], "\(said.language): every entry row's Apply button")
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(properties, name: "toolkit-texts-properties-\(said.language)") })

                g_action_group_activate_action(cast(window), "show-help-overlay", nil)
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    found = toplevel { isWidget($0, a: gtk_shortcuts_window_get_type()) && gtk_widget_get_mapped($0) != 0 }
                    return found != nil
                }, "\(said.language): the shortcuts window opens")
                let shortcuts = try XCTUnwrap(found)
                defer { gtk_widget_set_visible(shortcuts, 0) }
                GtkTestEnvironment.waitForFrames(of: shortcuts)
                let search = try XCTUnwrap(Self.all(under: shortcuts, a: gtk_search_entry_get_type()).first)
                XCTAssertEqual(ObjectProperty.get(search, "placeholder-text", as: String.self), said.search,
                               "\(said.language): the shortcuts' search")
                let keys = Set(Self.all(under: shortcuts, a: gtk_label_get_type()).map { String(cString: gtk_label_get_text(cast($0))) })
                if let control = said.control {
                    XCTAssertTrue(keys.contains(control) && !keys.contains("Ctrl"), "\(said.language): the Control key is \(control)")
                }
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(shortcuts, name: "toolkit-texts-shortcuts-\(said.language)") })
            }
        }
    }

    /// Every widget of `type` at or under `root`, shown or not (an entry row's Apply button shows
    /// only once its text is changed).
    @MainActor
    static func all(under root: UnsafeMutablePointer<GtkWidget>, a type: GType) -> [UnsafeMutablePointer<GtkWidget>] {
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        Widgets.forEach(in: root) { if isWidget($0, a: type) { found.append($0) } }
        return found
    }

    @MainActor
    static func tooltip(_ widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        gtk_widget_get_tooltip_text(widget).map { String(cString: $0) }
    }
}
