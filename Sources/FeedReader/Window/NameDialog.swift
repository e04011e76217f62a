import AppSignals
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

    static let file = "dialogs/name-dialog.ui"

    /// Shows the dialog over `parent` with `text` typed in and `placeholder` shown while it is
    /// empty; `onName` gets the trimmed name once `isValid` accepts it (any text by default). An
    /// address (`isAddress`) reads left to right in every language. Returns the dialog.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, title: String, text: String = "", placeholder: String,
                        confirm: String, isAddress: Bool = false, isValid: @escaping (String) -> Bool = { !$0.isEmpty },
                        onName: @escaping @MainActor (String) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let file = BuilderFile(Self.file)
        let dialog: UnsafeMutablePointer<GtkWidget> = file.object("dialog")
        let entry: UnsafeMutablePointer<GtkWidget> = file.object("entry")
        gtk_window_set_transient_for(cast(dialog), cast(parent))
        gtk_window_set_title(cast(dialog), title)
        adw_message_dialog_set_heading(cast(dialog), title)
        gtk_editable_set_text(cast(entry), text)
        gtk_entry_set_placeholder_text(cast(entry), placeholder)
        cgtk_accessible_set_label(cast(entry), placeholder)
        if isAddress {
            gtk_entry_set_input_purpose(cast(entry), GTK_INPUT_PURPOSE_URL)
            gtk_widget_set_direction(entry, GTK_TEXT_DIR_LTR)
        }
        adw_message_dialog_set_response_label(cast(dialog), Response.cancel, tr("_Cancel"))
        adw_message_dialog_set_response_label(cast(dialog), Response.accept, confirm)
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
