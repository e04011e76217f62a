import AppSignals
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

    static let file = "dialogs/confirm-dialog.ui"

    /// Shows the question over `parent`; `onConfirm` runs only when `confirm` is chosen. Returns the dialog.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, heading: String, body: String,
                        confirm: String, onConfirm: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWidget> {
        // A window from a builder is GTK's until it is destroyed, as it closes.
        let dialog: UnsafeMutablePointer<GtkWidget> = BuilderFile(Self.file).object("dialog")
        gtk_window_set_transient_for(cast(dialog), cast(parent))
        gtk_window_set_title(cast(dialog), heading)
        adw_message_dialog_set_heading(cast(dialog), heading)
        adw_message_dialog_set_body(cast(dialog), body)
        adw_message_dialog_set_response_label(cast(dialog), Response.cancel, tr("_Cancel"))
        adw_message_dialog_set_response_label(cast(dialog), Response.confirm, confirm)
        Signal.connectObjectOrNil(cast(dialog), "response") { response in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == Response.confirm else { return }
            onConfirm()
        }
        gtk_window_present(cast(dialog))
        return dialog
    }
}
