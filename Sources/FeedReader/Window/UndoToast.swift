import CGtk
import RefreshGtk

/// A message at the bottom of the window with an Undo button, gone after a few seconds.
@MainActor
final class UndoToast {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    let undoButton: UnsafeMutablePointer<GtkWidget>
    /// How long the toast stays, in seconds.
    var duration = 5.0
    private var undo: (@MainActor () -> Void)?
    /// Increases with every toast, so the timer of an older one does not hide a newer one.
    private var generation = 0

    init() {
        label = Widgets.label("")
        undoButton = gtk_button_new_with_mnemonic("")!
        let box = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18, [label, undoButton])
        gtk_widget_add_css_class(box, "app-notification")
        widget = gtk_revealer_new()
        gtk_revealer_set_transition_type(cast(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(cast(widget), box)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(widget, 18)
        gtk_widget_set_can_target(widget, 0)
        Signal.connect(cast(undoButton), "clicked") { [weak self] in
            let undo = self?.undo
            self?.hide()
            undo?()
        }
        retranslate()
    }

    /// Sets the button's text in the current language.
    func retranslate() {
        gtk_button_set_label(cast(undoButton), tr("_Undo"))
    }

    /// The message shown, or nil when no toast is up.
    var message: String? {
        gtk_revealer_get_reveal_child(cast(widget)) != 0 ? String(cString: gtk_label_get_text(cast(label))) : nil
    }

    /// Shows `text` with an Undo button that runs `undo`, replacing any toast already up.
    func show(_ text: String, undo: @escaping @MainActor () -> Void) {
        self.undo = undo
        generation += 1
        let generation = generation
        gtk_label_set_text(cast(label), text)
        gtk_widget_set_can_target(widget, 1)
        gtk_revealer_set_reveal_child(cast(widget), 1)
        MainThread.after(duration) { [weak self] in
            if self?.generation == generation { self?.hide() }
        }
    }

    func hide() {
        undo = nil
        gtk_revealer_set_reveal_child(cast(widget), 0)
        // A hidden toast must not catch clicks meant for the list under it.
        gtk_widget_set_can_target(widget, 0)
    }
}
