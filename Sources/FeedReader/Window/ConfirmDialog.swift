import CGtk
import RefreshGtk

/// Asks before something that cannot be undone, such as removing a feed with its entries.
@MainActor
enum ConfirmDialog {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, heading: String, body: String,
                        confirm: String, onConfirm: @escaping @MainActor () -> Void) {
        let window = gtk_window_new()!
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_resizable(cast(window), 0)
        gtk_window_set_destroy_with_parent(cast(window), 1)
        gtk_window_set_title(cast(window), heading)
        let title = Widgets.label(heading, classes: ["title-2"], xalign: 0.5)
        let text = Widgets.label(body, xalign: 0.5)
        gtk_label_set_wrap(cast(text), 1)
        gtk_label_set_max_width_chars(cast(text), 40)
        let cancel = gtk_button_new_with_mnemonic(tr("_Cancel"))!
        let accept = gtk_button_new_with_mnemonic(confirm)!
        gtk_widget_add_css_class(accept, "destructive-action")
        let buttons = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [cancel, accept])
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [title, text, buttons])
        Widgets.setMargins(content, horizontal: 24, vertical: 24)
        gtk_window_set_child(cast(window), content)
        Signal.connect(cast(cancel), "clicked") { gtk_window_destroy(cast(window)) }
        Signal.connect(cast(accept), "clicked") {
            gtk_window_destroy(cast(window))
            onConfirm()
        }
        gtk_window_set_default_widget(cast(window), cancel)
        gtk_window_present(cast(window))
    }
}
