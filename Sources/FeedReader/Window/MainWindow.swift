import AppSupport
import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshCore
import RefreshGtk

/// The main window: subscriptions on the side, the selection's entries beside them, the entry
/// being read on the other side, each pane with its own header bar (views/window.ui).
///
/// This file assembles the window and shows the library model in the sidebar and the list. The
/// parts talk through the model (LibraryModel): Subscriptions (feeds, folders, import and export)
/// is a part of its own that changes the store and says so to the model; Refreshing, Reading (the
/// panes, the article, read and starred) and Notices (what went wrong, said in the user's
/// language) are this class's extensions.
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let library: FeedLibrary
    let settings: SettingsStore
    let layout: WindowLayout
    let sidebar = FeedSidebar()
    let entryList: EntryListView
    let article = ArticleView()
    let filterBar: EntryFilterBar
    /// What the user must act on (storage or settings trouble found at start, a damaged database):
    /// it stays over the list until dismissed.
    let banner: Banner
    /// What the window shows of the library: the parts change it, the sidebar and the list follow it.
    let model: LibraryModel
    let importBar = ImportBar()
    /// Feeds and folders, import and export.
    let subscriptions: Subscriptions
    /// Takes an OPML file dropped onto the window.
    private(set) var fileDrop: OpaquePointer?
    /// Undo and short notices.
    let toasts: Toasts
    let preferences: Preferences
    /// Marks the selected entry read once it has been shown long enough (Preferences, Reading).
    var markReadTimer: guint = 0
    let panes: PaneLeaflet
    /// The panes shown when they last changed, so that only a change moves the focus.
    var shownPanes = PaneLeaflet.Pane.allCases
    /// Refreshes feeds at their turns while the window (shown or hidden) lives.
    let backgroundRefresh: BackgroundRefresh
    /// The sync accounts: their Preferences page, and syncing them.
    let accountSync: AccountSync
    /// A background refresh the entry list's header is showing: its action waits for it rather than fetch again.
    var backgroundRefreshForHeader: Task<FeedLibrary.RefreshReport, Never>?
    /// Refreshes running now, whatever started them: the header bar's Refresh button shows them.
    var refreshesRunning = 0 {
        didSet { live?.showRefreshing(refreshesRunning > 0) }
    }
    let application: UnsafeMutablePointer<GtkApplication>
    /// Says whether the computer is online, for the list's empty state.
    let network: OpaquePointer
    /// The feeds' icons on disk, fetched after the subscriptions show and after each refresh.
    let icons: FeedIcons
    var isUpdatingIcons = false
    /// Opens a web or mail address outside the app; tests replace it to see what would open.
    var openLink: (URL) -> Void
    /// Subscriptions recovered into a new database have no entries yet: they are fetched at once.
    private let fetchesRecoveredFeeds: Bool
    /// Whether the window's widgets exist: this object may outlive them.
    let life: WidgetLife

    /// The window while its widgets exist, nil once it is destroyed: every task resuming after an
    /// await goes through this before it touches a widget.
    var live: MainWindow? { life.isAlive ? self : nil }

    enum Key {
        static let group = "Window"
        static let width = "width", height = "height", maximized = "maximized", selectedFeed = "selected-feed"
        static let collapsedFolders = "collapsed-folders"
        static let storage = "Storage", lastCleanUp = "last-cleanup"
        /// Set once the bundled sample feeds were subscribed to, on the very first run.
        static let library = "Library", samplesSubscribed = "samples-subscribed"
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
        self.network = network
        if case let .replacedDamagedDatabase(_, recovered, _, _) = storageNotice { fetchesRecoveredFeeds = recovered > 0 } else {
            fetchesRecoveredFeeds = false
        }
        self.application = application
        let preferences = Preferences(settings: settings)
        self.preferences = preferences
        backgroundRefresh = BackgroundRefresh(library: library, network: network)
        accountSync = AccountSync(engine: SyncEngine(store: library.store))
        icons = FeedIcons(directory: FeedIcons.cacheDirectory(), store: library.store, userAgent: library.fetcher.configuration.userAgent,
                          now: library.now)
        sidebar.icons = FeedIconTextures(icons: icons) { [weak sidebar] in sidebar?.showIconsAgain() }
        entryList = EntryListView(library: library)
        model = LibraryModel(store: library.store)
        banner = Banner()
        preferences.applyStyle()
        article.preferences = preferences
        layout = WindowLayout()
        filterBar = EntryFilterBar(layout: layout)
        toasts = Toasts(overlay: layout.toastOverlay)
        let window = adw_application_window_new(application)!
        self.window = window
        life = WidgetLife(window)
        subscriptions = Subscriptions(window: window, life: life, library: library, model: model, accountSync: accountSync,
                                      toasts: toasts, importBar: importBar)
        openLink = { link in gtk_show_uri(cast(window), link.absoluteString, guint32(GDK_CURRENT_TIME)) }
        gtk_window_set_title(cast(window), tr("Feed Reader"))
        gtk_window_set_icon_name(cast(window), FeedReaderApp.applicationID)
        gtk_window_set_default_size(cast(window), Int32(settings.integer(forKey: Key.width, in: Key.group) ?? 1240),
                                    Int32(settings.integer(forKey: Key.height, in: Key.group) ?? 760))
        if settings.integer(forKey: Key.maximized, in: Key.group) == 1 { gtk_window_maximize(cast(window)) }

        gtk_widget_set_vexpand(sidebar.widget, 1)
        gtk_box_append(cast(layout.sidebarContent), sidebar.widget)
        gtk_widget_set_vexpand(entryList.widget, 1)
        for part in [banner.widget, importBar.widget, entryList.widget] { gtk_box_append(cast(layout.entriesSlot), part) }
        gtk_box_append(cast(layout.articleContent), article.widget)
        adw_header_bar_pack_end(layout.articleHeader, article.openButton)
        adw_header_bar_pack_end(layout.articleHeader, article.starButton)
        article.fullArticle.library = library
        panes = PaneLeaflet(frame: layout.leafletFrame, outer: layout.outerLeaflet, inner: layout.innerLeaflet, feeds: layout.sidebarPane,
                            entries: layout.listPane, article: layout.articlePane)
        adw_application_window_set_content(cast(window), layout.widget)
        // The window holds the layout now.
        g_object_unref(cast(layout.toastOverlay))
        setMainMenu()

        // The list may outlive the window's widgets (a page load finishing after it closed).
        entryList.header.refreshingAction = { [weak self] in self?.live?.refreshSelection() }
        article.fullArticle.addActions(to: window) { [weak self] _ in Task { @MainActor [weak self] in await self?.live?.reloadSidebar() } }
        entryList.onOpen = { [weak self] entry in self?.live?.open(entry) }
        entryList.onSelect = { [weak self] entry in self?.live?.showArticle(entry) }
        entryList.onClick = { [weak self] in self?.live?.showArticlePane() }
        entryList.onFirstPageShown = { [weak self] in self?.live?.showListOrEmptyState() }
        sidebar.onActivate = { [weak self] in self?.panes.show(.entries) }
        panes.onChange = { [weak self] in self?.panesChanged() }
        filterBar.onFilter = { [weak self] filter in self?.entryList.setFilter(filter) }
        filterBar.onSearch = { [weak self] text in self?.entryList.search(text) }
        article.onOpenLink = { [weak self] link in self?.openExternally(link) }
        article.media.positions.store = library.store
        article.media.positions.onSaveFailure = { [weak self] error in
            self?.live?.showStoreError(tr("Where the episode was left could not be saved."), error)
        }
        entryList.onError = { [weak self] message, error in self?.live?.showStoreError(message, error) }
        let startNotices = [settings.recoveryNote.map { _ in Self.settingsResetMessage(keptAt: settings.setAsidePath) },
                            settings.unreadableReason.map { _ in Self.settingsUnreadableMessage() },
                            storageNotice?.message].compactMap { $0 }
        if !startNotices.isEmpty {
            banner.show(startNotices.joined(separator: "\n"), details: storageNotice?.details ?? settings.unreadableReason)
        }
        sidebar.onSelect = { [weak self] selection in self?.select(selection) }
        subscriptions.onFailure = { [weak self] message, error in self?.live?.showStoreError(message, error) }
        subscriptions.onSubscribedInAccount = { [weak self] outcome in self?.live?.subscribedInAccount(outcome) }
        model.onChange = { [weak self] change, selecting in self?.live?.libraryChanged(change, selecting: selecting) }
        model.onFailure = { [weak self] error in self?.live?.showStoreError(tr("The subscriptions could not be read."), error) }
        sidebar.onMoveFeed = { [weak self] feedID, folderID in self?.subscriptions.moveFeed(feedID, toFolder: folderID) }
        sidebar.onMoveFolder = { [weak self] folderID, parentID in self?.subscriptions.moveFolder(folderID, into: parentID) }
        sidebar.rememberOpenRows(in: settings)
        Signal.connect(cast(layout.listStatusButton), "clicked") { [weak self] in self?.statusButtonClicked() }
        addActions()
        fileDrop = FileDrop.install(on: window) { [weak self] file in self?.live?.subscriptions.importSubscriptions(from: file) }
        Signal.connect(cast(window), "unrealize") { [weak self] in self?.saveSize() }
        backgroundRefresh.run = { [weak self] due in await self?.refreshInBackground(due) }
        backgroundRefresh.syncAccounts = { [weak self] in await self?.syncAccounts(reporting: false, notifying: true) }
        preferences.onChange = { [weak self] in self?.preferencesChanged() }
        Signal.connectReturningBool(cast(window), "close-request") { [weak self] in self?.closeRequested() ?? false }
        Signal.connect(cast(window), "destroy") { [weak self] in self?.windowDestroyed() }
        retranslateChrome()
    }

    func present() {
        gtk_window_present(cast(window))
        start()
        backgroundRefresh.minutes = preferences.refreshMinutes
    }

    /// The very first run subscribes to the bundled samples, so the window starts with something to
    /// read; never again, so samples removed stay removed. Then shows the stored entries at once,
    /// without waiting for the network.
    private func start() {
        let offersSamples = settings.integer(forKey: Key.samplesSubscribed, in: Key.library) == nil
        Task { @MainActor [weak self, library] in
            if offersSamples {
                await library.subscribeToSamplesIfEmpty(in: AppData.sampleFeeds)
                self?.live?.settings.setInteger(1, forKey: Key.samplesSubscribed, in: Key.library)
            }
            guard let self = self?.live else { return }
            let saved = self.settings.integer(forKey: Key.selectedFeed, in: Key.group)
            var selection: FeedSelection = switch saved {
            case nil: .all
            case Key.starredSelection: .starred
            case let value? where value < Key.starredSelection: .folder(Int64(-2 - value))
            case let value?: .feed(Int64(value))
            }
            if let account = self.settings.integer(forKey: FeedSidebar.selectedAccountKey, in: Key.group) { selection = .account(Int64(account)) }
            // The model's change shows the sidebar, selects the saved row and lists its entries.
            await self.model.changed(.feeds, selecting: selection)
            guard self.live != nil else { return }
            if self.fetchesRecoveredFeeds { self.beginRefresh() }
            Task { @MainActor [weak self] in await self?.live?.syncAccounts(reporting: true) }
            MainThread.whenIdle { [weak self] in self?.live?.cleanUpIfDue() }
        }
    }

    /// Fetches the icons that are missing or due for a check, and shows the ones that changed.
    func updateIcons() {
        guard !isUpdatingIcons else { return }
        isUpdatingIcons = true
        let feeds = model.feeds
        Task { @MainActor [weak self, icons] in
            let changed = await icons.update(feeds)
            guard let self = self?.live else { return }
            self.isUpdatingIcons = false
            guard !changed.isEmpty else { return }
            self.sidebar.icons?.invalidate(feeds.filter { changed.contains($0.id) })
            self.sidebar.showIconsAgain()
        }
    }

    /// Removes the entries the retention preferences let go, at most once a day.
    func cleanUpIfDue() {
        let now = library.now()
        if let last = settings.date(forKey: Key.lastCleanUp, in: Key.storage), now.timeIntervalSince(last) < 86400 { return }
        let retention = preferences.retention
        Task { @MainActor [weak self, library] in
            do {
                let removed = try await library.cleanUp(retention)
                guard let self = self?.live else { return }
                self.settings.setDate(now, forKey: Key.lastCleanUp, in: Key.storage)
                if removed > 0 {
                    await self.reloadSidebar()
                    guard self.live != nil else { return }
                    self.entryList.reload()
                }
            } catch {
                self?.live?.toasts.show(tr("Old entries could not be removed."))
            }
        }
    }

    /// The sidebar's feeds, folders and accounts, and the counts, read again from the store, for
    /// entries fetched, synced or marked; the caller lists them as it needs.
    func reloadSidebar() async {
        await model.changed(.entries)
    }

    /// Shows what the model holds after `change`: the sidebar, selecting `requested` when given
    /// (else keeping its selection where it can); the list follows a selection that moved, and
    /// lists again what a change of feeds or folders may have changed in it.
    private func libraryChanged(_ change: LibraryModel.Change, selecting requested: FeedSelection?) {
        sidebar.show(model.feeds, folders: model.folders, accounts: model.accounts, starred: model.starredCount,
                     selecting: requested ?? sidebar.selection)
        entryList.updateFeedTitles(model.feedTitles)
        showSelectionTitle()
        if requested != nil || sidebar.selection != model.selection || sidebar.selection != entryList.source {
            select(sidebar.selection)
        } else if change == .feeds || (change == .folders && sidebar.selection.folderID != nil) {
            entryList.reload()
        }
        if change == .feeds { updateIcons() }
    }

    func select(_ selection: FeedSelection) {
        model.selection = selection
        let saved: Int? = switch selection {
        case .all, .account: nil
        case .starred: Key.starredSelection
        case let .folder(id): Key.folderSelection(id)
        case let .feed(id): Int(id)
        }
        settings.setInteger(saved, forKey: Key.selectedFeed, in: Key.group)
        settings.setInteger(selection.accountID.map(Int.init), forKey: FeedSidebar.selectedAccountKey, in: Key.group)
        showSelectionTitle()
        entryList.show(selection, feedTitles: model.feedTitles)
    }

    // MARK: - Chrome

    /// The list pane's title: what the sidebar has selected.
    func showSelectionTitle() {
        adw_window_title_set_title(layout.listTitle, sidebar.title(of: sidebar.selection))
    }

    /// The list, or a status page saying why it is empty and what to do.
    func showListOrEmptyState() {
        // The page not shown is hidden too, so screen readers do not list what is not there.
        gtk_widget_set_visible(UnsafeMutablePointer(layout.listStatus), entryList.order.isEmpty.gboolean)
        guard entryList.order.isEmpty else {
            gtk_stack_set_visible_child_name(cast(layout.listStack), "entries")
            return
        }
        let state = ListEmptyState.of(hasFeeds: !model.feeds.isEmpty, selection: sidebar.selection, filter: filterBar.filter,
                                      searching: !entryList.searchTerms.isEmpty,
                                      online: g_network_monitor_get_network_available(network) != 0)
        adw_status_page_set_icon_name(layout.listStatus, state.iconName)
        adw_status_page_set_title(layout.listStatus, state.title)
        Widgets.nameScrolling(statusPage: layout.listStatus, state.title)
        adw_status_page_set_description(layout.listStatus, state.description)
        if let button = state.button {
            gtk_button_set_label(cast(layout.listStatusButton), button)
        }
        gtk_widget_set_visible(layout.listStatusButton, (state.button != nil).gboolean)
        listEmptyState = state
        gtk_stack_set_visible_child_name(cast(layout.listStack), "empty")
    }

    /// The empty state shown, for its button.
    private(set) var listEmptyState: ListEmptyState?

    private func statusButtonClicked() {
        switch listEmptyState?.kind {
        case .noFeeds: _ = gtk_widget_activate_action_variant(window, "win.add-feed", nil)
        case .noEntries, .offline: beginRefresh()
        case .noStarred, .noUnread, .noResults, nil: break
        }
    }

    /// The Refresh button turns into a spinner, and cannot be pressed again, while a refresh runs.
    func showRefreshing(_ running: Bool) {
        gtk_stack_set_visible_child_name(cast(layout.refreshState), running ? "refreshing" : "idle")
        if running { gtk_spinner_start(cast(layout.refreshSpinner)) } else { gtk_spinner_stop(cast(layout.refreshSpinner)) }
        if let action = g_action_map_lookup_action(cast(window), "refresh") {
            g_simple_action_set_enabled(cast(action), (!running).gboolean)
        }
        Widgets.name(layout.refreshButton, running ? tr("Refreshing…") : tr("Refresh"))
    }

    /// The main menu (MainMenu), in the current language.
    private func setMainMenu() {
        let menu = MainMenu.make()
        gtk_menu_button_set_menu_model(cast(layout.mainMenuButton), cast(menu))
        g_object_unref(cast(menu))
    }

    /// Names the header bars' controls and titles in the current language.
    func retranslateChrome() {
        adw_window_title_set_title(layout.sidebarTitle, tr("Feed Reader"))
        Widgets.name(layout.addButton, tr("Add Feed"))
        Widgets.name(layout.mainMenuButton, tr("Main Menu"))
        Widgets.name(layout.listBackButton, tr("Back"))
        Widgets.name(layout.articleBackButton, tr("Back"))
        showRefreshing(refreshesRunning > 0)
        showSelectionTitle()
        if gtk_stack_get_visible_child_name(cast(layout.listStack)).map({ String(cString: $0) }) == "empty" { showListOrEmptyState() }
        gtk_application_window_set_help_overlay(cast(window), cast(Shortcuts.makeWindow()))
    }

    // MARK: - Actions

    private func addActions() {
        Widgets.addAction(to: window, "refresh") { [weak self] _ in self?.beginRefresh() }
        subscriptions.addActions()
        addReadingActions()
        Widgets.addAction(to: window, "about") { [weak self] _ in
            guard let self else { return }
            AboutWindow.present(over: self.window)
        }
        Widgets.addAction(to: window, "entry-menu") { [weak self] _ in
            guard let self else { return }
            // The menu of the row with the keyboard's focus: a feed's or folder's in the sidebar, else the entry's.
            if let focus = gtk_root_get_focus(cast(self.window)), gtk_widget_is_ancestor(focus, self.sidebar.widget) != 0 {
                self.sidebar.showMenuForSelection()
            } else {
                self.entryList.showMenuForSelection()
            }
        }
        Widgets.addAction(to: window, "preferences") { [weak self] _ in self?.presentPreferences() }
        let showNew = g_simple_action_new(NewEntriesNotification.action, nil)!
        Signal.connectIgnoringArgument(cast(showNew), "activate") { [weak self] in self?.showNewEntries() }
        g_action_map_add_action(cast(application), cast(showNew))
        g_object_unref(cast(showNew))
        addLanguageAction()
        let table = Shortcuts.table
        KeyShortcuts.install(on: window, Shortcuts.split(table).singleKeys)
        Shortcuts.installAccelerators(in: application)
    }

    /// The language choice as a stateful action, which Preferences activates with a language
    /// code (empty: the system's).
    private func addLanguageAction() {
        let saved = LanguageChoice.saved(in: settings)
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
        settings.setString(code, forKey: LanguageChoice.settingsKey, in: LanguageChoice.settingsGroup)
        RefreshLocalization.setLanguage(code.isEmpty ? nil : code)
        gtk_window_set_title(cast(window), tr("Feed Reader"))
        setMainMenu()
        // The back key follows the text direction.
        Shortcuts.installAccelerators(in: application)
        sidebar.retranslate()
        entryList.retranslate()
        article.retranslate()
        filterBar.retranslate()
        banner.retranslate()
        importBar.retranslate()
        retranslateChrome()
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
        article.applyPreferences()
    }

    /// Whether the window is shown and has the keyboard focus (a hidden window may still say it is active).
    var isFocused: Bool {
        gtk_widget_get_visible(window) != 0 && gtk_window_is_active(cast(window)) != 0
    }

    /// Closing hides the window and keeps refreshing only when the user chose to run in the background.
    private func closeRequested() -> Bool {
        guard preferences.runsInBackground, preferences.refreshMinutes > 0 else { return false }
        gtk_widget_set_visible(window, 0)
        return true
    }

    private func windowDestroyed() {
        settings.flush()
        backgroundRefresh.stop()
        g_action_map_remove_action(cast(application), NewEntriesNotification.action)
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
    }
}
