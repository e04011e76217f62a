import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The Accounts page of Preferences: each sync account as a row (service, user and server, when
/// it last synced or why it failed), a button to remove it after asking, and "Add Account…".
@MainActor
final class AccountsPage {
    /// The page's actions, as its rows name them (`accounts.add`).
    enum Action: String, PartAction {
        case add
    }

    static let file = "accounts/accounts-page.ui"
    static let rowFile = "accounts/account-row.ui"

    let page: UnsafeMutablePointer<GtkWidget>
    private let group: UnsafeMutablePointer<GtkWidget>
    private let addRow: UnsafeMutablePointer<GtkWidget>
    private var rows: [UnsafeMutablePointer<GtkWidget>] = []
    private var actions: PartActions<Action>!
    private let accounts: AccountSync
    /// The preferences window, over which the dialogs open and in which toasts show.
    private let window: UnsafeMutablePointer<GtkWidget>
    /// Runs after an account was added or removed: the main window syncs it and shows what changed.
    private let onChange: @MainActor (AccountsChange) -> Void

    enum AccountsChange {
        case added(SyncAccount)
        case removed(Int64)
    }

    init(accounts: AccountSync, window: UnsafeMutablePointer<GtkWidget>, onChange: @escaping @MainActor (AccountsChange) -> Void) {
        self.accounts = accounts
        self.window = window
        self.onChange = onChange
        let file = BuilderFile(Self.file)
        page = file.widget("page")
        // The builder's reference ends with it: the page holds its own until the window takes it.
        g_object_ref(cast(page))
        group = file.widget("group")
        addRow = file.widget("add_row")
        // Kept while the account rows are put back above it.
        g_object_ref(cast(addRow))
        actions = PartActions(on: page, prefix: "accounts") { [weak self] action in
            switch action {
            case .add: self?.presentAddDialog()
            }
        }
        showAccounts()
        accounts.observe(by: self) { [weak self] in self?.showAccounts() }
        Signal.connect(cast(page), "destroy") { [weak self, accounts, addRow] in
            g_object_unref(cast(addRow))
            guard let self else { return }
            accounts.stopObserving(by: self)
        }
        Task { @MainActor [accounts] in await accounts.reload() }
    }

    isolated deinit {
        g_object_unref(cast(page))
    }

    /// Opens the dialog that adds an account.
    private func presentAddDialog() {
        AddAccountDialog.present(over: window, accounts: accounts) { [weak self] account in
            self?.onChange(.added(account))
        }
    }

    /// One row per account above "Add Account…", as the accounts are now.
    private func showAccounts() {
        for row in rows { adw_preferences_group_remove(cast(group), row) }
        // Added after the accounts: the group keeps rows in the order they came.
        adw_preferences_group_remove(cast(group), addRow)
        rows = accounts.accounts.map(addRow(for:))
        adw_preferences_group_add(cast(group), addRow)
    }

    /// Adds the row of `account` to the group, and returns it.
    private func addRow(for account: SyncAccount) -> UnsafeMutablePointer<GtkWidget> {
        let file = BuilderFile(Self.rowFile)
        let row = file.widget("row")
        // Action rows read their texts as markup.
        adw_preferences_row_set_title(cast(row), Markup.escaped(account.kind.displayName))
        adw_action_row_set_subtitle(cast(row), Markup.escaped(Self.summary(of: account, among: accounts.accounts, syncing: accounts.syncing.contains(account.id))))
        gtk_widget_set_visible(file.widget("warning"), (account.lastError != nil).gboolean)
        Signal.connect(cast(file.widget("remove")), "clicked") { [weak self] in self?.confirmRemoving(account) }
        // Added while the file holds it: the group keeps it from then on.
        withExtendedLifetime(file) { adw_preferences_group_add(cast(group), row) }
        return row
    }

    /// The user and server, then the sync: running, its last failure in words, or when it last completed.
    @MainActor
    static func summary(of account: SyncAccount, among all: [SyncAccount], syncing: Bool) -> String {
        let state: String
        if syncing {
            state = tr("Syncing…")
        } else if let error = account.lastError {
            state = SyncFailure.server(error).message(for: account.kind)
        } else if let last = account.lastSync {
            // TRANSLATORS: %@ is when the account last synced, such as "14:05" or "Nov 3".
            state = tr("Last synced %@").filling(EntryDateText.text(for: last))
        } else {
            state = tr("Not synced yet")
        }
        // Each line of a label takes the direction of its first letter: the name, in Latin letters
        // most often, is isolated after a mark of the window's direction, so that in Arabic it
        // lines up at the right with the line below instead of at the left.
        let mark = gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? "\u{200F}" : ""
        return mark + String.isolated(account.name(among: all).text) + "\n" + state
    }

    private func confirmRemoving(_ account: SyncAccount) {
        let name = account.name(among: accounts.accounts).text
        // TRANSLATORS: %@ is the account: its user name and server address, and its service when another account has both.
        let body = tr("%@ is forgotten on this computer with its feeds and entries. Nothing changes on the server.").filling(name)
        ConfirmDialog.present(.removeAccount, over: window, body: body) { [weak self] in
            self?.remove(account, named: name)
        }
    }

    /// Removes the account, then says so with the name the question gave it.
    private func remove(_ account: SyncAccount, named name: String) {
        Task { @MainActor [weak self, accounts] in
            do throws(SyncFailure) {
                try await accounts.remove(account.id)
                self?.onChange(.removed(account.id))
                // TRANSLATORS: a toast; %@ is the account removed, named as in the question before.
                self?.toast(tr("%@ was removed.").filling(name))
            } catch {
                guard let self else { return }
                if case let .secrets(secretError) = error {
                    self.onChange(.removed(account.id))
                    // TRANSLATORS: a toast; %@ is the account removed, named as in the question before.
                    self.toast(tr("%@ was removed, but its password could not be removed from the keyring.").filling(name) + " " + secretError.message)
                } else {
                    self.toast(error.message(for: account.kind))
                }
            }
        }
    }

    private func toast(_ text: String) {
        let toast = adw_toast_new(text)!
        adw_preferences_window_add_toast(cast(window), toast)
    }
}
