import CGtk
import RefreshGtk

/// The right click that opens a row's context menu.
@MainActor
enum MenuClick {
    /// Adds to `widget` a right-click gesture that calls `open` with the click's point, claiming
    /// the click: the list's row around `widget` would take the press as its own too and stay
    /// drawn pressed, since the menu that opens takes the release (GTK 4.8).
    static func add(to widget: UnsafeMutablePointer<GtkWidget>, _ open: @escaping @MainActor (Double, Double) -> Void) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(cast(click), guint(GDK_BUTTON_SECONDARY))
        Signal.connectClickAt(cast(click), "pressed") { x, y in
            _ = gtk_gesture_set_state(cast(click), GTK_EVENT_SEQUENCE_CLAIMED)
            open(x, y)
        }
        gtk_widget_add_controller(widget, cast(click))
    }
}
