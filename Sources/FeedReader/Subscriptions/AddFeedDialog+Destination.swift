import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Where Add Feed subscribes: on this computer, or in a sync account and one of its folders,
/// the server making the subscription. Shown only when there are accounts.
@MainActor
final class AddFeedDestination {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let accountChoice: UnsafeMutablePointer<GtkWidget>
    private let folderChoice: UnsafeMutablePointer<GtkWidget>
    private let folderRow: UnsafeMutablePointer<GtkWidget>
    /// The folder list: "No Folder" (from the dialog's file), then the chosen account's folders.
    private let folderNames: OpaquePointer
    private let accounts: [SyncAccount]
    private let sync: AccountSync
    /// The chosen account's folders, in the folder list's order after "No Folder".
    private var folders: [StoredFolder] = []
    /// Runs when the choice changes.
    var onChange: (@MainActor () -> Void)?
    /// The folder to choose once the account chosen for the sidebar's selection has its folders listed.
    private var wantedFolderID: Int64?

    /// Shows the choice of Add Feed's `file`, its accounts listed after "This Computer"; starts in
    /// the account and folder of the sidebar's `selection` when it is in an account that can
    /// subscribe, on this computer otherwise.
    init(_ file: BuilderFile, sync: AccountSync, selection: FeedSelection = .all) {
        self.sync = sync
        accounts = sync.accounts
        widget = file.widget("destination")
        accountChoice = file.widget("account_choice")
        folderChoice = file.widget("folder_choice")
        folderRow = file.widget("folder_row")
        folderNames = file.opaque("folder_names")
        let accountNames = file.opaque("account_names")
        for account in accounts { gtk_string_list_append(accountNames, account.name(among: sync.accounts).text) }
        gtk_widget_set_visible(widget, 1)
        Signal.connectIgnoringArgument(cast(accountChoice), "notify::selected") { [weak self] in self?.accountChanged() }
        Signal.connectIgnoringArgument(cast(folderChoice), "notify::selected") { [weak self] in self?.onChange?() }
        choose(selection)
    }

    /// Makes the choice available or not, while the dialog works.
    func setSensitive(_ sensitive: Bool) { gtk_widget_set_sensitive(widget, sensitive.gboolean) }

    /// Chooses the account `selection` is in and its folder, unless something was chosen meanwhile.
    private func choose(_ selection: FeedSelection) {
        guard selection != .all, selection != .starred, selection.labelID == nil else { return }
        Task { @MainActor [weak self, sync] in
            guard let accountID = await sync.accountIDs(of: selection).first else { return }
            let folderID: Int64? = switch selection {
            case let .folder(id): id
            case let .feed(id): (try? await sync.engine.store.feeds(accountID: accountID))?.first { $0.id == id }?.folderID
            case .all, .starred, .account, .savedSearch, .label, .labelsHeading: nil
            }
            guard let self, gtk_drop_down_get_selected(cast(self.accountChoice)) == 0,
                  let index = self.accounts.firstIndex(where: { $0.id == accountID }),
                  sync.engine.capabilities(of: self.accounts[index].kind)?.canSubscribe == true else { return }
            self.wantedFolderID = folderID
            gtk_drop_down_set_selected(cast(self.accountChoice), guint(index + 1))
        }
    }

    /// The account chosen; nil for this computer.
    var account: SyncAccount? {
        let index = Int(gtk_drop_down_get_selected(cast(accountChoice)))
        return index > 0 && index <= accounts.count ? accounts[index - 1] : nil
    }

    /// The account's folder chosen; nil for none.
    var folderID: Int64? {
        let index = Int(gtk_drop_down_get_selected(cast(folderChoice)))
        return index > 0 && index <= folders.count ? folders[index - 1].id : nil
    }

    /// Whether the chosen account's service can subscribe (Fever cannot).
    var canSubscribe: Bool {
        guard let account else { return true }
        return sync.engine.capabilities(of: account.kind)?.canSubscribe ?? false
    }

    /// Offers the chosen account's folders, when it has any and can subscribe into them.
    private func accountChanged() {
        folders = []
        setFolderChoices([])
        onChange?()
        guard let account, canSubscribe else { return }
        Task { @MainActor [weak self, sync] in
            let folders = (try? await sync.engine.store.folders(accountID: account.id)) ?? []
            guard let self, self.account?.id == account.id else { return }
            self.folders = folders
            self.setFolderChoices(folders.map(\.name))
            if let wanted = self.wantedFolderID, let position = folders.firstIndex(where: { $0.id == wanted }) {
                gtk_drop_down_set_selected(cast(self.folderChoice), guint(position + 1))
            }
            self.wantedFolderID = nil
        }
    }

    /// Lists `names` after "No Folder", and the folder choice only when there are some.
    private func setFolderChoices(_ names: [String]) {
        gtk_drop_down_set_selected(cast(folderChoice), 0)
        let listed = g_list_model_get_n_items(cast(folderNames))
        withCStringArray(names) { gtk_string_list_splice(folderNames, 1, listed - 1, $0) }
        gtk_widget_set_visible(folderRow, (!names.isEmpty).gboolean)
    }
}

extension AddFeedDialog {
    /// What Add Feed says instead of offering to subscribe in an account that cannot (Fever).
    static var cannotSubscribe: String {
        tr("The Fever API cannot subscribe to feeds. Subscribe on the server instead: the feed comes here with the next sync.")
    }
}
