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
/// This class builds the window and its parts, wires them, holds the actions table and follows
/// the window's life. The parts have one job each and talk through the model (LibraryModel) or
/// the closures wired here, never through this class: Subscriptions (feeds, folders, import and
/// export), Refreshing (fetching and syncing, the Refresh button) and Reading (the selection, the
/// list, the article, read and starred). Notices (what went wrong, said in the user's language)
/// is this class's extension.
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let library: FeedLibrary
    let settings: SettingsStore
    let layout: WindowLayout
    let sidebar: FeedSidebar
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
    /// Fetching feeds and syncing accounts, and the Refresh button that shows it.
    let refreshing: Refreshing
    /// The selection, its entries, the article and marking entries.
    let reading: Reading
    /// Takes an OPML file dropped onto the window.
    private(set) var fileDrop: OpaquePointer?
    /// Undo and short notices.
    let toasts: Toasts
    let preferences: Preferences
    let panes: PaneLeaflet
    /// Refreshes feeds at their turns while the window (shown or hidden) lives.
    let backgroundRefresh: BackgroundRefresh
    /// The sync accounts: their Preferences page, and syncing them.
    let accountSync: AccountSync
    /// Refreshes and syncs running now, whatever started them: the header bar's Refresh button shows
    /// them. Refreshing counts its own; syncing the accounts (MainWindow+Accounts) adds its own here.
    var refreshesRunning: Int {
        get { refreshing.running }
        set { refreshing.running = newValue }
    }
    let application: UnsafeMutablePointer<GtkApplication>
    /// The feeds' icons on disk, fetched after the subscriptions show and after each refresh.
    let icons: FeedIcons
    var isUpdatingIcons = false
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
        entryList = EntryListView(library: library)
        model = LibraryModel(store: library.store)
        sidebar = FeedSidebar(model: model)
        sidebar.icons = FeedIconTextures(icons: icons) { [weak sidebar] in sidebar?.showIconsAgain() }
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
        refreshing = Refreshing(window: window, life: life, library: library, model: model, accountSync: accountSync,
                                preferences: preferences, application: application, entryList: entryList,
                                button: Refreshing.Button(button: layout.refreshButton, state: layout.refreshState, spinner: layout.refreshSpinner),
                                toasts: toasts)
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
        reading = Reading(window: window, life: life, library: library, model: model, settings: settings, preferences: preferences,
                          sidebar: sidebar, entryList: entryList, article: article, filterBar: filterBar, panes: panes,
                          listPane: Reading.ListPane(title: layout.listTitle, stack: layout.listStack, status: layout.listStatus,
                                                     statusButton: layout.listStatusButton),
                          toasts: toasts, network: network)
        adw_application_window_set_content(cast(window), layout.widget)
        // The window holds the layout now.
        g_object_unref(cast(layout.toastOverlay))
        setMainMenu()

        // The list may outlive the window's widgets (a page load finishing after it closed).
        entryList.header.refreshingAction = { [weak self] in self?.live?.refreshing.refreshSelection() }
        article.fullArticle.addActions(to: window) { [weak self] _ in Task { @MainActor [weak self] in await self?.live?.model.changed(.counts) } }
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
        subscriptions.onFailure = { [weak self] message, error in self?.live?.showStoreError(message, error) }
        subscriptions.onSubscribedInAccount = { [weak self] outcome in self?.live?.subscribedInAccount(outcome) }
        refreshing.onFailure = { [weak self] message, error in self?.live?.showStoreError(message, error) }
        refreshing.onSynced = { [weak self] outcome in self?.live?.report(outcome) }
        refreshing.onRefreshed = { [weak self] inBackground in
            self?.live?.updateIcons()
            if inBackground { self?.live?.cleanUpIfDue() }
        }
        reading.onFailure = { [weak self] message, error in self?.live?.showStoreError(message, error) }
        reading.onRefresh = { [weak refreshing] in refreshing?.beginRefresh() }
        model.onChange = { [weak self] change, selecting in await self?.live?.libraryChanged(change, selecting: selecting) }
        model.onFailure = { [weak self] error in self?.live?.showStoreError(tr("The subscriptions could not be read."), error) }
        sidebar.onMoveFeed = { [weak self] feedID, folderID in self?.subscriptions.moveFeed(feedID, toFolder: folderID) }
        sidebar.onMoveFolder = { [weak self] folderID, parentID in self?.subscriptions.moveFolder(folderID, into: parentID) }
        sidebar.rememberOpenRows(in: settings)
        addActions()
        fileDrop = FileDrop.install(on: window) { [weak self] file in self?.live?.subscriptions.importSubscriptions(from: file) }
        Signal.connect(cast(window), "unrealize") { [weak self] in self?.saveSize() }
        backgroundRefresh.run = { [weak refreshing] due in await refreshing?.refreshInBackground(due) }
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
            // The model's change shows the sidebar, selects the saved row and lists its entries.
            await self.model.changed(.feeds, selecting: self.reading.savedSelection)
            guard self.live != nil else { return }
            if self.fetchesRecoveredFeeds { self.refreshing.beginRefresh() }
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
                if removed > 0 { await self.model.changed(.entries()) }
            } catch {
                self?.live?.toasts.show(tr("Old entries could not be removed."))
            }
        }
    }

    /// Shows what the model holds after `change`; the new feeds' icons are fetched.
    private func libraryChanged(_ change: LibraryModel.Change, selecting requested: FeedSelection?) async {
        await reading.show(change, selecting: requested)
        if change == .feeds { updateIcons() }
    }

    // MARK: - Chrome

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
        refreshing.showRunning()
        reading.retranslate()
        gtk_application_window_set_help_overlay(cast(window), cast(Shortcuts.makeWindow()))
    }

    // MARK: - Actions

    private func addActions() {
        refreshing.addActions()
        subscriptions.addActions()
        reading.addActions()
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
        LanguageChoice.addAction(to: window, saved: LanguageChoice.saved(in: settings)) { [weak self] code in
            self?.switchLanguage(to: code)
        }
        let table = Shortcuts.table
        KeyShortcuts.install(on: window, Shortcuts.split(table).singleKeys)
        Shortcuts.installAccelerators(in: application)
    }

    /// Switches every visible text at once and remembers the choice.
    func switchLanguage(to code: String) {
        LanguageChoice.choose(code, in: settings)
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
        reading.showNewEntries()
        g_application_withdraw_notification(cast(application), NewEntriesNotification.id)
    }

    private func preferencesChanged() {
        backgroundRefresh.minutes = preferences.refreshMinutes
        article.applyPreferences()
    }

    /// Whether the window is shown and has the keyboard focus (a hidden window may still say it is active).
    var isFocused: Bool { refreshing.windowIsFocused }

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
