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

    /// The names asked for, each a file with its heading, placeholder and answers.
    enum Question: String {
        case newFolder = "subscriptions/new-folder-dialog.ui"
        case renameFolder = "subscriptions/rename-folder-dialog.ui"
        case renameFeed = "subscriptions/rename-feed-dialog.ui"
        case editAddress = "subscriptions/edit-address-dialog.ui"
        case saveSearch = "sidebar/save-search-dialog.ui"
        case renameSavedSearch = "sidebar/rename-search-dialog.ui"
        case renameLabel = "labels/rename-label-dialog.ui"

        /// Whether the answer is an address, which reads left to right in every language.
        var isAddress: Bool { self == .editAddress }
    }

    /// Asks `question` over `parent` with `text` typed in; `onName` gets the trimmed name once
    /// `isValid` accepts it (any text by default). Returns the dialog.
    @discardableResult
    static func present(_ question: Question, over parent: UnsafeMutablePointer<GtkWidget>, text: String = "",
                        isValid: @escaping (String) -> Bool = { !$0.isEmpty },
                        onName: @escaping @MainActor (String) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let file = BuilderFile(question.rawValue)
        let dialog = file.widget("dialog")
        let entry = file.widget("entry")
        gtk_window_set_transient_for(cast(dialog), cast(parent))
        // A widget's direction is no property a file can set.
        if question.isAddress { Widgets.setLeftToRight(address: entry) }
        gtk_editable_set_text(cast(entry), text)
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
