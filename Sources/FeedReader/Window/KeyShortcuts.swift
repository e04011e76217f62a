import AppSignals
import CGtk
import RefreshGtk

/// Single-key shortcuts (such as `o`, `j` or Space) that never act while typing.
///
/// They listen in the window's capture phase, so the list's own Space or the article's arrow
/// keys do not take them first, but give way whenever the focus is in a text field (the search
/// entry); dialogs are windows of their own and never see them. Shortcuts with Ctrl stay
/// application accelerators.
@MainActor
enum KeyShortcuts {
    /// A key without Ctrl or Alt and the window action it activates ("win.name").
    struct Key: Equatable {
        var keyval: guint
        var action: String
    }

    /// Listens for `keys` on `window`; returns the controller, owned by the window.
    @discardableResult
    static func install(on window: UnsafeMutablePointer<GtkWidget>, _ keys: [Key]) -> OpaquePointer {
        let controller = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        Signal.connectKeyPressed(cast(controller), "key-pressed") { keyval, _, state in
            let modifiers = state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
            guard modifiers == 0, let key = keys.first(where: { $0.keyval == keyval }) else { return false }
            if let focus = gtk_root_get_focus(gtk_widget_get_root(window)),
               g_type_check_instance_is_a(cast(focus), gtk_editable_get_type()) != 0 { return false }
            return gtk_widget_activate_action_variant(window, key.action, nil) != 0
        }
        gtk_widget_add_controller(window, controller)
        return controller
    }
}
