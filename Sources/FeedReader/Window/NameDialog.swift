import CAdw
import CGtk
import Foundation
import RefreshGtk

/// Asks for a name, such as a new folder's, or an address: a message dialog holding a named
/// entry; its button is enabled once what is typed is valid, and Enter chooses it.
@MainActor
enum NameDialog {
    /// The dialog's answers, as AdwMessageDialog names its responses.
    enum Response {
        static let cancel = "cancel"
        static let accept = "accept"
    }

    /// Shows the dialog over `parent` with `text` typed in and `placeholder` shown while it is
    /// empty; `onName` gets the trimmed name once `isValid` accepts it (any text by default). An
    /// address (`isAddress`) reads left to right in every language. Returns the dialog.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, title: String, text: String = "", placeholder: String,
                        confirm: String, isAddress: Bool = false, isValid: @escaping (String) -> Bool = { !$0.isEmpty },
                        onName: @escaping @MainActor (String) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let dialog = adw_message_dialog_new(cast(parent), title, nil)!
        gtk_window_set_title(cast(dialog), title)
        let entry = gtk_entry_new()!
        gtk_editable_set_text(cast(entry), text)
        gtk_entry_set_placeholder_text(cast(entry), placeholder)
        gtk_entry_set_activates_default(cast(entry), 1)
        cgtk_accessible_set_label(cast(entry), placeholder)
        if isAddress {
            gtk_entry_set_input_purpose(cast(entry), GTK_INPUT_PURPOSE_URL)
            gtk_widget_set_direction(entry, GTK_TEXT_DIR_LTR)
        }
        adw_message_dialog_set_extra_child(cast(dialog), entry)
        adw_message_dialog_add_response(cast(dialog), Response.cancel, tr("_Cancel"))
        adw_message_dialog_add_response(cast(dialog), Response.accept, confirm)
        adw_message_dialog_set_response_appearance(cast(dialog), Response.accept, ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(cast(dialog), Response.accept)
        adw_message_dialog_set_close_response(cast(dialog), Response.cancel)
        func name() -> String { String(cString: gtk_editable_get_text(cast(entry))).trimmingCharacters(in: .whitespacesAndNewlines) }
        let updateButton = { adw_message_dialog_set_response_enabled(cast(dialog), Response.accept, isValid(name()).gboolean) }
        updateButton()
        Signal.connect(cast(entry), "changed") { updateButton() }
        Signal.connectObjectOrNil(cast(dialog), "response") { response in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == Response.accept else { return }
            let chosen = name()
            if isValid(chosen) { onName(chosen) }
        }
        gtk_window_set_focus(cast(dialog), entry)
        gtk_window_present(cast(dialog))
        return dialog
    }
}
