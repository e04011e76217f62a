import CAdw
import CGtk
import RefreshGtk

/// The frame Add Feed and Add Account share: a modal, fixed-size window over `parent` whose
/// header bar holds Cancel at the start and Add, with a spinner beside it, at the end.
@MainActor
struct AddDialogShell {
    let window: UnsafeMutablePointer<GtkWidget>
    let headerBar: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    let addButton: UnsafeMutablePointer<GtkWidget>
    let spinner: UnsafeMutablePointer<GtkWidget>

    /// `busyLabel` names the spinner for screen readers while the dialog works.
    init(title: String, width: Int32, over parent: UnsafeMutablePointer<GtkWidget>, busyLabel: String) {
        window = adw_window_new()
        gtk_window_set_title(cast(window), title)
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_default_size(cast(window), width, -1)
        gtk_window_set_resizable(cast(window), 0)
        gtk_window_set_destroy_with_parent(cast(window), 1)

        headerBar = adw_header_bar_new()!
        adw_header_bar_set_show_start_title_buttons(cast(headerBar), 0)
        adw_header_bar_set_show_end_title_buttons(cast(headerBar), 0)
        cancelButton = gtk_button_new_with_mnemonic(tr("_Cancel"))!
        addButton = gtk_button_new_with_mnemonic(tr("_Add"))!
        gtk_widget_add_css_class(addButton, "suggested-action")
        spinner = gtk_spinner_new()
        gtk_widget_set_visible(spinner, 0)
        cgtk_accessible_set_label(cast(spinner), busyLabel)
        adw_header_bar_pack_start(cast(headerBar), cancelButton)
        adw_header_bar_pack_end(cast(headerBar), addButton)
        adw_header_bar_pack_end(cast(headerBar), spinner)
    }

    /// Puts `content` below the header bar.
    func setContent(_ content: UnsafeMutablePointer<GtkWidget>) {
        adw_window_set_content(cast(window), Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [headerBar, content]))
    }
}
