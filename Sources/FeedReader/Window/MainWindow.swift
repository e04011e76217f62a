import AppSupport
import CAdw
import CGtk
import FeedCore
import RefreshGtk

/// The main window: subscriptions on the side, the selection's entries beside them, the entry
/// being read on the other side, each pane with its own header bar (views/window.ui).
///
/// This class only composes: it builds the parts, gives each what it needs and wires their
/// callbacks. The parts have one job each and talk through the model, LibraryModel
/// (docs/architecture.md, "The window's parts").
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let application: UnsafeMutablePointer<GtkApplication>
    let library: FeedLibrary
    let settings: SettingsStore
    let preferences: Preferences
    let layout: WindowLayout
    /// What the window shows of the library: the parts change it, the sidebar and the list follow it.
    let model: LibraryModel
    let sidebar: FeedSidebar
    let entryList: EntryListView
    let article = ArticleView()
    let filterBar: EntryFilterBar
    let importBar = NoticeBar(.progress)
    let feedFailure = FeedFailureNotice()
    let panes: PaneLeaflet
    let notices: Notices
    let subscriptions: Subscriptions
    let refreshing: Refreshing
    let accounts: AccountSyncing
    let reading: Reading
    let iconUpdates: FeedIconUpdates
    /// Refreshes feeds at their turns while the window (shown or hidden) lives.
    let backgroundRefresh: BackgroundRefresh
    let cleanUp: DailyCleanUp
    let chrome: WindowChrome
    /// Takes an OPML file dropped onto the window.
    private(set) var fileDrop: OpaquePointer?
    /// Whether the window's widgets exist: this object may outlive them.
    let life: WidgetLife
    /// Subscriptions recovered into a new database have no entries yet: they are fetched at once.
    private let fetchesRecoveredFeeds: Bool

    /// The window while its widgets exist, nil once it is destroyed.
    var live: MainWindow? { life.isAlive ? self : nil }

    /// The window over `library`; background refresh runs while `network` (a GNetworkMonitor) says the computer is online.
    init(application: UnsafeMutablePointer<GtkApplication>, library: FeedLibrary, settings: SettingsStore,
         storageNotice: StorageNotice? = nil, network: OpaquePointer = g_network_monitor_get_default()) {
        IconFinalization.keepOnMainThread()
        (self.application, self.library, self.settings) = (application, library, settings)
        fetchesRecoveredFeeds = if case let .replacedDamagedDatabase(_, recovered, _, _) = storageNotice { recovered > 0 } else { false }
        preferences = Preferences(settings: settings)
        preferences.applyStyle()
        article.preferences = preferences
        backgroundRefresh = BackgroundRefresh(library: library, network: network)
        let accountSync = AccountSync(engine: SyncEngine(store: library.store))
        entryList = EntryListView(library: library, firstRows: EntryListView.rowsBeforeFirstFrame, pullTimesFile: settings.pathBeside("refreshgtk.ini"))
        model = LibraryModel(store: library.store)
        // Their other rows once the window has drawn its entries (WindowStart).
        sidebar = FeedSidebar(model: model, firstRows: FeedSidebar.rowsBeforeFirstFrame)
        iconUpdates = FeedIconUpdates(icons: FeedIcons(directory: FeedIcons.cacheDirectory(), store: library.store,
                                                       userAgent: library.fetcher.configuration.userAgent, now: library.now),
                                      model: model, sidebar: sidebar)
        layout = WindowLayout()
        filterBar = EntryFilterBar(layout: layout)
        notices = Notices(banner: NoticeBar(.problem), toasts: Toasts(overlay: layout.toastOverlay), store: library.store)
        let (window, toasts) = (adw_application_window_new(application)!, notices.toasts)
        self.window = window
        life = WidgetLife(window)
        subscriptions = Subscriptions(window: window, life: life, library: library, model: model, accountSync: accountSync,
                                      toasts: toasts, importBar: importBar)
        refreshing = Refreshing(window: window, life: life, library: library, model: model, accountSync: accountSync,
                                preferences: preferences, application: application, entryList: entryList,
                                button: Refreshing.Button(button: layout.refreshButton, state: layout.refreshState, spinner: layout.refreshSpinner),
                                toasts: toasts)
        accounts = AccountSyncing(window: window, application: application, life: life, accountSync: accountSync, model: model,
                                  preferences: preferences, refreshing: refreshing, toasts: toasts)
        cleanUp = DailyCleanUp(library: library, settings: settings, preferences: preferences, model: model, toasts: toasts, life: life)
        // Its state lives as long as the window, which holds it.
        ObjectData.set(WindowState(window: window, application: application, settings: settings, preferences: preferences,
                                   backgroundRefresh: backgroundRefresh), on: window, "feed-reader-window-state")
        chrome = WindowChrome(window: window, application: application, layout: layout)
        layout.place(sidebar: sidebar.widget, entries: [notices.banner.widget, feedFailure.widget, importBar.widget, entryList.widget], article: article)
        article.fullArticle.library = library
        panes = PaneLeaflet(frame: layout.leafletFrame, outer: layout.outerLeaflet, inner: layout.innerLeaflet, feeds: layout.sidebarPane,
                            entries: layout.listPane, article: layout.articlePane)
        panes.windowButtons = WindowButtons(layout: layout)
        reading = Reading(window: window, life: life, library: library, model: model, settings: settings, preferences: preferences,
                          sidebar: sidebar, entryList: entryList, article: article, filterBar: filterBar, panes: panes,
                          listPane: layout.listPaneParts,
                          toasts: toasts, network: network)
        adw_application_window_set_content(cast(window), layout.widget)
        // The window holds the layout now.
        g_object_unref(cast(layout.toastOverlay))
        notices.showStartTrouble(settings: settings, storage: storageNotice)
        wireParts()
        fileDrop = FileDrop.install(on: window) { [weak self] file in self?.subscriptions.importSubscriptions(from: file) }
    }

    /// The parts' callbacks: failures to the notices, changes to the model, refreshes to the icons.
    private func wireParts() {
        let failed: (String, any Error) -> Void = life.tied { [weak self] message, error in self?.notices.showStoreError(message, error) }
        (entryList.onError, subscriptions.onFailure, refreshing.onFailure, reading.onFailure) = (failed, failed, failed, failed)
        reading.scrollMarking.onFailure = failed
        article.media.positions.store = library.store
        article.media.positions.onSaveFailure = { error in failed(tr("Where the episode was left could not be saved."), error) }
        model.onFailure = { error in failed(tr("The subscriptions could not be read."), error) }
        model.onChange = { [weak self] change, selecting in
            await self?.live?.reading.show(change, selecting: selecting)
            if change == .feeds { self?.iconUpdates.update() }
            // The first window's welcome says what the sidebar holds now.
            if let self, let welcome = self.article.welcome { welcome.follow(self.model.feeds + self.model.accounts.flatMap(\.feeds)) }
        }
        entryList.header.refreshingAction = life.tied(onMain: { [weak self] in self?.refreshing.refreshSelection() })
        article.fullArticle.addActions(to: window) { [weak self] _ in Task { @MainActor [weak self] in await self?.model.changed(.counts) } }
        subscriptions.onSubscribedInAccount = life.tied { [weak self] outcome in self?.accounts.subscribedInAccount(outcome) }
        refreshing.onSynced = life.tied { [weak self] outcome in self?.accounts.report(outcome) }
        refreshing.onRefreshed = life.tied { [weak self] inBackground in
            self?.iconUpdates.update()
            if inBackground { self?.cleanUp.runIfDue() }
        }
        reading.onRefresh = { [weak refreshing] in refreshing?.beginRefresh() }
        reading.onSelectionShown = { [weak self, mainMenuButton = layout.mainMenuButton] selection, markReadLabel in
            MainMenu.setMarkReadLabel(markReadLabel, in: mainMenuButton)
            if let self { self.feedFailure.show(selection, in: self.model) }
        }
        subscriptions.takeMoves(from: sidebar)
        sidebar.rememberOpenRows(in: settings)
        backgroundRefresh.run = { [weak refreshing] due in await refreshing?.refreshInBackground(due) }
        backgroundRefresh.syncAccounts = { [weak accounts] in await accounts?.syncAccounts(reporting: false, notifying: true) }
        preferences.onChange = { [weak self, preferences] in
            self?.backgroundRefresh.minutes = preferences.refreshMinutes
            self?.article.applyPreferences()
            self?.reading.scrollMarking.isOn = preferences.marksReadOnScroll
        }
        WindowActions.add(to: self)
    }

    func present() {
        gtk_window_present(cast(window))
        WindowStart.run(self, fetchingRecoveredFeeds: fetchesRecoveredFeeds)
    }

    /// Switches every visible text at once and remembers the choice.
    func switchLanguage(to code: String) { LanguageSwitch.apply(code, to: self) }
}
