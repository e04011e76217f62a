import CGtk
import RefreshGtk

/// Every keyboard shortcut of the reader, listed once: the application's accelerators and the
/// single-key shortcuts come from ``table``, and the keyboard shortcuts window (the help overlay,
/// Ctrl+?), data/ui/gtk/help-overlay.ui, lists the same ids and keys with their titles, which
/// GtkApplication loads from the resource bundle itself (KeyboardTests checks the two agree).
@MainActor
enum Shortcuts {
    /// A shortcut: the id of its row in the help overlay, its keys (GTK accelerators,
    /// space-separated), the action it activates (nil where a widget handles the keys itself),
    /// and the text direction it is for (the arrow keys that follow it).
    struct Shortcut: Equatable {
        var id: String
        var keys: String
        var action: String?
        var direction = GTK_TEXT_DIR_NONE
    }

    static let table: [Shortcut] = [
        Shortcut(id: "show-help-overlay", keys: "<Control>question", action: "win.show-help-overlay"),
        Shortcut(id: "preferences", keys: "<Control>comma", action: "win.preferences"),
        Shortcut(id: "back", keys: "<Alt>Left", action: "win.back", direction: GTK_TEXT_DIR_LTR),
        Shortcut(id: "back-rtl", keys: "<Alt>Right", action: "win.back", direction: GTK_TEXT_DIR_RTL),
        Shortcut(id: "close", keys: "<Control>w", action: "window.close"),
        Shortcut(id: "quit", keys: "<Control>q", action: "app.quit"),
        Shortcut(id: "refresh", keys: "r F5 <Control>r", action: "win.refresh"),
        Shortcut(id: "add-feed", keys: "<Control>n", action: "win.add-feed"),
        Shortcut(id: "new-folder", keys: "<Shift><Control>n", action: "win.new-folder"),
        Shortcut(id: "next-feed", keys: "<Shift>j <Control>j", action: "win.next-feed"),
        Shortcut(id: "previous-feed", keys: "<Shift>k <Control>k", action: "win.previous-feed"),
        // The arrow pointing into the folder's row opens it: right, or left in a right-to-left language.
        Shortcut(id: "expand-folder", keys: "Right plus", action: nil, direction: GTK_TEXT_DIR_LTR),
        Shortcut(id: "expand-folder-rtl", keys: "Left plus", action: nil, direction: GTK_TEXT_DIR_RTL),
        Shortcut(id: "collapse-folder", keys: "Left minus", action: nil, direction: GTK_TEXT_DIR_LTR),
        Shortcut(id: "collapse-folder-rtl", keys: "Right minus", action: nil, direction: GTK_TEXT_DIR_RTL),
        Shortcut(id: "next-entry", keys: "j", action: "win.next-entry"),
        Shortcut(id: "previous-entry", keys: "k", action: "win.previous-entry"),
        Shortcut(id: "page-or-next-unread", keys: "space", action: "win.page-or-next-unread"),
        Shortcut(id: "open-in-browser", keys: "o", action: "win.open-in-browser"),
        Shortcut(id: "toggle-full-article", keys: "f", action: "win.toggle-full-article"),
        Shortcut(id: "open-entry", keys: "Return", action: nil),
        Shortcut(id: "toggle-read", keys: "m", action: "win.toggle-read"),
        Shortcut(id: "toggle-star", keys: "s", action: "win.toggle-star"),
        Shortcut(id: "label-entry", keys: "l", action: "win.label-selected-entry"),
        Shortcut(id: "show-all", keys: "<Control>1", action: "win.show-all"),
        Shortcut(id: "show-unread", keys: "<Control>2", action: "win.show-unread"),
        Shortcut(id: "search", keys: "<Control>f", action: "win.search"),
        Shortcut(id: "entry-menu", keys: "<Shift>F10 Menu", action: "win.entry-menu"),
        Shortcut(id: "zoom-in", keys: "<Control>plus <Control>equal", action: "win.zoom-in"),
        Shortcut(id: "zoom-out", keys: "<Control>minus", action: "win.zoom-out"),
        Shortcut(id: "zoom-reset", keys: "<Control>0", action: "win.zoom-reset"),
    ]

    /// The help overlay's file under the application's resource base path, where GtkApplication looks.
    static let overlayFile = "gtk/help-overlay.ui"

    /// Of the shortcuts for the current text direction, the keys that GTK treats as accelerators,
    /// per action, and the single keys (letters, Space) that act only while no text field has the focus.
    static func split(_ shortcuts: [Shortcut]) -> (accelerators: [(action: String, keys: [String])], singleKeys: [KeyShortcuts.Key]) {
        let direction = gtk_widget_get_default_direction()
        var accelerators: [(action: String, keys: [String])] = []
        var singleKeys: [KeyShortcuts.Key] = []
        for shortcut in shortcuts where shortcut.direction == GTK_TEXT_DIR_NONE || shortcut.direction == direction {
            guard let action = shortcut.action else { continue }
            var keys: [String] = []
            for accelerator in shortcut.keys.split(separator: " ").map(String.init) {
                var keyval: guint = 0
                var modifiers = GdkModifierType(0)
                guard gtk_accelerator_parse(accelerator, &keyval, &modifiers) != 0 else { continue }
                let typed = gdk_keyval_to_unicode(keyval) != 0
                if typed, modifiers.rawValue & ~GDK_SHIFT_MASK.rawValue == 0 {
                    // Shift+j arrives as J.
                    let arriving = modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0 ? gdk_keyval_to_upper(keyval) : keyval
                    singleKeys.append(KeyShortcuts.Key(keyval: arriving, action: action))
                } else {
                    keys.append(accelerator)
                }
            }
            if !keys.isEmpty { accelerators.append((action, keys)) }
        }
        return (accelerators, singleKeys)
    }

    /// Gives `application` the table's accelerators.
    static func installAccelerators(in application: UnsafeMutablePointer<GtkApplication>) {
        for (action, keys) in split(table).accelerators {
            withCStringArray(keys) { gtk_application_set_accels_for_action(application, action, $0) }
        }
    }

    /// Whether an overlay of ours replaced GtkApplication's, which it translates through gettext
    /// in the language the process started in.
    private static var overlayReplaced = false

    /// Gives `window` a help overlay in the current language: GtkApplication's own while the
    /// system's language is spoken, else one built again from the same file, translated through
    /// the app's catalogs.
    static func buildOverlay(of window: UnsafeMutablePointer<GtkWidget>) {
        guard RefreshLocalization.language != nil || overlayReplaced else { return }
        overlayReplaced = true
        // GTK keeps the window (a toplevel) after the builder goes; the main window that takes it
        // as its help overlay destroys it with itself, or when another replaces it.
        let overlay: UnsafeMutablePointer<GtkWidget> = BuilderFile(overlayFile).object("help_overlay")
        gtk_application_window_set_help_overlay(cast(window), cast(overlay))
    }
}
