import CAdw
import CGtk
import RefreshGtk

/// The frame Add Feed and Add Account share: a modal, fixed-size window over `parent` whose
/// header bar holds Cancel at the start and Add, with a spinner beside it, at the end; Cancel and
/// Escape close it, Return in a field activates Add.
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

        let escape = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(cast(escape), gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                            gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, cast(escape))
        Signal.connect(cast(cancelButton), "clicked") { [window] in gtk_window_destroy(cast(window)) }
    }

    /// A label for what went wrong, under the fields: wrapped, selectable, hidden until there is something to say.
    static func messageLabel() -> UnsafeMutablePointer<GtkWidget> {
        let message = Widgets.label("", classes: ["error"])
        gtk_label_set_wrap(cast(message), 1)
        gtk_label_set_selectable(cast(message), 1)
        gtk_widget_set_visible(message, 0)
        return message
    }

    /// Puts `content`, with the dialogs' margins, below the header bar and gives `focus` the
    /// keyboard, so typing goes there from the start rather than to the header bar's first button.
    func setContent(_ content: UnsafeMutablePointer<GtkWidget>, focus: UnsafeMutablePointer<GtkWidget>) {
        Widgets.setMargins(content, horizontal: 18, vertical: 18)
        adw_window_set_content(cast(window), Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [headerBar, content]))
        gtk_window_set_default_widget(cast(window), addButton)
        gtk_window_set_focus(cast(window), focus)
    }

    /// Shows the spinner while the dialog works, Add unavailable meanwhile.
    func setBusy(_ busy: Bool) {
        gtk_widget_set_sensitive(addButton, (!busy).gboolean)
        gtk_widget_set_visible(spinner, busy.gboolean)
        gtk_spinner_set_spinning(cast(spinner), busy.gboolean)
    }

    func close() { gtk_window_destroy(cast(window)) }
}
