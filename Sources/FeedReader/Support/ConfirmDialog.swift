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

    /// The questions asked, each a file with its heading and answers.
    enum Question: String {
        case removeFeed = "subscriptions/remove-feed-dialog.ui"
        case deleteFolder = "subscriptions/delete-folder-dialog.ui"
        case deleteLabel = "labels/delete-label-dialog.ui"
        case removeAccount = "accounts/remove-account-dialog.ui"
    }

    /// Asks `question` over `parent`, `body` saying what goes; `onConfirm` runs only when the red
    /// answer is chosen. Returns the dialog.
    @discardableResult
    static func present(_ question: Question, over parent: UnsafeMutablePointer<GtkWidget>, body: String,
                        onConfirm: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWidget> {
        // A window from a builder is GTK's until it is destroyed, as it closes.
        let dialog = BuilderFile(question.rawValue).widget("dialog")
        gtk_window_set_transient_for(cast(dialog), cast(parent))
        adw_message_dialog_set_body(cast(dialog), body)
        Signal.connectObjectOrNil(cast(dialog), "response") { response in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == Response.confirm else { return }
            onConfirm()
        }
        gtk_window_present(cast(dialog))
        return dialog
    }
}
