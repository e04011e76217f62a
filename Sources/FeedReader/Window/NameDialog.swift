import CGtk
import Foundation
import RefreshGtk

/// Asks for a name, such as a new folder's; the button is enabled once something is typed.
@MainActor
enum NameDialog {
    /// Shows the dialog over `parent` with `text` typed in; `onName` gets the trimmed name.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, title: String, text: String = "", confirm: String,
                        onName: @escaping @MainActor (String) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new()!
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_resizable(cast(window), 0)
        gtk_window_set_destroy_with_parent(cast(window), 1)
        gtk_window_set_title(cast(window), title)
        let bar = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(cast(bar), 0)
        let cancel = gtk_button_new_with_mnemonic(tr("_Cancel"))!
        let accept = gtk_button_new_with_mnemonic(confirm)!
        gtk_widget_add_css_class(accept, "suggested-action")
        gtk_header_bar_pack_start(cast(bar), cancel)
        gtk_header_bar_pack_end(cast(bar), accept)
        gtk_window_set_titlebar(cast(window), bar)
        let entry = gtk_entry_new()!
        gtk_editable_set_text(cast(entry), text)
        gtk_entry_set_activates_default(cast(entry), 1)
        cgtk_accessible_set_label(cast(entry), title)
        Widgets.setMargins(entry, horizontal: 18, vertical: 18)
        gtk_widget_set_size_request(entry, 320, -1)
        gtk_window_set_child(cast(window), entry)
        gtk_window_set_default_widget(cast(window), accept)
        func name() -> String { String(cString: gtk_editable_get_text(cast(entry))).trimmingCharacters(in: .whitespacesAndNewlines) }
        gtk_widget_set_sensitive(accept, (!name().isEmpty).gboolean)
        Signal.connect(cast(entry), "changed") { gtk_widget_set_sensitive(accept, (!name().isEmpty).gboolean) }
        Signal.connect(cast(cancel), "clicked") { gtk_window_destroy(cast(window)) }
        Signal.connect(cast(accept), "clicked") {
            let chosen = name()
            guard !chosen.isEmpty else { return }
            gtk_window_destroy(cast(window))
            onName(chosen)
        }
        gtk_window_present(cast(window))
        return window
    }
}
