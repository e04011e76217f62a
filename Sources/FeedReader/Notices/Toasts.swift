import CAdw
import CGtk
import RefreshGtk

/// Short notices at the foot of the window (AdwToastOverlay): what was just done, with a button
/// to undo or retry it, and what went wrong, naming what it went wrong with.
@MainActor
final class Toasts {
    private let overlay: OpaquePointer
    /// The toast up now, as long as it is.
    private var current: OpaquePointer?
    /// The text of the toast up now; nil when none is.
    private(set) var message: String?
    /// How long a toast stays, in seconds.
    var timeout: UInt32 = 5

    /// The overlay's: a notice said after the window closed (a task resuming late) is dropped,
    /// so whoever says it needs no check of its own.
    private let life: WidgetLife

    init(overlay: OpaquePointer) {
        self.overlay = overlay
        life = WidgetLife(cast(overlay))
    }

    /// Shows `text`, replacing any toast up, with a button labelled `button` (a mnemonic such as
    /// "_Undo") that runs `action`.
    func show(_ text: String, button: String? = nil, action: (@MainActor () -> Void)? = nil) {
        guard life.isAlive else { return }
        let toast = adw_toast_new(text)!
        adw_toast_set_timeout(toast, timeout)
        // A newer notice replaces the one up rather than waiting for it to go.
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        if let button, let action {
            adw_toast_set_button_label(toast, button)
            Signal.connect(cast(toast), "button-clicked") { action() }
        }
        Signal.connect(cast(toast), "dismissed") { [weak self] in
            guard let self, self.current == toast else { return }
            self.current = nil
            self.message = nil
        }
        current = toast
        message = text
        adw_toast_overlay_add_toast(overlay, toast)
        nameCloseButtons()
    }

    /// libadwaita 1.2 leaves the toast's close button (an icon) without a name, so a screen
    /// reader would say only "button": it is named here, on the toast widgets the overlay holds.
    private func nameCloseButtons() {
        var child = gtk_widget_get_first_child(cast(overlay))
        while let widget = child {
            if String(cString: g_type_name_from_instance(cast(widget))) == "AdwToastWidget" { nameCloseButton(in: widget) }
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    private func nameCloseButton(in toast: UnsafeMutablePointer<GtkWidget>) {
        Widgets.forEach(in: toast) { widget in
            if g_type_check_instance_is_a(cast(widget), gtk_button_get_type()) != 0,
               let icon = gtk_button_get_icon_name(cast(widget)), String(cString: icon) == "window-close-symbolic" {
                Widgets.name(widget, tr("Close"))
            }
        }
    }
}
