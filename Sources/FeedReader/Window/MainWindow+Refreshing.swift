import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Refreshing: the selection's feeds on a pull, F5 or the Refresh button; the feeds whose turn came
/// in the background; and what failed, said with the feed's name.
extension MainWindow {
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
        let selection = sidebar.selection
        refresh(feedIDs: model.feedIDs(of: selection), syncingAccountsOf: selection)
    }

    /// Fetches `feedIDs` (nil: every local feed) and syncs the accounts `selection` belongs to,
    /// then shows what is selected by then and says what failed.
    private func refresh(feedIDs: [Int64]?, syncingAccountsOf selection: FeedSelection) {
        let background = backgroundRefreshForHeader
        backgroundRefreshForHeader = nil
        refreshesRunning += 1
        Task { @MainActor [weak self, library, accountSync] in
            let syncing = Task { @MainActor in await accountSync.sync(await accountSync.accountIDs(of: selection)) }
            let report: FeedLibrary.RefreshReport
            if let background {
                report = await background.value
            } else {
                report = await library.refresh(feedIDs: feedIDs)
            }
            let synced = await syncing.value
            guard let self = self?.live else { return }
            self.refreshesRunning -= 1
            await self.model.changed(.entries)
            guard self.live != nil else { return }
            self.entryList.reload(scrollToTop: report.newEntries > 0) { [weak self] in
                self?.live?.entryList.header.endRefreshing()
            }
            // A feed failing in the background is marked in the sidebar; a notice every half hour would nag.
            if background == nil { self.report(report) }
            self.report(synced)
            self.updateIcons()
        }
    }

    /// Refreshes the feeds whose background turn came; the entry list's header shows it when the
    /// list shows one of them, and a notification tells of new entries.
    func refreshInBackground(_ due: [StoredFeed]) async {
        let ids = due.map(\.id)
        refreshesRunning += 1
        defer { refreshesRunning -= 1 }
        let refresh = Task { @MainActor [library] in await library.refresh(feedIDs: ids) }
        let listShowsThem = model.feedIDs(of: sidebar.selection).map { !Set($0).isDisjoint(with: ids) } ?? true
        let headerShowsIt = listShowsThem && gtk_widget_get_mapped(entryList.widget) != 0 && !entryList.header.isRefreshing
        if headerShowsIt {
            backgroundRefreshForHeader = refresh
            entryList.header.beginRefreshing()
        }
        let report = await refresh.value
        guard self.live != nil else { return }
        if !headerShowsIt {
            await reloadSidebar()
            guard self.live != nil else { return }
            entryList.reload()
        }
        updateIcons()
        cleanUpIfDue()
        if NewEntriesNotification.isWanted(newEntries: report.newEntries, enabled: preferences.notifiesNewEntries,
                                           whenFocused: preferences.notifiesWhenFocused,
                                           windowIsFocused: isFocused) {
            NewEntriesNotification.send(entries: report.newEntries, feeds: report.feedsWithNewEntries, from: application)
        }
    }

    /// Says which feeds could not be refreshed, naming the feed (its row in the sidebar keeps the
    /// reason), with a button to try them again.
    func report(_ report: FeedLibrary.RefreshReport) {
        guard !report.failures.isEmpty else { return }
        if let reason = library.store.damageFound {
            showStoreError("", FeedStoreError.damaged(reason))
            return
        }
        let failed = report.failures.map(\.feedID)
        toasts.show(Self.refreshFailure(report), button: tr("_Retry")) { [weak self] in
            guard let self else { return }
            self.refresh(feedIDs: failed, syncingAccountsOf: self.sidebar.selection)
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
        return tr("“%1$@” could not be refreshed: %2$@")
            .replacingOccurrences(of: "%1$@", with: String.isolated(first.title))
            .replacingOccurrences(of: "%2$@", with: reason)
    }
}
