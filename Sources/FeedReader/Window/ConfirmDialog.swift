import CAdw
import CGtk
import RefreshGtk

/// Asks before something that cannot be undone, such as removing a feed with its entries: a
/// message dialog whose safe answer, Cancel, is the default, and whose other answer is red.
@MainActor
enum ConfirmDialog {
    /// The dialog's answers, as AdwMessageDialog names its responses.
    enum Response {
        static let cancel = "cancel"
        static let confirm = "confirm"
    }

    /// Shows the question over `parent`; `onConfirm` runs only when `confirm` is chosen. Returns the dialog.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, heading: String, body: String,
                        confirm: String, onConfirm: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let dialog = adw_message_dialog_new(cast(parent), heading, body)!
        gtk_window_set_title(cast(dialog), heading)
        adw_message_dialog_add_response(cast(dialog), Response.cancel, tr("_Cancel"))
        adw_message_dialog_add_response(cast(dialog), Response.confirm, confirm)
        adw_message_dialog_set_response_appearance(cast(dialog), Response.confirm, ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(cast(dialog), Response.cancel)
        adw_message_dialog_set_close_response(cast(dialog), Response.cancel)
        Signal.connectObjectOrNil(cast(dialog), "response") { response in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == Response.confirm else { return }
            onConfirm()
        }
        gtk_window_present(cast(dialog))
        return dialog
    }
}
