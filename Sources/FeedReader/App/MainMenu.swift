import CGtk
import RefreshGtk

/// The main menu as app/main-menu.ui has it: its sections, their actions and their labels,
/// in the language chosen when it is loaded.
@MainActor
enum MainMenu {
    static let file = "app/main-menu.ui"

    /// The file's menu in the current language; the caller owns it.
    static func make() -> OpaquePointer {
        let file = BuilderFile(file)
        return withExtendedLifetime(file) {
            let menu = file.opaque("main_menu")
            // The builder's reference ends with it.
            g_object_ref(cast(menu))
            return menu
        }
    }

    /// Names the item marking entries read in `button`'s menu `label`, for what the list shows.
    static func setMarkReadLabel(_ label: String, in button: UnsafeMutablePointer<GtkWidget>) {
        let action = "win.mark-all-read"
        guard let menu = gtk_menu_button_get_menu_model(cast(button)),
              let section = g_menu_model_get_item_link(menu, 0, "section") else { return }
        defer { g_object_unref(cast(section)) }
        guard let index = (0..<g_menu_model_get_n_items(section)).first(where: { actionName(of: $0, in: section) == action }) else { return }
        // A menu model's items are fixed once made: the item is made again with its new label.
        g_menu_remove(OpaquePointer(section), index)
        g_menu_insert(OpaquePointer(section), index, label, action)
    }

    private static func actionName(of item: Int32, in menu: UnsafeMutablePointer<GMenuModel>) -> String? {
        guard let value = g_menu_model_get_item_attribute_value(menu, item, "action", nil) else { return nil }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }
}
