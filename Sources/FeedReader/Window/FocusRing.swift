import AppSignals
import CGtk
import RefreshGtk

/// Focus rings once the person navigates by keyboard, not before (GTK's focus-visible).
///
/// GTK shows them as soon as any key event reaches the window. Launched by a key (Enter in
/// GNOME Shell's search, a launcher's shortcut), the new window receives that key's release,
/// its press having gone to the launcher, and opened with a ring on a widget nobody moved to.
/// So the window opens without one, and a ring that turns on before any key was pressed in the
/// window is turned off again; the first key pressed hands focus-visible back to GTK.
@MainActor
enum FocusRing {
    static func followKeyboard(of window: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_set_focus_visible(cast(window), 0)
        let controller = gtk_event_controller_key_new()!
        // Capture: the press is seen before any widget may take it.
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        final class State { var pressed = false }
        let state = State()
        let life = WidgetLife(window)
        Signal.connectKeyPressed(cast(controller), "key-pressed") { _, _, _ in
            state.pressed = true
            return false
        }
        gtk_widget_add_controller(window, controller)
        Signal.connectIgnoringArgument(cast(window), "notify::focus-visible") {
            guard !state.pressed, gtk_window_get_focus_visible(cast(window)) != 0 else { return }
            // GTK may turn it on before its controllers see the key: a press arriving in the same
            // event is counted by the time the main loop is idle again.
            MainThread.after(0) {
                if life.isAlive, !state.pressed { gtk_window_set_focus_visible(cast(window), 0) }
            }
        }
    }
}
