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
        guard let menu = gtk_menu_button_get_menu_model(cast(button)),
              let section = g_menu_model_get_item_link(menu, 0, "section") else { return }
        defer { g_object_unref(cast(section)) }
        // A menu model's items are fixed once made: the item is made again with its new label.
        g_menu_remove(OpaquePointer(section), 0)
        g_menu_insert(OpaquePointer(section), 0, label, "win.mark-all-read")
    }
}
