import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The window's refreshing part: the selection's feeds on a pull, F5 or the Refresh button; the
/// feeds whose turn came in the background; and what failed, said with the feed's name. It
/// fetches, tells the model the entries changed and lists them again with the list's header; it
/// knows nothing of the sidebar or the article.
@MainActor
final class Refreshing {
    /// The header bar's Refresh button, which turns into a spinner while a refresh runs (views/window.ui).
    struct Button {
        let button: UnsafeMutablePointer<GtkWidget>
        /// The stack of the button's "idle" and "refreshing" faces.
        let state: UnsafeMutablePointer<GtkWidget>
        let spinner: UnsafeMutablePointer<GtkWidget>
    }

    private let window: UnsafeMutablePointer<GtkWidget>
    /// Whether the window's widgets still exist, asked after every await.
    private let life: WidgetLife
    private let library: FeedLibrary
    private let model: LibraryModel
    private let accountSync: AccountSync
    private let preferences: Preferences
    private let application: UnsafeMutablePointer<GtkApplication>
    /// The list whose header shows a refresh, listed again after one.
    private let entryList: EntryListView
    private let button: Button
    private let toasts: Toasts
    /// A background refresh the entry list's header is showing: its action waits for it rather than fetch again.
    private var backgroundRefreshForHeader: Task<FeedLibrary.RefreshReport, Never>?
    /// Refreshes and syncs running now, whatever started them: the header bar's Refresh button shows them.
    var running = 0 {
        didSet { live?.showRunning() }
    }
    /// Says a failure to read or save the store.
    var onFailure: ((String, any Error) -> Void)?
    /// Says what the sync of the accounts a refresh belongs to failed to do.
    var onSynced: ((AccountSync.Outcome) -> Void)?
    /// Called once a refresh is shown, true when it was a background one.
    var onRefreshed: ((_ inBackground: Bool) -> Void)?

    /// The part over `window`, whose widgets `life` follows.
    init(window: UnsafeMutablePointer<GtkWidget>, life: WidgetLife, library: FeedLibrary, model: LibraryModel, accountSync: AccountSync,
         preferences: Preferences, application: UnsafeMutablePointer<GtkApplication>, entryList: EntryListView, button: Button,
         toasts: Toasts) {
        self.window = window
        self.life = life
        self.library = library
        self.model = model
        self.accountSync = accountSync
        self.preferences = preferences
        self.application = application
        self.entryList = entryList
        self.button = button
        self.toasts = toasts
        showRunning()
    }

    /// The part while the window's widgets exist, nil once they are gone.
    private var live: Refreshing? { life.isAlive ? self : nil }

    /// Whether the window is shown and has the keyboard focus (a hidden window may still say it is active).
    var windowIsFocused: Bool {
        gtk_widget_get_visible(window) != 0 && gtk_window_is_active(cast(window)) != 0
    }

    /// Adds the window's Refresh action, which the Refresh button and F5 activate.
    func addActions() {
        Widgets.addAction(to: window, "refresh") { [weak self] _ in self?.beginRefresh() }
    }

    /// Refreshes the selection as a pull does, with the list's header showing it; where the list
    /// shows an empty state instead, without the header.
    func beginRefresh() {
        if gtk_widget_get_mapped(entryList.widget) != 0 {
            entryList.header.beginRefreshing()
        } else {
            refreshSelection()
        }
    }

    /// Fetches every feed of the selection and syncs the accounts it belongs to, side by side; the
    /// header shows it loading until the last is done. When the header shows a background refresh,
    /// waits for that one instead of fetching again.
    func refreshSelection() {
        let selection = model.selection
        refresh(feedIDs: model.feedIDs(of: selection), syncingAccountsOf: selection)
    }

    /// Fetches `feedIDs` (nil: every local feed) and syncs the accounts `selection` belongs to,
    /// then shows what is selected by then and says what failed.
    private func refresh(feedIDs: [Int64]?, syncingAccountsOf selection: FeedSelection) {
        let background = backgroundRefreshForHeader
        backgroundRefreshForHeader = nil
        running += 1
        Task { @MainActor [weak self, library, accountSync] in
            // Until everything below is done, whichever way it ends.
            defer { self?.running -= 1 }
            let syncing = Task { @MainActor [weak self] in
                await accountSync.sync(await accountSync.accountIDs(of: selection)) { await self?.live?.showSynced() }
            }
            let report: FeedLibrary.RefreshReport
            if let background {
                report = await background.value
            } else {
                report = await library.refresh(feedIDs: feedIDs)
            }
            let synced = await syncing.value
            guard let self = self?.live else { return }
            await self.model.changed(.entries(newAtTop: report.newEntries > 0))
            guard self.live != nil else { return }
            self.entryList.header.endRefreshing()
            // A feed failing in the background is marked in the sidebar; a notice every half hour would nag.
            if background == nil { self.report(report) }
            self.onSynced?(synced)
            self.onRefreshed?(false)
        }
    }

    /// Shows what an account's sync stored, as soon as that account is done: a slow server of
    /// another account does not hold it back.
    private func showSynced() async {
        await model.changed(.entries())
    }

    /// Refreshes the feeds whose background turn came; the entry list's header shows it when the
    /// list shows one of them, and a notification tells of new entries.
    func refreshInBackground(_ due: [StoredFeed]) async {
        let ids = due.map(\.id)
        running += 1
        defer { running -= 1 }
        let refresh = Task { @MainActor [library] in await library.refresh(feedIDs: ids) }
        let listShowsThem = model.feedIDs(of: model.selection).map { !Set($0).isDisjoint(with: ids) } ?? true
        let headerShowsIt = listShowsThem && gtk_widget_get_mapped(entryList.widget) != 0 && !entryList.header.isRefreshing
        if headerShowsIt {
            backgroundRefreshForHeader = refresh
            entryList.header.beginRefreshing()
        }
        let report = await refresh.value
        guard live != nil else { return }
        if !headerShowsIt {
            await model.changed(.entries())
        }
        onRefreshed?(true)
        // Only the feeds whose Properties leave their notifications on are counted.
        if NewEntriesNotification.isWanted(newEntries: report.announcedEntries, enabled: preferences.notifiesNewEntries,
                                           whenFocused: preferences.notifiesWhenFocused,
                                           windowIsFocused: windowIsFocused) {
            NewEntriesNotification.send(entries: report.announcedEntries, feeds: report.announcedFeeds, from: application)
        }
    }

    /// Says which feeds could not be refreshed, naming the feed (its row in the sidebar keeps the
    /// reason), with a button to try them again; the failing feed's own list says it instead.
    private func report(_ report: FeedLibrary.RefreshReport) {
        guard !report.failures.isEmpty else { return }
        if let reason = library.store.damageFound {
            onFailure?("", FeedStoreError.damaged(reason))
            return
        }
        let failed = report.failures.map(\.feedID)
        // The list of the one feed that failed says so itself, with Retry, until it recovers: a
        // toast over it would say it twice.
        if case let .feed(shown) = model.selection, failed == [shown] { return }
        toasts.show(Self.refreshFailure(report), button: tr("_Retry")) { [weak self] in
            guard let self = self?.live else { return }
            self.refresh(feedIDs: failed, syncingAccountsOf: self.model.selection)
        }
    }

    /// "“Feed” could not be refreshed: reason", or how many could not, in the user's language.
    static func refreshFailure(_ report: FeedLibrary.RefreshReport) -> String {
        guard let first = report.failures.first else { return "" }
        let count = report.failures.count
        guard count == 1 else {
            return trn("%d feed could not be refreshed", "%d feeds could not be refreshed", count).filling(count: count)
        }
        let reason = switch first.stage {
        case .fetching: first.reason.sentence
        case .saving: tr("the entries could not be saved")
        case .readingSubscriptions: tr("The subscriptions could not be read.")
        }
        guard first.stage != .readingSubscriptions else { return reason }
        // TRANSLATORS: %1$@ is the feed's title, %2$@ why it could not be refreshed.
        return tr("“%1$@” could not be refreshed: %2$@").filling(first.title, phrase: reason)
    }

    /// The Refresh button turns into a spinner, and cannot be pressed again, while a refresh runs;
    /// named in the current language.
    func showRunning() {
        let isRunning = running > 0
        gtk_stack_set_visible_child_name(cast(button.state), isRunning ? "refreshing" : "idle")
        if isRunning { gtk_spinner_start(cast(button.spinner)) } else { gtk_spinner_stop(cast(button.spinner)) }
        if let action = g_action_map_lookup_action(cast(window), "refresh") {
            g_simple_action_set_enabled(cast(action), (!isRunning).gboolean)
        }
        Widgets.name(button.button, isRunning ? tr("Refreshing…") : tr("Refresh"))
    }
}
