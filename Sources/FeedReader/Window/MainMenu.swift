import CGtk
import RefreshGtk

/// The main menu as widgets/main-menu.ui arranges it (its sections and their actions), each item
/// labelled in the current language.
@MainActor
enum MainMenu {
    static let file = "widgets/main-menu.ui"

    /// Each item's label, by the action the file names it with.
    static var labels: [String: String] {
        [
            "win.mark-all-read": tr("_Mark All as Read"),
            "win.new-folder": tr("New _Folder…"),
            "win.import-subscriptions": tr("_Import Subscriptions…"),
            "win.export-subscriptions": tr("_Export Subscriptions…"),
            "win.preferences": tr("_Preferences"),
            "win.show-help-overlay": tr("_Keyboard Shortcuts"),
            "win.about": tr("_About Feed Reader"),
        ]
    }

    /// A new menu of the file's sections and actions with today's labels; the caller owns it.
    static func make() -> OpaquePointer {
        // The builder holds the only reference to the file's menu: it lives while the menu is read.
        let ui = BuilderFile(file)
        defer { withExtendedLifetime(ui) {} }
        let layout: UnsafeMutablePointer<GMenuModel> = ui.object("main_menu")
        let labels = labels
        let menu = g_menu_new()!
        for index in 0..<g_menu_model_get_n_items(layout) {
            guard let layoutSection = g_menu_model_get_item_link(layout, index, "section") else { continue }
            let section = g_menu_new()!
            for item in 0..<g_menu_model_get_n_items(layoutSection) {
                guard let value = g_menu_model_get_item_attribute_value(layoutSection, item, "action", nil) else { continue }
                let action = String(cString: g_variant_get_string(value, nil))
                g_variant_unref(value)
                guard let label = labels[action] else { preconditionFailure("\(file): no label for \(action)") }
                g_menu_append(section, label, action)
            }
            g_object_unref(cast(layoutSection))
            g_menu_append_section(menu, nil, cast(section))
            g_object_unref(cast(section))
        }
        return menu
    }
}
