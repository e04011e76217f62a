import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Sync accounts in the window: syncing them at start and on the background interval, the
/// Accounts page of Preferences, and what failed, said with the account named.
@MainActor
final class AccountSyncing {
    let window: UnsafeMutablePointer<GtkWidget>
    private let application: UnsafeMutablePointer<GtkApplication>
    private let life: WidgetLife
    let accountSync: AccountSync
    private let model: LibraryModel
    private let preferences: Preferences
    /// The Refresh button counts the syncs running with the refreshes.
    private let refreshing: Refreshing
    private let toasts: Toasts
    private var live: AccountSyncing? { life.isAlive ? self : nil }
    /// Makes the Rules page of the Preferences this opens.
    var makeRulesPage: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> RulesPage)?

    init(window: UnsafeMutablePointer<GtkWidget>, application: UnsafeMutablePointer<GtkApplication>, life: WidgetLife,
         accountSync: AccountSync, model: LibraryModel, preferences: Preferences, refreshing: Refreshing, toasts: Toasts) {
        (self.window, self.application, self.life, self.accountSync) = (window, application, life, accountSync)
        (self.model, self.preferences, self.refreshing, self.toasts) = (model, preferences, refreshing, toasts)
    }

    /// Opens Preferences, on the Accounts page when `showingAccounts`.
    func presentPreferences(showingAccounts: Bool = false) {
        PreferencesWindow.present(preferences, over: window, showingAccounts: showingAccounts, rules: makeRulesPage) { [weak self, accountSync, life] window in
            AccountsPage(accounts: accountSync, window: window, onChange: life.tied(onMain: { [weak self] change in self?.accountsChanged(change) }))
        }
    }

    /// A new account syncs at once, its feeds and articles coming into the window; a removed one's are gone.
    func accountsChanged(_ change: AccountsPage.AccountsChange) {
        switch change {
        case let .added(account):
            Task { @MainActor [weak self] in await self?.syncAccounts([account.id], reporting: true) }
        case .removed:
            Task { @MainActor [weak self] in
                await self?.model.changed(.entries())
            }
        }
    }

    /// Syncs `accountIDs` (every account for nil) without the list's header, the Refresh button
    /// showing it runs, then shows what changed; says what failed when `reporting` (at start and
    /// for a new account, not every half hour); a notification tells of new unread articles when
    /// `notifying` (the background interval's syncs, as its refreshes of local feeds).
    func syncAccounts(_ accountIDs: [Int64]? = nil, reporting: Bool, notifying: Bool = false) async {
        if accountSync.accounts.isEmpty { await accountSync.reload() }
        // Without accounts the Refresh button does not flicker at every start.
        guard !accountSync.accounts.isEmpty, self.live != nil else { return }
        refreshing.running += 1
        // Each account's articles are shown as soon as that account is done, not after the slowest.
        let outcome = await accountSync.sync(accountIDs) { [weak self] in await self?.model.changed(.entries()) }
        refreshing.running -= 1
        guard self.live != nil else { return }
        if reporting { report(outcome) }
        if notifying, NewEntriesNotification.isWanted(newEntries: outcome.newUnreadEntries, enabled: preferences.notifiesNewEntries,
                                                      whenFocused: preferences.notifiesWhenFocused, windowIsFocused: refreshing.windowIsFocused) {
            NewEntriesNotification.send(entries: outcome.newUnreadEntries, feeds: outcome.feedsWithNewUnreadEntries, from: application)
        }
    }

    /// A feed subscribed in an account comes with the sync that made it: shown as any sync's
    /// articles are, or the sync's failure said (the subscription waits in the queue for the next).
    func subscribedInAccount(_ outcome: AccountSync.Outcome) {
        Task { @MainActor [weak self] in
            // The model's listeners and the toasts are tied to the window: nothing shows once it is gone.
            guard let self else { return }
            await self.model.changed(.entries())
            self.report(outcome)
        }
    }

    /// Says which accounts could not be synced, naming the account, with a way to act: Retry for
    /// what may pass (the network, the server busy), the Accounts page for what the user must fix.
    func report(_ outcome: AccountSync.Outcome) {
        guard let first = outcome.failures.first else { return }
        let text = outcome.failures.count == 1
            ? first.account.syncFailure(first.failure, named: first.account.name(among: accountSync.accounts).text)
            : trn("%d account could not be synced", "%d accounts could not be synced", outcome.failures.count)
                .filling(count: outcome.failures.count)
        if outcome.failures.contains(where: { $0.failure.needsUser }) {
            toasts.show(text, button: tr("_Preferences")) { [weak self] in self?.presentPreferences(showingAccounts: true) }
        } else {
            let failed = outcome.failures.map(\.account.id)
            toasts.show(text, button: tr("_Retry")) { [weak self] in
                Task { @MainActor [weak self] in await self?.syncAccounts(failed, reporting: true) }
            }
        }
    }
}
