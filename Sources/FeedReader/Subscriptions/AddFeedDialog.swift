import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Asks for a feed's address, or a web page's, fetches it once, and subscribes; a page that
/// offers several feeds lists them to choose from; problems stay in the dialog, in words, in the
/// hint's place under the address: why Add cannot be chosen yet, or why adding failed.
@MainActor
final class AddFeedDialog {
    /// The dialog's actions, as its buttons name them (`add-feed.add`).
    enum Action: String, PartAction {
        case add
    }

    static let file = "subscriptions/add-feed-dialog.ui"
    static let candidateFile = "subscriptions/feed-candidate-row.ui"

    let window: UnsafeMutablePointer<GtkWidget>
    /// The address's row, and the text field inside it, which has the keyboard.
    private let entry: UnsafeMutablePointer<GtkWidget>
    private let field: UnsafeMutablePointer<GtkWidget>
    /// The hint under the address, or in its place what is wrong.
    private var message: DialogMessage!
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let candidateList: UnsafeMutablePointer<GtkWidget>
    /// Scrolls the candidates, so however many a page offers the dialog keeps its size.
    private let candidateScroller: UnsafeMutablePointer<GtkWidget>
    private var actions: PartActions<Action>!
    /// The feeds the page offered, in the list's order; empty until a page offers several.
    private(set) var candidates: [FeedCandidate] = []
    private let library: FeedLibrary
    private let onAdded: (StoredFeed) -> Void
    /// Where to subscribe, when there are sync accounts to choose from.
    private var destination: AddFeedDestination?
    private let accountSync: AccountSync?
    /// Gets the account subscribed in and how the sync that sent the subscription went (one that
    /// failed keeps it queued for the next).
    private let onAddedToAccount: ((SyncAccount, AccountSync.Outcome) -> Void)?
    private var retainedSelf: AddFeedDialog?

    /// Shows the dialog over `parent`, subscribing where the sidebar's `selection` is; `onAdded`
    /// gets the new subscription, `onAddedToAccount` the account one subscribed in and how its sync went.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, library: FeedLibrary, accounts: AccountSync? = nil,
                        selection: FeedSelection = .all, onAddedToAccount: ((SyncAccount, AccountSync.Outcome) -> Void)? = nil,
                        onAdded: @escaping (StoredFeed) -> Void) -> AddFeedDialog {
        let dialog = AddFeedDialog(library: library, accounts: accounts, selection: selection,
                                   onAddedToAccount: onAddedToAccount, onAdded: onAdded)
        dialog.retainedSelf = dialog
        gtk_window_set_transient_for(cast(dialog.window), cast(parent))
        gtk_window_present(cast(dialog.window))
        return dialog
    }

    /// Builds the dialog from its file, not yet shown; `present` shows it over a window.
    init(library: FeedLibrary, accounts: AccountSync? = nil, selection: FeedSelection = .all,
         onAddedToAccount: ((SyncAccount, AccountSync.Outcome) -> Void)? = nil, onAdded: @escaping (StoredFeed) -> Void) {
        self.library = library
        self.onAdded = onAdded
        accountSync = accounts
        self.onAddedToAccount = onAddedToAccount
        let file = BuilderFile(Self.file)
        window = file.widget("window")
        entry = file.widget("entry")
        field = UnsafeMutableRawPointer(gtk_editable_get_delegate(cast(entry))!).assumingMemoryBound(to: GtkWidget.self)
        // The field is what a screen reader reaches: it is named by the row's title, as it reads.
        cgtk_accessible_set_label(cast(field), adw_preferences_row_get_title(cast(entry)))
        spinner = file.widget("spinner")
        candidateList = file.widget("candidate_list")
        candidateScroller = file.widget("candidate_scroller")
        // A widget's direction is no property a file can set.
        Widgets.setLeftToRight(address: entry)
        message = DialogMessage(label: file.widget("message"), place: file.widget("message_place")) {
            tr("Enter the address of a feed, or of a web page that has one.")
        }
        if let accounts, !accounts.accounts.isEmpty {
            destination = AddFeedDestination(file, sync: accounts, selection: selection)
        }
        actions = PartActions(on: window, prefix: "add-feed") { [weak self] action in
            switch action {
            case .add: self?.add()
            }
        }
        actions.setEnabled(.add, false)
        Signal.connect(cast(entry), "changed") { [weak self] in self?.validate() }
        destination?.onChange = { [weak self] in self?.validate() }
        Signal.connect(cast(window), "destroy") { [weak self] in self?.retainedSelf = nil }
    }

    /// Whether Add can be chosen now.
    var canAdd: Bool { actions.isEnabled(.add) }

    private var text: String { String(cString: gtk_editable_get_text(cast(entry))) }

    /// The text under the address: the hint, a problem, or the invitation to choose.
    var messageText: String { message.text }

    /// Types `address` into the address field, as a person pasting it.
    func enter(_ address: String) { gtk_editable_set_text(cast(entry), address) }

    /// Selects the `index`th feed the page offered.
    func choose(_ index: Int) {
        gtk_list_box_select_row(cast(candidateList), gtk_list_box_get_row_at_index(cast(candidateList), Int32(index)))
    }

    /// Whether the address field has the keyboard focus.
    var entryHasFocus: Bool {
        guard let focus = gtk_root_get_focus(cast(window)) else { return false }
        return focus == entry || gtk_widget_is_ancestor(focus, entry) != 0
    }

    /// Whether the address field is marked as the one in error.
    var entryShowsError: Bool { gtk_widget_has_css_class(entry, "error") != 0 }

    private func validate() {
        let canSubscribe = destination?.canSubscribe ?? true
        let problem = Self.problem(with: text)
        actions.setEnabled(.add, FeedLibrary.feedURL(from: text) != nil && canSubscribe)
        gtk_widget_remove_css_class(entry, "error")
        if let problem {
            say(problem, isProblem: true)
        } else {
            say(canSubscribe ? nil : Self.cannotSubscribe)
        }
        showCandidates([])
    }

    /// Why `text` is no address Add can take, in words; nil when it is one, or when nothing is typed yet.
    static func problem(with text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, FeedLibrary.feedURL(from: trimmed) == nil else { return nil }
        if trimmed.contains(where: \.isWhitespace) {
            // TRANSLATORS: under the address in Add Feed, saying why Add cannot be chosen.
            return tr("An address cannot contain spaces.")
        }
        if let scheme = trimmed.range(of: ":").map({ trimmed[..<$0.lowerBound].lowercased() }),
           trimmed.contains("://"), !["http", "https", "file"].contains(scheme) {
            // TRANSLATORS: %@ is the kind of address, such as "javascript" or "ftp".
            return tr("Addresses of the kind “%@:” cannot be read. Only web addresses (http and https) and files can.").filling(String(scheme))
        }
        return tr("This is not a web address.")
    }

    /// Shows `text` under the address, else the hint; a problem in the error colour.
    private func say(_ text: String?, isProblem: Bool = false) { message.show(text, isProblem: isProblem) }

    /// Subscribes to the feed chosen from the page's list; otherwise finds the feeds for the
    /// address and subscribes when there is one, or lists them when there are several.
    func add() {
        if let row = gtk_list_box_get_selected_row(cast(candidateList)), candidates.indices.contains(Int(gtk_list_box_row_get_index(row))) {
            subscribe(to: candidates[Int(gtk_list_box_row_get_index(row))].url.absoluteString)
            return
        }
        let address = text
        guard FeedLibrary.feedURL(from: address) != nil else { return }
        setBusy(true)
        Task { @MainActor [weak self, library] in
            do throws(FeedLibrary.SubscribeError) {
                let found = try await library.findFeeds(for: address)
                guard let self else { return }
                if found.count == 1 {
                    self.subscribe(to: found[0].url.absoluteString)
                } else {
                    self.setBusy(false)
                    self.showCandidates(found)
                    self.say(tr("This page offers several feeds. Choose one to add."))
                }
            } catch {
                self?.fail(error, address: address)
            }
        }
    }

    private func subscribe(to address: String) {
        if let account = destination?.account, let accountSync {
            subscribe(to: address, in: account, folderID: destination?.folderID, sync: accountSync)
            return
        }
        setBusy(true)
        Task { @MainActor [weak self, library] in
            do throws(FeedLibrary.SubscribeError) {
                let feed = try await library.subscribe(to: address)
                self?.onAdded(feed)
                self?.close()
            } catch {
                self?.fail(error, address: address)
            }
        }
    }

    /// Asks the account's server to subscribe, by the sync engine's queue and a sync of the
    /// account at once; a refusal stays in the dialog, any other failure is the window's to say.
    private func subscribe(to address: String, in account: SyncAccount, folderID: Int64?, sync: AccountSync) {
        guard let url = URL(string: address) else { return }
        setBusy(true)
        Task { @MainActor [weak self] in
            do throws(SyncFailure) {
                try await sync.engine.subscribe(accountID: account.id, to: url, folderID: folderID)
            } catch {
                self?.setBusy(false)
                self?.say(sync.message(error, accountID: account.id), isProblem: true)
                return
            }
            let outcome = await sync.sync([account.id])
            guard let self else { return }
            if outcome.refusedSubscriptions.contains(address) {
                self.setBusy(false)
                self.say(SyncError(.subscriptionRefused).message(for: account.kind), isProblem: true)
                return
            }
            self.onAddedToAccount?(account, outcome)
            self.close()
        }
    }

    /// Says what went wrong and gives the address back to the keyboard, marked, to be corrected
    /// where the cursor is (not selected whole, which the next key would replace).
    private func fail(_ error: FeedLibrary.SubscribeError, address: String) {
        setBusy(false)
        say(ErrorReason(error).sentenceWhileSubscribing(to: address), isProblem: true)
        gtk_widget_add_css_class(entry, "error")
        gtk_text_grab_focus_without_selecting(cast(field))
    }

    private func showCandidates(_ found: [FeedCandidate]) {
        candidates = found
        while let row = gtk_widget_get_first_child(candidateList) { gtk_list_box_remove(cast(candidateList), row) }
        for candidate in found {
            let row = BuilderFile(Self.candidateFile)
            gtk_label_set_text(cast(row.widget("title")), candidate.title ?? candidate.url.host ?? candidate.url.absoluteString)
            gtk_label_set_text(cast(row.widget("address")), candidate.url.absoluteString)
            // Appended while the file holds it: the list keeps it from then on.
            withExtendedLifetime(row) { gtk_list_box_append(cast(candidateList), row.widget("row")) }
        }
        gtk_widget_set_visible(candidateScroller, (!found.isEmpty).gboolean)
        if !found.isEmpty { choose(0) }
    }

    private func setBusy(_ busy: Bool) {
        gtk_widget_set_sensitive(entry, (!busy).gboolean)
        destination?.setSensitive(!busy)
        actions.setEnabled(.add, !busy && FeedLibrary.feedURL(from: text) != nil && destination?.canSubscribe ?? true)
        gtk_widget_set_visible(spinner, busy.gboolean)
        gtk_spinner_set_spinning(cast(spinner), busy.gboolean)
        if busy { say(nil) }
    }

    private func close() { gtk_window_destroy(cast(window)) }
}
