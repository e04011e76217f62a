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
    struct Key {
        var keyval: guint
        var action: String
    }

    private final class Table {
        let keys: [Key]
        init(_ keys: [Key]) { self.keys = keys }
    }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<Table>.fromOpaque(data).release()
    }

    static func install(on window: UnsafeMutablePointer<GtkWidget>, _ keys: [Key]) {
        let controller = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        let trampoline: @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { controller, keyval, _, state, data in
            guard let data, let controller else { return 0 }
            let modifiers = state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
            guard modifiers == 0 else { return 0 }
            let keys = Unmanaged<Table>.fromOpaque(data).takeUnretainedValue().keys
            guard let key = keys.first(where: { $0.keyval == keyval }),
                  let widget = gtk_event_controller_get_widget(controller) else { return 0 }
            if let focus = gtk_root_get_focus(gtk_widget_get_root(widget)),
               g_type_check_instance_is_a(cast(focus), gtk_editable_get_type()) != 0 { return 0 }
            return gtk_widget_activate_action_variant(widget, key.action, nil)
        }
        let table = Unmanaged.passRetained(Table(keys)).toOpaque()
        g_signal_connect_data(cast(controller), "key-pressed", unsafeBitCast(trampoline, to: GCallback.self), table, release, GConnectFlags(0))
        gtk_widget_add_controller(window, controller)
    }
}
