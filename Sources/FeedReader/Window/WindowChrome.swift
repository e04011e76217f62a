import CAdw
import CGtk
import RefreshGtk

/// The window's title, icon and menus: the title follows the sidebar's (views/window.ui, whose texts
/// follow the language), the main menu and the shortcuts window are built from their files, in
/// the current language, with the accelerators from their table.
@MainActor
struct WindowChrome {
    let window: UnsafeMutablePointer<GtkWidget>
    let application: UnsafeMutablePointer<GtkApplication>
    let layout: WindowLayout

    init(window: UnsafeMutablePointer<GtkWidget>, application: UnsafeMutablePointer<GtkApplication>, layout: WindowLayout) {
        (self.window, self.application, self.layout) = (window, application, layout)
        g_object_bind_property(cast(layout.sidebarTitle), "title", cast(window), "title", G_BINDING_SYNC_CREATE)
        gtk_window_set_icon_name(cast(window), FeedReaderApp.applicationID)
        // libadwaita's own texts in entry rows, wherever they are, in the app's language.
        AdwaitaTexts.followEntryRows()
        buildMenus()
    }

    /// Builds the main menu and the shortcuts window again in the current language; the back key
    /// follows the text direction.
    func buildMenus() {
        let menu = MainMenu.make()
        gtk_menu_button_set_menu_model(cast(layout.mainMenuButton), cast(menu))
        g_object_unref(cast(menu))
        Shortcuts.installAccelerators(in: application)
        Shortcuts.buildOverlay(of: window)
    }
}
