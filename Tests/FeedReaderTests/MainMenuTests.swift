import CGtk
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The main menu from app/main-menu.ui: GNOME's two sections, every item labelled in the
/// current language and leading to an action the window has.
final class MainMenuTests: XCTestCase {
    func testTheMenuHasTheReadersActionsThenTheAppsAndFollowsALanguageSwitch() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let button = try XCTUnwrap(FolderTests.mainMenuButton(of: app))
            XCTAssertEqual(Self.sections(of: button).map { $0.map(\.action) }, [
                ["win.add-feed", "win.mark-all-read", "win.new-folder", "win.import-subscriptions", "win.export-subscriptions", "win.show-hidden"],
                ["win.preferences", "win.show-help-overlay", "win.about"],
            ])
            for item in Self.sections(of: button).joined() {
                let name = String(item.action.dropFirst("win.".count))
                XCTAssertNotNil(g_action_map_lookup_action(cast(app.window.window), name), "the window has \(item.action)")
            }
            XCTAssertEqual(Self.sections(of: button).last?.last?.label, "_About Feed Reader")

            defer { app.window.switchLanguage(to: "") }
            app.window.switchLanguage(to: "de")
            let german = Self.sections(of: button).joined().map(\.label)
            XCTAssertEqual(german.last, "I_nfo zu Feedreader")
            XCTAssertFalse(german.contains("_Preferences"), "\(german)")
        }
    }

    /// The items of each section of `button`'s menu, in order.
    @MainActor
    private static func sections(of button: UnsafeMutablePointer<GtkWidget>) -> [[(label: String, action: String)]] {
        guard let menu = gtk_menu_button_get_menu_model(cast(button)) else { return [] }
        return (0..<g_menu_model_get_n_items(menu)).map { index in
            guard let section = g_menu_model_get_item_link(menu, index, "section") else { return [] }
            defer { g_object_unref(cast(section)) }
            return (0..<g_menu_model_get_n_items(section)).map { item in
                (attribute(section, item, "label"), attribute(section, item, "action"))
            }
        }
    }

    @MainActor
    private static func attribute(_ menu: UnsafeMutablePointer<GMenuModel>, _ item: Int32, _ name: String) -> String {
        guard let value = g_menu_model_get_item_attribute_value(menu, item, name, nil) else { return "" }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }
}
