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
}
