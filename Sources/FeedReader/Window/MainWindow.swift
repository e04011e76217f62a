import CGtk
import FeedCore
import Foundation
import RefreshCore
import RefreshGtk

/// The main window: subscriptions on the side, the selection's entries beside them, the entry
/// being read on the other side.
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    private let library: FeedLibrary
    private let settings: SettingsStore
    let sidebar = FeedSidebar()
    let entryList: EntryListView
    let article = ArticleView()
    let filterBar = EntryFilterBar()
    let banner: Banner
    let importBar = ImportBar()
    /// Takes an OPML file dropped onto the window.
    private(set) var fileDrop: OpaquePointer?
    let toast = UndoToast()
    let preferences: Preferences
    let layout: PaneLayout
    /// Leads back to the pane before while one pane shows at a time.
    private(set) var backButton: UnsafeMutablePointer<GtkWidget>?
    /// Refreshes feeds at their turns while the window (shown or hidden) lives.
    let backgroundRefresh: BackgroundRefresh
    /// A background refresh the entry list's header is showing: its action waits for it rather than fetch again.
    private var backgroundRefreshForHeader: Task<FeedLibrary.RefreshReport, Never>?
    private let application: UnsafeMutablePointer<GtkApplication>
    /// The feeds' icons on disk, fetched after the subscriptions show and after each refresh.
    let icons: FeedIcons
    private var isUpdatingIcons = false
    /// Opens a web or mail address outside the app; tests replace it to see what would open.
    var openLink: (URL) -> Void
    private var feeds: [StoredFeed] = []
    private var folders: [StoredFolder] = []
    private var starredCount = 0
    /// Subscriptions recovered into a new database have no entries yet: they are fetched at once.
    private let fetchesRecoveredFeeds: Bool

    private enum Key {
        static let group = "Window"
        static let width = "width", height = "height", maximized = "maximized", selectedFeed = "selected-feed"
        static let sidebarWidth = "sidebar-width", listWidth = "list-width", collapsedFolders = "collapsed-folders"
        static let storage = "Storage", lastCleanUp = "last-cleanup"
        /// What selected-feed holds while Starred is selected (feed ids are positive).
        static let starredSelection = -1
        /// selected-feed for a folder is -2 - its id, below Starred.
        static func folderSelection(_ id: Int64) -> Int { -2 - Int(id) }
    }

    /// The window over `library`; background refresh runs while `network` (a GNetworkMonitor) says the computer is online.
    init(application: UnsafeMutablePointer<GtkApplication>, library: FeedLibrary, settings: SettingsStore,
         storageNotice: StorageNotice? = nil, network: OpaquePointer = g_network_monitor_get_default()) {
        self.library = library
        self.settings = settings
        if case let .replacedDamagedDatabase(_, recovered, _, _) = storageNotice { fetchesRecoveredFeeds = recovered > 0 } else {
            fetchesRecoveredFeeds = false
        }
        self.application = application
        preferences = Preferences(settings: settings)
        backgroundRefresh = BackgroundRefresh(library: library, network: network)
        icons = FeedIcons(directory: FeedIcons.cacheDirectory(), store: library.store, userAgent: library.fetcher.configuration.userAgent,
                          now: library.now)
        sidebar.icons = FeedIconTextures(icons: icons) { [weak sidebar] in sidebar?.showIconsAgain() }
        entryList = EntryListView(library: library)
        banner = Banner()
        ColorScheme.follow()
        let window = gtk_application_window_new(application)!
        self.window = window
        openLink = { link in gtk_show_uri(cast(window), link.absoluteString, guint32(GDK_CURRENT_TIME)) }
        gtk_window_set_title(cast(window), tr("Feed Reader"))
        gtk_window_set_icon_name(cast(window), FeedReaderApp.applicationID)
        gtk_window_set_default_size(cast(window), Int32(settings.integer(forKey: Key.width, in: Key.group) ?? 1240),
                                    Int32(settings.integer(forKey: Key.height, in: Key.group) ?? 760))
        if settings.integer(forKey: Key.maximized, in: Key.group) == 1 { gtk_window_maximize(cast(window)) }

        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [filterBar.widget, banner.widget, importBar.widget, entryList.widget])
        gtk_widget_set_size_request(content, 300, -1)
        layout = PaneLayout(feeds: sidebar.widget, entries: content, article: article.widget,
                            sidebarWidth: Int32(settings.integer(forKey: Key.sidebarWidth, in: Key.group) ?? 290),
                            listWidth: Int32(settings.integer(forKey: Key.listWidth, in: Key.group) ?? 400))
        gtk_window_set_titlebar(cast(window), makeHeaderBar())
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(cast(overlay), layout.widget)
        gtk_overlay_add_overlay(cast(overlay), toast.widget)
        gtk_window_set_child(cast(window), overlay)

        entryList.header.refreshingAction = { [weak self] in self?.refreshSelection() }
        entryList.onOpen = { [weak self] entry in self?.open(entry) }
        entryList.onSelect = { [weak self] entry in self?.showArticle(entry) }
        entryList.onClick = { [weak self] in self?.showArticlePane() }
        sidebar.onActivate = { [weak self] in self?.layout.show(.entries) }
        layout.onChange = { [weak self] in self?.layoutChanged() }
        filterBar.onFilter = { [weak self] filter in self?.entryList.setFilter(filter) }
        filterBar.onSearch = { [weak self] text in self?.entryList.search(text) }
        article.onOpenLink = { [weak self] link in self?.openExternally(link) }
        entryList.onError = { [weak self] message, error in self?.showStoreError(message, error) }
        let startNotices = [settings.recoveryNote.map { _ in Self.settingsResetMessage(keptAt: settings.setAsidePath) },
                            storageNotice.map(Self.storageMessage)].compactMap { $0 }
        if !startNotices.isEmpty { banner.showStartNotice(startNotices.joined(separator: "\n"), details: storageNotice?.details) }
        sidebar.onSelect = { [weak self] selection in self?.select(selection) }
        sidebar.onMoveFeed = { [weak self] feedID, folderID in self?.moveFeed(feedID, toFolder: folderID) }
        sidebar.onMoveFolder = { [weak self] folderID, parentID in self?.moveFolder(folderID, into: parentID) }
        sidebar.collapsed = Set((settings.string(forKey: Key.collapsedFolders, in: Key.group) ?? "").split(separator: ",").compactMap { Int64($0) })
        sidebar.onCollapse = { [weak self] closed in
            self?.settings.setString(closed.sorted().map(String.init).joined(separator: ","), forKey: Key.collapsedFolders, in: Key.group)
        }
        addActions(application: application)
        fileDrop = FileDrop.install(on: window) { [weak self] file in self?.importSubscriptions(from: file) }
        Signal.connect(cast(window), "unrealize") { [weak self] in self?.saveSize() }
        backgroundRefresh.run = { [weak self] due in await self?.refreshInBackground(due) }
        preferences.onChange = { [weak self] in self?.preferencesChanged() }
        Signal.connectReturningBool(cast(window), "close-request") { [weak self] in self?.closeRequested() ?? false }
        Signal.connect(cast(window), "destroy") { [weak self] in self?.windowDestroyed() }
    }

    func present() {
        gtk_window_present(cast(window))
        start()
        backgroundRefresh.minutes = preferences.refreshMinutes
    }

    /// First run: subscribes to the bundled samples so the window is never empty; then shows the
    /// stored entries at once, without waiting for the network.
    private func start() {
        Task { @MainActor [weak self, library] in
            await library.subscribeToSamplesIfEmpty(in: AppData.sampleFeeds)
            guard let self else { return }
            let saved = self.settings.integer(forKey: Key.selectedFeed, in: Key.group)
            let selection: FeedSelection = switch saved {
            case nil: .all
            case Key.starredSelection: .starred
            case let value? where value < Key.starredSelection: .folder(Int64(-2 - value))
            case let value?: .feed(Int64(value))
            }
            await self.reloadFeeds(selecting: selection)
            self.entryList.show(self.sidebar.selection, feedTitles: self.feedTitles)
            if self.fetchesRecoveredFeeds { self.entryList.header.beginRefreshing() }
            self.updateIcons()
            MainThread.whenIdle { [weak self] in self?.cleanUpIfDue() }
        }
    }

    /// Fetches the icons that are missing or due for a check, and shows the ones that changed.
    private func updateIcons() {
        guard !isUpdatingIcons else { return }
        isUpdatingIcons = true
        let feeds = feeds
        Task { @MainActor [weak self, icons] in
            let changed = await icons.update(feeds)
            guard let self else { return }
            self.isUpdatingIcons = false
            guard !changed.isEmpty else { return }
            self.sidebar.icons?.invalidate(feeds.filter { changed.contains($0.id) })
            self.sidebar.showIconsAgain()
        }
    }

    /// Removes the entries the retention preferences let go, at most once a day.
    private func cleanUpIfDue() {
        let now = library.now()
        if let last = settings.date(forKey: Key.lastCleanUp, in: Key.storage), now.timeIntervalSince(last) < 86400 { return }
        let retention = preferences.retention
        Task { @MainActor [weak self, library] in
            do {
                let removed = try await library.cleanUp(retention)
                guard let self else { return }
                self.settings.setDate(now, forKey: Key.lastCleanUp, in: Key.storage)
                if removed > 0 {
                    await self.reloadSidebar()
                    self.entryList.reload()
                }
            } catch {
                self?.banner.show(tr("Old entries could not be removed."))
            }
        }
    }

    /// What the banner says when the settings file could not be read and was started afresh.
    static func settingsResetMessage(keptAt path: String?) -> String {
        guard let path else {
            // TRANSLATORS: the settings file could not be read, nor moved aside.
            return tr("Your settings could not be read, so the defaults are used.")
        }
        // TRANSLATORS: the settings file could not be read; %@ is where the damaged file was kept.
        return tr("Your settings could not be read, so the defaults are used. The damaged file was kept as %@.")
            .replacingOccurrences(of: "%@", with: path)
    }

    /// What the banner says when the database or its folder was found in trouble at start.
    static func storageMessage(_ notice: StorageNotice) -> String {
        switch notice {
        case let .replacedDamagedDatabase(keptAt, recovered, source, _):
            let recovery = switch source {
            case .damagedDatabase:
                trn("%d subscription was recovered from it.", "%d subscriptions were recovered from it.", recovered)
            case .subscriptionsCopy:
                trn("%d subscription was recovered from the saved copy of your subscriptions.",
                    "%d subscriptions were recovered from the saved copy of your subscriptions.", recovered)
            case nil:
                tr("No subscriptions could be recovered.")
            }
            // TRANSLATORS: %@ is where the damaged database file was kept.
            let kept = tr("The damaged file was kept as %@.").replacingOccurrences(of: "%@", with: keptAt)
            return [tr("The feed database was damaged, so a new one was made."),
                    recovery.replacingOccurrences(of: "%d", with: "\(recovered)"), kept].joined(separator: " ")
        case let .folderReadOnly(folder, _, _):
            // TRANSLATORS: %@ is the folder holding the feed database.
            return tr("Your feeds are kept in %@, which cannot be written to, so changes you make now will be lost when you quit.")
                .replacingOccurrences(of: "%@", with: folder)
        case let .folderUnavailable(folder, _):
            // TRANSLATORS: %@ is the folder the feed database should be in.
            return tr("The folder %@ could not be created, so your feeds will not be kept after you quit.")
                .replacingOccurrences(of: "%@", with: folder)
        }
    }

    /// Says that `failure` happened, with the store's own words only as details; a database found
    /// damaged says so instead, since nothing more can be saved until the next start repairs it.
    private func showStoreError(_ failure: String, _ error: Error) {
        if let reason = library.store.damageFound {
            banner.show(tr("The feed database is damaged, so nothing more is saved to it. Restart Feed Reader to repair it; your subscriptions will be recovered."),
                        details: reason)
        } else {
            banner.show(failure, details: "\(error)")
        }
    }

    private var feedTitles: [Int64: String] {
        Dictionary(feeds.map { ($0.id, FeedSidebar.title(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    private func reloadFeeds(selecting selection: FeedSelection) async {
        do {
            feeds = try await library.store.feeds()
            folders = try await library.store.folders()
            starredCount = try await library.store.entryCount(starredOnly: true)
            sidebar.show(feeds, folders: folders, starred: starredCount, selecting: selection)
            entryList.updateFeedTitles(feedTitles)
        } catch {
            showStoreError(tr("The subscriptions could not be read."), error)
        }
    }

    private func select(_ selection: FeedSelection) {
        let saved: Int? = switch selection {
        case .all: nil
        case .starred: Key.starredSelection
        case let .folder(id): Key.folderSelection(id)
        case let .feed(id): Int(id)
        }
        settings.setInteger(saved, forKey: Key.selectedFeed, in: Key.group)
        entryList.show(selection, feedTitles: feedTitles)
    }

    // MARK: - Refreshing

    /// Fetches every feed of the selection; the header shows "Loading..." until the last is done.
    /// When the header shows a background refresh, waits for that one instead.
    private func refreshSelection() {
        let selection = sidebar.selection
        let feedIDs = feedIDs(of: selection)
        let background = backgroundRefreshForHeader
        backgroundRefreshForHeader = nil
        if background == nil { banner.hideProblem() }
        Task { @MainActor [weak self, library] in
            let report: FeedLibrary.RefreshReport
            if let background {
                report = await background.value
            } else {
                report = await library.refresh(feedIDs: feedIDs)
            }
            guard let self else { return }
            await self.reloadFeeds(selecting: selection)
            self.entryList.reload(scrollToTop: report.newEntries > 0) { [weak self] in
                self?.entryList.header.endRefreshing()
            }
            // A feed failing in the background is marked in the sidebar; a banner every half hour would nag.
            if background == nil { self.report(report) }
            self.updateIcons()
        }
    }

    /// The feeds a selection refreshes: nil for all of them.
    private func feedIDs(of selection: FeedSelection) -> [Int64]? {
        switch selection {
        case .all, .starred: nil
        case let .feed(id): [id]
        case let .folder(id): feedIDs(inFolder: id)
        }
    }

    /// The feeds in a folder and in the folders below it.
    private func feedIDs(inFolder folderID: Int64) -> [Int64] {
        let inside = folders.subtree(of: folderID)
        return feeds.filter { $0.folderID.map(inside.contains) == true }.map(\.id)
    }

    /// Refreshes the feeds whose background turn came; the entry list's header shows it when the
    /// list shows one of them, and a notification tells of new entries.
    private func refreshInBackground(_ due: [StoredFeed]) async {
        let ids = due.map(\.id)
        let refresh = Task { @MainActor [library] in await library.refresh(feedIDs: ids) }
        let listShowsThem = feedIDs(of: sidebar.selection).map { !Set($0).isDisjoint(with: ids) } ?? true
        let headerShowsIt = listShowsThem && gtk_widget_get_mapped(entryList.widget) != 0 && !entryList.header.isRefreshing
        if headerShowsIt {
            backgroundRefreshForHeader = refresh
            entryList.header.beginRefreshing()
        }
        let report = await refresh.value
        if !headerShowsIt {
            await reloadSidebar()
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

    /// Whether the window is shown and has the keyboard focus (a hidden window may still say it is active).
    private var isFocused: Bool {
        gtk_widget_get_visible(window) != 0 && gtk_window_is_active(cast(window)) != 0
    }

    /// A click on the notification: the window comes up showing the unread entries of all feeds.
    private func showNewEntries() {
        gtk_window_present(cast(window))
        sidebar.select(.all)
        filterBar.select(.unread)
        g_application_withdraw_notification(cast(application), NewEntriesNotification.id)
    }

    private func preferencesChanged() {
        backgroundRefresh.minutes = preferences.refreshMinutes
    }

    /// Closing hides the window and keeps refreshing only when the user chose to run in the background.
    private func closeRequested() -> Bool {
        guard preferences.runsInBackground, preferences.refreshMinutes > 0 else { return false }
        gtk_widget_set_visible(window, 0)
        return true
    }

    private func windowDestroyed() {
        backgroundRefresh.stop()
        g_action_map_remove_action(cast(application), NewEntriesNotification.action)
    }

    private func report(_ report: FeedLibrary.RefreshReport) {
        guard let first = report.failures.first else { return }
        if let reason = library.store.damageFound {
            showStoreError("", FeedStoreError.damaged(reason))
            return
        }
        let count = report.failures.count
        let summary = trn("%d feed could not be refreshed", "%d feeds could not be refreshed", count)
            .replacingOccurrences(of: "%d", with: "\(count)")
        let message = first.details == nil ? first.message : tr("the entries could not be saved")
        banner.show("\(summary): \(first.title) — \(message)", details: first.details)
    }

    // MARK: - Panes

    /// Narrow, the back button shows beyond the feeds, and the pane shown takes the focus.
    private func layoutChanged() {
        if let backButton { gtk_widget_set_visible(backButton, (layout.isNarrow && layout.page != .feeds).gboolean) }
        guard layout.isNarrow else { return }
        switch layout.page {
        case .feeds: _ = gtk_widget_child_focus(sidebar.widget, GTK_DIR_TAB_FORWARD)
        case .entries: _ = gtk_widget_grab_focus(entryList.listView)
        case .article:
            // Enter, which showed the article, then opens it in the browser, as it does where the list and article show side by side.
            if gtk_widget_is_sensitive(article.openButton) != 0 {
                gtk_widget_grab_focus(article.openButton)
            } else {
                _ = gtk_widget_child_focus(article.widget, GTK_DIR_TAB_FORWARD)
            }
        }
    }

    /// Narrow, the article replaces the list once an entry is selected to be read.
    private func showArticlePane() {
        guard entryList.selectedEntry != nil else { return }
        layout.show(.article)
    }

    /// Enter on an entry: narrow, on the list, shows its article; otherwise opens its page in the browser.
    private func open(_ entry: StoredEntry) {
        if layout.isNarrow, layout.page == .entries {
            showArticlePane()
        } else {
            openInBrowser(entry)
        }
    }

    // MARK: - Entries

    /// Shows the entry beside the list and marks it read; with no entry left to show, a narrow
    /// window goes back to the list.
    private func showArticle(_ entry: StoredEntry?) {
        guard let entry else {
            article.clear()
            if layout.page == .article { layout.show(.entries) }
            return
        }
        showBody(of: entry)
        if !entry.isRead && preferences.marksReadWhenShown { setRead(entry, true) }
    }

    /// Reads the entry's body, which the list does not keep, and shows it unless another entry
    /// was selected meanwhile; read and starred as the list shows them now.
    private func showBody(of listed: StoredEntry) {
        Task { @MainActor [weak self, library] in
            let stored: StoredEntry?
            do {
                stored = try await library.store.entry(id: listed.id)
            } catch {
                self?.showStoreError(tr("The stored entries could not be read."), error)
                return
            }
            guard let self, var entry = stored, let current = self.entryList.selectedEntry, current.id == entry.id else { return }
            entry.isRead = current.isRead
            entry.isStarred = current.isStarred
            self.article.show(entry, feedTitle: self.feedTitles[entry.feedID])
        }
    }

    /// Marks one entry read or unread, in the store, its row and the unread counts.
    private func setRead(_ entry: StoredEntry, _ isRead: Bool) {
        var changed = entry
        changed.isRead = isRead
        apply(changed, failure: tr("The read state could not be saved.")) { store in
            try await store.markRead(entryID: entry.id, isRead: isRead)
        }
    }

    /// Stars or unstars one entry, in the store, its row, the article and the Starred count.
    private func setStarred(_ entry: StoredEntry, _ isStarred: Bool) {
        var changed = entry
        changed.isStarred = isStarred
        apply(changed, failure: tr("The star could not be saved.")) { store in
            try await store.setStarred(entryID: entry.id, isStarred: isStarred)
        }
    }

    /// Shows `changed` in its row and the article at once, then saves it with `save` and
    /// refreshes the sidebar's counts; a failed save shows `failure` and the reason.
    private func apply(_ changed: StoredEntry, failure: String, save: @escaping @Sendable (FeedStore) async throws -> Void) {
        entryList.update(changed)
        article.update(changed)
        Task { @MainActor [weak self, library] in
            do {
                try await save(library.store)
            } catch {
                self?.showStoreError(failure, error)
            }
            await self?.reloadSidebar()
        }
    }

    private func reloadSidebar() async {
        await reloadFeeds(selecting: sidebar.selection)
    }

    /// Opens the entry's page in the browser.
    private func openInBrowser(_ entry: StoredEntry) {
        guard let link = entry.link else { return }
        openExternally(link)
    }

    /// Opens a link outside the app, if it is a web or mail link.
    private func openExternally(_ link: URL) {
        guard Self.opensInBrowser(link) else { return }
        openLink(link)
    }

    /// Only web and mail links leave the app: a feed must not make us open files or run handlers.
    nonisolated static func opensInBrowser(_ link: URL) -> Bool {
        guard let scheme = link.scheme?.lowercased() else { return false }
        return ["http", "https", "mailto"].contains(scheme)
    }

    /// Marks every entry of a feed (or of all) read, offering to undo it for a few seconds.
    private func markRead(feedID: Int64?) {
        Task { @MainActor [weak self, library] in
            let changed: [Int64]
            do {
                changed = try await library.store.markAllRead(feedID: feedID)
            } catch {
                self?.showStoreError(tr("The read state could not be saved."), error)
                return
            }
            guard let self else { return }
            await self.afterReadStateChanged()
            guard !changed.isEmpty else { return }
            let text = trn("%d entry marked as read", "%d entries marked as read", changed.count)
                .replacingOccurrences(of: "%d", with: "\(changed.count)")
            self.toast.show(text) { [weak self] in self?.undoMarkRead(changed) }
        }
    }

    private func undoMarkRead(_ entryIDs: [Int64]) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.setRead(false, entryIDs: entryIDs)
            } catch {
                self?.showStoreError(tr("The read state could not be saved."), error)
            }
            await self?.afterReadStateChanged()
        }
    }

    private func afterReadStateChanged() async {
        await reloadSidebar()
        entryList.reload()
    }

    /// Marks the entry (the selected one when nil) unread if it is read, read if not.
    private func toggleRead(entryID: Int64? = nil) {
        guard let entry = entryID.flatMap({ entryList.entries[$0] }) ?? entryList.selectedEntry else { return }
        setRead(entry, !entry.isRead)
    }

    /// Stars the entry (the selected one when nil), or unstars it.
    private func toggleStar(entryID: Int64? = nil) {
        guard let entry = entryID.flatMap({ entryList.entries[$0] }) ?? entryList.selectedEntry else { return }
        setStarred(entry, !entry.isStarred)
    }

    private func remove(feedID: Int64) {
        guard let feed = feeds.first(where: { $0.id == feedID }) else { return }
        // TRANSLATORS: %@ is the feed's title.
        let body = tr("“%@” and all its entries will be removed.").replacingOccurrences(of: "%@", with: FeedSidebar.title(of: feed))
        ConfirmDialog.present(over: window, heading: tr("Remove Feed?"), body: body, confirm: tr("_Remove")) { [weak self] in
            Task { @MainActor [weak self] in
                guard let self else { return }
                do {
                    try await self.library.store.removeFeed(id: feedID)
                } catch {
                    self.showStoreError(tr("The feed could not be removed."), error)
                }
                let selection = self.sidebar.selectedFeedID == feedID ? .all : self.sidebar.selection
                await self.reloadFeeds(selecting: selection)
                self.entryList.show(self.sidebar.selection, feedTitles: self.feedTitles)
            }
        }
    }

    // MARK: - Folders

    /// Puts a feed in a folder (nil: out of any) and shows it there, and in the folder's entries
    /// when a folder is selected.
    func moveFeed(_ feedID: Int64, toFolder folderID: Int64?) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.moveFeed(feedID, toFolder: folderID)
            } catch {
                self?.showStoreError(tr("The feed could not be moved."), error)
            }
            guard let self else { return }
            await self.reloadSidebar()
            if self.sidebar.selection.folderID != nil { self.entryList.reload() }
        }
    }

    /// Puts a folder, with all it holds, into another (nil: at the top of the list).
    func moveFolder(_ folderID: Int64, into parentID: Int64?) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.moveFolder(folderID, into: parentID)
            } catch FeedStoreError.folderExists(let name) {
                self?.banner.show(tr("There is already a folder named “%@”.").replacingOccurrences(of: "%@", with: name))
            } catch FeedStoreError.folderInsideItself {
                self?.banner.show(tr("A folder cannot be moved into itself or into a folder inside it."))
            } catch {
                self?.showStoreError(tr("The folder could not be moved."), error)
            }
            guard let self else { return }
            await self.reloadSidebar()
            if self.sidebar.selection.folderID != nil { self.entryList.reload() }
        }
    }

    /// Makes a folder named `name` and moves `feedID` into it, when given.
    func createFolder(named name: String, moving feedID: Int64? = nil) {
        Task { @MainActor [weak self, library] in
            do {
                let folderID = try await library.store.createFolder(named: name)
                if let feedID { try await library.store.moveFeed(feedID, toFolder: folderID) }
            } catch {
                self?.showStoreError(tr("The folder could not be created."), error)
            }
            await self?.reloadSidebar()
        }
    }

    func renameFolder(_ folderID: Int64, to name: String) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.renameFolder(folderID, to: name)
            } catch FeedStoreError.folderExists {
                // TRANSLATORS: %@ is the name the person chose for a folder.
                self?.banner.show(tr("There is already a folder named “%@”.").replacingOccurrences(of: "%@", with: name))
            } catch {
                self?.showStoreError(tr("The folder could not be renamed."), error)
            }
            await self?.reloadSidebar()
        }
    }

    /// Deletes a folder; what it holds moves up into the folder it was in, feeds staying subscribed.
    func deleteFolder(_ folderID: Int64) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.deleteFolder(folderID)
            } catch {
                self?.showStoreError(tr("The folder could not be deleted."), error)
            }
            guard let self else { return }
            await self.reloadFeeds(selecting: self.sidebar.selection == .folder(folderID) ? .all : self.sidebar.selection)
            self.entryList.show(self.sidebar.selection, feedTitles: self.feedTitles)
        }
    }

    /// What deleting `folder` does to what it holds, asked before it is done.
    static func deletingSays(_ folder: StoredFolder) -> String {
        let text = folder.parentID == nil
            // TRANSLATORS: %@ is the name of the folder to be deleted, which is in no other folder.
            ? tr("The feeds and folders in “%@” are kept: they move out of it, to the top of the list.")
            // TRANSLATORS: %@ is the name of the folder to be deleted, which is in another folder.
            : tr("The feeds and folders in “%@” are kept: they move out of it, into the folder it is in.")
        return text.replacingOccurrences(of: "%@", with: folder.name)
    }

    private func addFolderActions() {
        let pair = g_variant_type_new("(xx)")
        defer { g_variant_type_free(pair) }
        let move = g_simple_action_new("move-to-folder", pair)!
        Signal.connectObjectOrNil(cast(move), "activate") { [weak self] parameter in
            guard let parameter else { return }
            let tuple = OpaquePointer(parameter)
            let (feed, folder) = (g_variant_get_child_value(tuple, 0)!, g_variant_get_child_value(tuple, 1)!)
            defer { g_variant_unref(feed); g_variant_unref(folder) }
            let (feedID, folderID) = (Int64(g_variant_get_int64(feed)), Int64(g_variant_get_int64(folder)))
            self?.moveFeed(feedID, toFolder: folderID == 0 ? nil : folderID)
        }
        g_action_map_add_action(cast(window), cast(move))
        g_object_unref(cast(move))
        let moveFolder = g_simple_action_new("move-folder", pair)!
        Signal.connectObjectOrNil(cast(moveFolder), "activate") { [weak self] parameter in
            guard let parameter else { return }
            let tuple = OpaquePointer(parameter)
            let (folder, parent) = (g_variant_get_child_value(tuple, 0)!, g_variant_get_child_value(tuple, 1)!)
            defer { g_variant_unref(folder); g_variant_unref(parent) }
            let (folderID, parentID) = (Int64(g_variant_get_int64(folder)), Int64(g_variant_get_int64(parent)))
            self?.moveFolder(folderID, into: parentID == 0 ? nil : parentID)
        }
        g_action_map_add_action(cast(window), cast(moveFolder))
        g_object_unref(cast(moveFolder))
        Widgets.addAction(to: window, "move-to-new-folder", withInt64: true) { [weak self] feedID in
            guard let self else { return }
            NameDialog.present(over: self.window, title: tr("New Folder"), confirm: tr("_Create")) { [weak self] name in
                self?.createFolder(named: name, moving: feedID)
            }
        }
        Widgets.addAction(to: window, "new-folder") { [weak self] _ in
            guard let self else { return }
            NameDialog.present(over: self.window, title: tr("New Folder"), confirm: tr("_Create")) { [weak self] name in
                self?.createFolder(named: name)
            }
        }
        Widgets.addAction(to: window, "rename-folder", withInt64: true) { [weak self] folderID in
            guard let self, let folder = self.folders.first(where: { $0.id == folderID }) else { return }
            NameDialog.present(over: self.window, title: tr("Rename Folder"), text: folder.name, confirm: tr("_Rename")) { [weak self] name in
                self?.renameFolder(folderID, to: name)
            }
        }
        Widgets.addAction(to: window, "delete-folder", withInt64: true) { [weak self] folderID in
            guard let self, let folder = self.folders.first(where: { $0.id == folderID }) else { return }
            ConfirmDialog.present(over: self.window, heading: tr("Delete Folder?"), body: Self.deletingSays(folder),
                                  confirm: tr("_Delete")) { [weak self] in
                self?.deleteFolder(folderID)
            }
        }
    }

    // MARK: - Importing and exporting subscriptions

    /// Subscribes to the feeds of an OPML file, showing the fetching of the new ones as it goes.
    func importSubscriptions(from file: URL) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            // TRANSLATORS: %@ is the path of the file to import.
            banner.show(tr("The file %@ could not be read.").replacingOccurrences(of: "%@", with: file.path), details: "\(error)")
            return
        }
        importBar.showProgress(done: 0, total: 0)
        Task { @MainActor [weak self, library] in
            do {
                let report = try await library.importSubscriptions(from: data) { [weak self] done, total in
                    await self?.importProgressed(done: done, total: total)
                }
                guard let self else { return }
                self.importBar.showMessage(ImportBar.summary(of: report))
                await self.reloadSidebar()
                self.entryList.reload()
                self.updateIcons()
            } catch let error as OPMLDocument.ReadError {
                self?.importBar.hide()
                self?.banner.show(Self.importFailure(error), details: error.description)
            } catch {
                self?.importBar.hide()
                self?.showStoreError(tr("The subscriptions could not be imported."), error)
            }
        }
    }

    /// The new feeds are in the list once their fetching starts; entries follow at the end.
    private func importProgressed(done: Int, total: Int) async {
        importBar.showProgress(done: done, total: total)
        if done == 0 { await reloadSidebar() }
    }

    /// Why a file could not be imported, saying that nothing was.
    static func importFailure(_ error: OPMLDocument.ReadError) -> String {
        switch error {
        case let .malformed(line, _):
            // TRANSLATORS: %d is the line of the file where it stops being valid.
            tr("The file is broken at line %d, so nothing was imported.").replacingOccurrences(of: "%d", with: "\(line)")
        case .notOPML:
            tr("The file is not a subscription list (OPML), so nothing was imported.")
        }
    }

    /// Writes the subscriptions with their folders to an OPML file.
    func exportSubscriptions(to file: URL) {
        Task { @MainActor [weak self, library] in
            do {
                let data = try await library.exportSubscriptions()
                try data.write(to: file, options: .atomic)
                let count = try await library.store.feeds().count
                self?.importBar.showMessage(ImportBar.exported(count, to: file))
            } catch {
                // TRANSLATORS: %@ is the path of the file the subscriptions were to be written to.
                self?.banner.show(tr("The subscriptions could not be exported to %@.").replacingOccurrences(of: "%@", with: file.path),
                                  details: "\(error)")
            }
        }
    }

    private func chooseFileToImport() {
        FileChooser.present(over: window, title: tr("Import Subscriptions"), accept: tr("_Import"), saving: false) { [weak self] file in
            self?.importSubscriptions(from: file)
        }
    }

    private func chooseFileToExport() {
        FileChooser.present(over: window, title: tr("Export Subscriptions"), accept: tr("_Export"), saving: true,
                            suggestedName: "subscriptions.opml") { [weak self] file in
            self?.exportSubscriptions(to: file)
        }
    }

    // MARK: - Chrome

    private func makeHeaderBar() -> UnsafeMutablePointer<GtkWidget> {
        let bar = gtk_header_bar_new()!
        // GTK draws go-previous mirrored in right-to-left languages.
        let back = gtk_button_new_from_icon_name("go-previous-symbolic")!
        Widgets.name(back, tr("Back"))
        gtk_actionable_set_action_name(cast(back), "win.back")
        gtk_widget_set_visible(back, (layout.isNarrow && layout.page != .feeds).gboolean)
        backButton = back
        gtk_header_bar_pack_start(cast(bar), back)
        let refresh = gtk_button_new_from_icon_name("view-refresh-symbolic")!
        Widgets.name(refresh, tr("Refresh"))
        gtk_actionable_set_action_name(cast(refresh), "win.refresh")
        let add = gtk_button_new_from_icon_name("list-add-symbolic")!
        Widgets.name(add, tr("Add Feed"))
        gtk_actionable_set_action_name(cast(add), "win.add-feed")
        gtk_header_bar_pack_start(cast(bar), add)
        gtk_header_bar_pack_start(cast(bar), refresh)

        let menu = g_menu_new()!
        g_menu_append(menu, tr("_Add Feed…"), "win.add-feed")
        g_menu_append(menu, tr("_Mark All as Read"), "win.mark-all-read")
        g_menu_append(menu, tr("New _Folder…"), "win.new-folder")
        g_menu_append(menu, tr("_Import Subscriptions…"), "win.import-subscriptions")
        g_menu_append(menu, tr("_Export Subscriptions…"), "win.export-subscriptions")
        g_menu_append(menu, tr("_Preferences"), "win.preferences")
        g_menu_append(menu, tr("_Keyboard Shortcuts"), "win.shortcuts")
        let languages = LanguageMenu.model()
        g_menu_append_submenu(menu, tr("_Language"), cast(languages))
        g_object_unref(cast(languages))
        g_menu_append(menu, tr("_About Feed Reader"), "win.about")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(cast(button), cast(menu))
        Widgets.name(button, tr("Main Menu"))
        g_object_unref(cast(menu))
        gtk_header_bar_pack_end(cast(bar), button)
        return bar
    }

    private func addActions(application: UnsafeMutablePointer<GtkApplication>) {
        Widgets.addAction(to: window, "refresh") { [weak self] _ in self?.entryList.header.beginRefreshing() }
        Widgets.addAction(to: window, "add-feed") { [weak self] _ in
            guard let self else { return }
            AddFeedDialog.present(over: self.window, library: self.library) { [weak self] feed in
                Task { @MainActor [weak self] in
                    await self?.reloadFeeds(selecting: .feed(feed.id))
                    self?.select(.feed(feed.id))
                }
            }
        }
        Widgets.addAction(to: window, "mark-all-read") { [weak self] _ in self?.markRead(feedID: nil) }
        addFolderActions()
        Widgets.addAction(to: window, "import-subscriptions") { [weak self] _ in self?.chooseFileToImport() }
        Widgets.addAction(to: window, "export-subscriptions") { [weak self] _ in self?.chooseFileToExport() }
        Widgets.addAction(to: window, "mark-feed-read", withInt64: true) { [weak self] id in self?.markRead(feedID: id) }
        Widgets.addAction(to: window, "remove-feed", withInt64: true) { [weak self] id in self?.remove(feedID: id) }
        Widgets.addAction(to: window, "about") { [weak self] _ in self?.showAbout() }
        Widgets.addAction(to: window, "open-in-browser") { [weak self] _ in
            guard let entry = self?.entryList.selectedEntry else { return }
            self?.openInBrowser(entry)
        }
        Widgets.addAction(to: window, "toggle-read") { [weak self] _ in self?.toggleRead() }
        Widgets.addAction(to: window, "toggle-star") { [weak self] _ in self?.toggleStar() }
        Widgets.addAction(to: window, "toggle-read-entry", withInt64: true) { [weak self] id in self?.toggleRead(entryID: id) }
        Widgets.addAction(to: window, "toggle-star-entry", withInt64: true) { [weak self] id in self?.toggleStar(entryID: id) }
        for (name, filter) in [("show-all", EntryFilter.all), ("show-unread", .unread), ("show-starred", .starred)] {
            Widgets.addAction(to: window, name) { [weak self] _ in self?.filterBar.select(filter) }
        }
        Widgets.addAction(to: window, "search") { [weak self] _ in self?.filterBar.startSearch() }
        Widgets.addAction(to: window, "entry-menu") { [weak self] _ in
            guard let self else { return }
            // The menu of the row with the keyboard's focus: a feed's or folder's in the sidebar, else the entry's.
            if let focus = gtk_root_get_focus(cast(self.window)), gtk_widget_is_ancestor(focus, self.sidebar.widget) != 0 {
                self.sidebar.showMenuForSelection()
            } else {
                self.entryList.showMenuForSelection()
            }
        }
        Widgets.addAction(to: window, "open-entry", withInt64: true) { [weak self] id in
            guard let entry = self?.entryList.entries[id] else { return }
            self?.openInBrowser(entry)
        }
        Widgets.addAction(to: window, "preferences") { [weak self] _ in
            guard let self else { return }
            self.preferences.present(over: self.window)
        }
        Widgets.addAction(to: window, "next-entry") { [weak self] _ in self?.read { $0.entryList.selectAdjacent(1) } }
        Widgets.addAction(to: window, "previous-entry") { [weak self] _ in self?.read { $0.entryList.selectAdjacent(-1) } }
        Widgets.addAction(to: window, "next-feed") { [weak self] _ in self?.browse { $0.sidebar.selectAdjacent(1) } }
        Widgets.addAction(to: window, "previous-feed") { [weak self] _ in self?.browse { $0.sidebar.selectAdjacent(-1) } }
        Widgets.addAction(to: window, "page-or-next-unread") { [weak self] _ in
            self?.article.pageDown { [weak self] atEnd in
                if atEnd { self?.read { $0.entryList.selectNextUnread() } }
            }
        }
        Widgets.addAction(to: window, "back") { [weak self] _ in self?.layout.back() }
        Widgets.addAction(to: window, "shortcuts") { [weak self] _ in
            guard let self else { return }
            ShortcutsWindow.present(over: self.window)
        }
        Widgets.addAction(to: window, "quit") { _ in g_application_quit(g_application_get_default()) }
        let showNew = g_simple_action_new(NewEntriesNotification.action, nil)!
        Signal.connectIgnoringArgument(cast(showNew), "activate") { [weak self] in self?.showNewEntries() }
        g_action_map_add_action(cast(application), cast(showNew))
        g_object_unref(cast(showNew))
        let keys: [(Int32, String)] = [
            (GDK_KEY_o, "open-in-browser"), (GDK_KEY_m, "toggle-read"), (GDK_KEY_s, "toggle-star"),
            (GDK_KEY_j, "next-entry"), (GDK_KEY_k, "previous-entry"), (GDK_KEY_J, "next-feed"), (GDK_KEY_K, "previous-feed"),
            (GDK_KEY_space, "page-or-next-unread"), (GDK_KEY_r, "refresh"),
        ]
        KeyShortcuts.install(on: window, keys.map { KeyShortcuts.Key(keyval: guint($0.0), action: "win." + $0.1) })
        addLanguageAction()
        let shortcuts = [("win.refresh", ["F5", "<Control>r"]), ("win.add-feed", ["<Control>n"]), ("win.new-folder", ["<Shift><Control>n"]),
                         ("win.preferences", ["<Control>comma"]), ("win.entry-menu", ["<Shift>F10", "Menu"]),
                         ("win.show-all", ["<Control>1"]), ("win.show-unread", ["<Control>2"]),
                         ("win.show-starred", ["<Control>3"]), ("win.search", ["<Control>f"]),
                         ("win.next-feed", ["<Control>j"]), ("win.previous-feed", ["<Control>k"]),
                         ("win.shortcuts", ["<Control>question"]), ("win.quit", ["<Control>q"]),
                         ("win.back", [Self.backKey]), ("window.close", ["<Control>w"])]
        for (action, keys) in shortcuts {
            withCStringArray(keys) { gtk_application_set_accels_for_action(application, action, $0) }
        }
    }

    /// Alt and the arrow pointing back: left, or right in a right-to-left language.
    private static var backKey: String {
        gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? "<Alt>Right" : "<Alt>Left"
    }

    /// Selects another entry with `select`, then shows its article when one pane shows at a time.
    private func read(_ select: (MainWindow) -> Void) {
        select(self)
        showArticlePane()
    }

    /// Selects another feed with `select`, then shows its entries when one pane shows at a time.
    private func browse(_ select: (MainWindow) -> Void) {
        select(self)
        layout.show(.entries)
    }

    /// A stateful action: the menu shows the current choice as a radio item.
    private func addLanguageAction() {
        let saved = settings.string(forKey: LanguageMenu.settingsKey, in: LanguageMenu.settingsGroup) ?? ""
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new_stateful("language", type, g_variant_new_string(saved))!
        Signal.connectObjectOrNil(cast(action), "activate") { [weak self] parameter in
            guard let parameter else { return }
            let code = String(cString: g_variant_get_string(OpaquePointer(parameter), nil))
            g_simple_action_set_state(action, g_variant_new_string(code))
            self?.switchLanguage(to: code)
        }
        g_action_map_add_action(cast(window), cast(action))
        g_object_unref(cast(action))
    }

    /// Switches every visible text at once and remembers the choice.
    func switchLanguage(to code: String) {
        settings.setString(code, forKey: LanguageMenu.settingsKey, in: LanguageMenu.settingsGroup)
        RefreshLocalization.setLanguage(code.isEmpty ? nil : code)
        gtk_window_set_title(cast(window), tr("Feed Reader"))
        gtk_window_set_titlebar(cast(window), makeHeaderBar())
        sidebar.show(feeds, folders: folders, starred: starredCount, selecting: sidebar.selection)
        sidebar.retranslate()
        layout.retranslate()
        entryList.retranslate()
        article.retranslate()
        filterBar.retranslate()
        banner.retranslate()
        importBar.retranslate()
        toast.retranslate()
    }

    private func showAbout() {
        let about = gtk_about_dialog_new()!
        gtk_about_dialog_set_program_name(cast(about), tr("Feed Reader"))
        gtk_about_dialog_set_logo_icon_name(cast(about), FeedReaderApp.applicationID)
        gtk_about_dialog_set_version(cast(about), FeedReaderApp.version)
        gtk_about_dialog_set_comments(cast(about), tr("Read your feeds; pull down to refresh."))
        gtk_about_dialog_set_license_type(cast(about), GTK_LICENSE_MIT_X11)
        gtk_window_set_transient_for(cast(about), cast(window))
        gtk_window_set_modal(cast(about), 1)
        gtk_window_present(cast(about))
    }

    private func saveSize() {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(cast(window), &width, &height)
        let maximized = gtk_window_is_maximized(cast(window)) != 0
        if !maximized, width > 0, height > 0 {
            settings.setInteger(Int(width), forKey: Key.width, in: Key.group)
            settings.setInteger(Int(height), forKey: Key.height, in: Key.group)
        }
        settings.setInteger(maximized ? 1 : 0, forKey: Key.maximized, in: Key.group)
        settings.setInteger(Int(layout.sidebarWidth), forKey: Key.sidebarWidth, in: Key.group)
        settings.setInteger(Int(layout.listWidth), forKey: Key.listWidth, in: Key.group)
    }
}
