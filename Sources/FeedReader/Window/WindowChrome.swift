import CAdw
import CGtk
import RefreshGtk

/// The header bars' titles, controls and main menu, the shortcuts window and the window's title,
/// in the current language.
@MainActor
struct WindowChrome {
    let window: UnsafeMutablePointer<GtkWidget>
    let application: UnsafeMutablePointer<GtkApplication>
    let layout: WindowLayout

    /// Names everything in the current language; the back key follows the text direction.
    func retranslate() {
        gtk_window_set_title(cast(window), tr("Feed Reader"))
        adw_window_title_set_title(layout.sidebarTitle, tr("Feed Reader"))
        Widgets.name(layout.addButton, tr("Add Feed"))
        Widgets.name(layout.listAddButton, tr("Add Feed"))
        Widgets.name(layout.mainMenuButton, tr("Main Menu"))
        Widgets.name(layout.listBackButton, tr("Back"))
        Widgets.name(layout.articleBackButton, tr("Back"))
        let menu = MainMenu.make()
        gtk_menu_button_set_menu_model(cast(layout.mainMenuButton), cast(menu))
        g_object_unref(cast(menu))
        Shortcuts.installAccelerators(in: application)
        Shortcuts.retranslateOverlay(of: window)
    }
}
