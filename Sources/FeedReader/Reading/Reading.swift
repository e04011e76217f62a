import AppSupport
import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The window's selection and reading part: the sidebar's selection and the entries it lists,
/// the article of the selected entry, the panes, read and starred states, and the keys that move
/// from entry to entry and feed to feed. It follows the model's changes and tells it of the
/// entries it marks; it knows nothing of subscriptions or refreshing.
@MainActor
final class Reading {
    /// The list pane's title, and the status page it shows instead of an empty list (views/window.ui).
    struct ListPane {
        let title: OpaquePointer
        /// The stack of the "entries" and the "empty" pages.
        let stack: UnsafeMutablePointer<GtkWidget>
        let status: OpaquePointer
        let statusButton: UnsafeMutablePointer<GtkWidget>
        /// Import Subscriptions and Add Account under it, offered while nothing is subscribed.
        let otherSources: UnsafeMutablePointer<GtkWidget>
    }

    let window: UnsafeMutablePointer<GtkWidget>
    /// Whether the window's widgets still exist, asked after every await.
    private let life: WidgetLife
    let library: FeedLibrary
    let model: LibraryModel
    private let settings: SettingsStore
    private let preferences: Preferences
    let sidebar: FeedSidebar
    let entryList: EntryListView
    let article: ArticleView
    let filterBar: EntryFilterBar
    let panes: PaneLeaflet
    private let listPane: ListPane
    let toasts: Toasts
    /// Says whether the computer is online, for the list's empty state.
    private let network: OpaquePointer
    /// Marks the selected entry read once it has been shown long enough (Preferences, Reading).
    private var markReadTimer: guint = 0
    /// Marks read what scrolls past the list's top, when the preferences ask for it.
    let scrollMarking: ScrollMarking
    /// The panes shown when they last changed, so that only a change moves the focus.
    private var shownPanes = PaneLeaflet.Pane.allCases
    /// The empty state shown, for its button.
    private(set) var listEmptyState: ListEmptyState?
    /// Opens a web or mail address outside the app; tests replace it to see what would open.
    var openLink: (URL) -> Void
    /// Says a failure to read or save the store.
    var onFailure: ((String, any Error) -> Void)?
    /// Refreshes the selection, for the empty list's Refresh button.
    var onRefresh: (() -> Void)?
    /// Told the selection whenever the list's title shows it or a search starts or ends, with the
    /// main menu's label for marking read what the list shows.
    var onSelectionShown: ((FeedSelection, _ markReadLabel: String) -> Void)?

    /// The part over `window`, whose widgets `life` follows, driving the panes and what they hold.
    init(window: UnsafeMutablePointer<GtkWidget>, life: WidgetLife, library: FeedLibrary, model: LibraryModel, settings: SettingsStore,
         preferences: Preferences, sidebar: FeedSidebar, entryList: EntryListView, article: ArticleView, filterBar: EntryFilterBar,
         panes: PaneLeaflet, listPane: ListPane, toasts: Toasts, network: OpaquePointer) {
        self.window = window
        self.life = life
        self.library = library
        self.model = model
        self.settings = settings
        self.preferences = preferences
        self.sidebar = sidebar
        self.entryList = entryList
        self.article = article
        self.filterBar = filterBar
        self.panes = panes
        self.listPane = listPane
        self.toasts = toasts
        self.network = network
        scrollMarking = ScrollMarking(entryList: entryList, library: library, model: model, toasts: toasts, life: life)
        openLink = { link in gtk_show_uri(cast(window), link.absoluteString, guint32(GDK_CURRENT_TIME)) }
        // The list may outlive the window's widgets (a page load finishing after it closed).
        entryList.onOpen = life.tied { [weak self] entry in self?.open(entry) }
        entryList.onSelect = life.tied { [weak self] entry in self?.showArticle(entry) }
        entryList.onClick = life.tied { [weak self] in self?.showArticlePane() }
        entryList.onFirstPageShown = life.tied { [weak self] in self?.showListOrEmptyState() }
        sidebar.onSelect = { [weak self] selection in self?.select(selection) }
        sidebar.onActivate = { [weak self] in self?.panes.show(.entries) }
        panes.onChange = { [weak self] in self?.panesChanged() }
        filterBar.onFilter = { [weak self] filter in self?.entryList.setFilter(filter) }
        filterBar.onSearch = { [weak self] text in
            self?.entryList.search(text)
            self?.showSelectionTitle()
        }
        entryList.savedSearch = { [weak model] id in model?.savedSearch(id: id) }
        article.onOpenLink = { [weak self] link in self?.openExternally(link) }
        Signal.connect(cast(listPane.statusButton), "clicked") { [weak self] in self?.statusButtonClicked() }
        // The timer would mark an entry no one sees any more.
        Signal.connect(cast(window), "destroy") { [weak self] in
            self?.stopMarkReadTimer()
            self?.scrollMarking.isOn = false
        }
        scrollMarking.isOn = preferences.marksReadOnScroll
        showSelectionTitle()
    }

    /// The part while the window's widgets exist, nil once they are gone.
    var live: Reading? { life.isAlive ? self : nil }

    // MARK: - Selection

    /// The row selected when the window last closed.
    var savedSelection: FeedSelection {
        typealias Key = WindowKey
        if let account = settings.integer(forKey: FeedSidebar.selectedAccountKey, in: Key.group) { return .account(Int64(account)) }
        return switch settings.integer(forKey: Key.selectedFeed, in: Key.group) {
        case nil: .all
        case Key.starredSelection: .starred
        case let value? where value < Key.starredSelection: .folder(Int64(-2 - value))
        case let value?: .feed(Int64(value))
        }
    }

    /// Shows what the model holds after `change`: the sidebar, selecting `requested` when given
    /// (else keeping its selection where it can); the list follows a selection that moved, and
    /// lists again what a change of feeds or folders may have changed in it.
    func show(_ change: LibraryModel.Change, selecting requested: FeedSelection?) async {
        sidebar.modelChanged(selecting: requested ?? sidebar.selection)
        filterBar.setAvailable(hasFeeds, in: window)
        article.hasFeeds = hasFeeds
        entryList.updateFeedTitles(model.feedTitles)
        showSelectionTitle()
        if requested != nil || sidebar.selection != model.selection || sidebar.selection != entryList.source {
            select(sidebar.selection)
        } else {
            await entryList.follow(change)
        }
    }

    /// Whether any feed is subscribed to, here or in an account.
    var hasFeeds: Bool { !model.feeds.isEmpty || model.accounts.contains { !$0.feeds.isEmpty } }

    /// Lists the entries of `selection`, and remembers it for the next start.
    private func select(_ selection: FeedSelection) {
        typealias Key = WindowKey
        model.selection = selection
        let saved: Int? = switch selection {
        case .all, .account, .savedSearch, .label, .labelsHeading: nil
        case .starred: Key.starredSelection
        case let .folder(id): Key.folderSelection(id)
        case let .feed(id): Int(id)
        }
        settings.setInteger(saved, forKey: Key.selectedFeed, in: Key.group)
        settings.setInteger(selection.accountID.map(Int.init), forKey: FeedSidebar.selectedAccountKey, in: Key.group)
        showSelectionTitle()
        entryList.show(selection, feedTitles: model.feedTitles, lastRefresh: model.lastRefresh(of: selection))
    }

    /// A click on the notification of new entries: the unread entries of all feeds.
    func showNewEntries() {
        sidebar.select(.all)
        filterBar.select(.unread)
    }

    // MARK: - The list pane

    /// The list pane's title: what the sidebar has selected; and the main menu's label.
    func showSelectionTitle() {
        let title = sidebar.title(of: sidebar.selection)
        adw_window_title_set_title(listPane.title, title)
        onSelectionShown?(sidebar.selection, Self.markReadLabel(for: sidebar.selection, title: title, searching: entryList.searchedText != nil))
    }

    /// The list, or a status page saying why it is empty and what to do.
    private func showListOrEmptyState() {
        // The page not shown is hidden too, so screen readers do not list what is not there.
        gtk_widget_set_visible(UnsafeMutablePointer(listPane.status), entryList.order.isEmpty.gboolean)
        guard entryList.order.isEmpty else {
            gtk_stack_set_visible_child_name(cast(listPane.stack), "entries")
            return
        }
        let state = ListEmptyState.of(hasFeeds: hasFeeds, selection: sidebar.selection, filter: filterBar.filter,
                                      searching: !entryList.searchTerms.isEmpty,
                                      online: g_network_monitor_get_network_available(network) != 0)
        adw_status_page_set_icon_name(listPane.status, state.iconName)
        adw_status_page_set_title(listPane.status, state.title)
        Widgets.nameScrolling(statusPage: listPane.status, state.title)
        adw_status_page_set_description(listPane.status, state.description)
        if let button = state.button {
            gtk_button_set_label(cast(listPane.statusButton), button)
        }
        gtk_widget_set_visible(listPane.statusButton, (state.button != nil).gboolean)
        gtk_widget_set_visible(listPane.otherSources, (state.kind == .noFeeds).gboolean)
        listEmptyState = state
        gtk_stack_set_visible_child_name(cast(listPane.stack), "empty")
    }

    private func statusButtonClicked() {
        switch listEmptyState?.kind {
        case .noFeeds: _ = gtk_widget_activate_action_variant(window, "win.add-feed", nil)
        case .noEntries, .offline: onRefresh?()
        case .noStarred, .noUnread, .noResults, nil: break
        }
    }

    /// Shows the selection again in the current language, as the model holds it: the list's
    /// items (their rows follow), the pane's title and empty state, and the article open. The
    /// selection, the search, the filter and the scroll position stay where they are.
    func showSelectionAgain() {
        entryList.showEntriesAgain()
        showSelectionTitle()
        if gtk_stack_get_visible_child_name(cast(listPane.stack)).map({ String(cString: $0) }) == "empty" { showListOrEmptyState() }
        article.showPageAgain()
    }

    // MARK: - Panes

    /// Where panes fold, the pane that comes into view takes the focus; the back buttons show
    /// through their leaflets' folds (views/window.ui).
    private func panesChanged() {
        let shown = panes.visiblePanes
        guard shown != shownPanes else { return }
        shownPanes = shown
        guard shown != PaneLeaflet.Pane.allCases else { return }
        if panes.page != .article { article.keepFocusWhereItIs() }
        switch panes.page {
        case .feeds: _ = gtk_widget_child_focus(sidebar.widget, GTK_DIR_TAB_FORWARD)
        case .entries: _ = gtk_widget_grab_focus(entryList.listView)
        // The page, for reading (it had Open in Browser, where the arrow keys moved among the
        // header's buttons); Enter there still opens the entry in the browser.
        case .article: article.focusPage()
        }
    }

    /// Folded, the article replaces the list once an entry is selected to be read.
    private func showArticlePane() {
        guard entryList.selectedEntry != nil else { return }
        panes.show(.article)
    }

    /// Enter on an entry: where the list shows alone, shows its article; otherwise opens its page in the browser.
    private func open(_ entry: StoredEntry) {
        if panes.isOnePane, panes.page == .entries {
            showArticlePane()
        } else {
            openInBrowser(entry)
        }
    }

    /// Selects another entry with `select`, then shows its article when one pane shows at a time.
    func read(_ select: (Reading) -> Void) {
        select(self)
        showArticlePane()
    }

    /// Selects another feed with `select`, then shows its entries where the sidebar is folded away.
    func browse(_ select: (Reading) -> Void) {
        select(self)
        panes.show(.entries)
    }

    // MARK: - The article

    /// Shows the entry beside the list and marks it read as the preferences say: at once, once it
    /// has stayed selected a few seconds, or never; with no entry left to show, a narrow window
    /// goes back to the list.
    private func showArticle(_ entry: StoredEntry?) {
        stopMarkReadTimer()
        defer { enableArticleActions(for: entry) }
        guard let entry else {
            article.clear()
            if panes.page == .article { panes.show(.entries) }
            return
        }
        showBody(of: entry)
        guard !entry.isRead else { return }
        switch preferences.markRead {
        case .whenSelected:
            setRead(entry, true)
        case .afterDelay:
            markReadTimer = MainThread.after(Preferences.MarkRead.delay) { [weak self] in
                guard let self = self?.live else { return }
                self.markReadTimer = 0
                // The list's copy: the entry may have been marked by hand meanwhile.
                guard let shown = self.entryList.selectedEntry, shown.id == entry.id, !shown.isRead else { return }
                self.setRead(shown, true)
            }
        case .byHand:
            break
        }
    }

    /// Star and Open in Browser act on the article's entry: they can be pressed (and their keys
    /// work) only while one is shown (`entry`, its body may still be loading), Open in Browser only when it links to a web page. The
    /// actions, not the buttons, are turned off: a button follows its action's state.
    func enableArticleActions(for entry: StoredEntry?) {
        for (name, enabled) in [("toggle-star", entry != nil), ("open-in-browser", entry?.link.map(Self.opensInBrowser) ?? false)] {
            guard let action = g_action_map_lookup_action(cast(window), name) else { continue }
            g_simple_action_set_enabled(cast(action), enabled.gboolean)
        }
    }

    private func stopMarkReadTimer() {
        guard markReadTimer != 0 else { return }
        g_source_remove(markReadTimer)
        markReadTimer = 0
    }

    /// Reads the entry's body, which the list does not keep, and shows it unless another entry
    /// was selected meanwhile; read and starred as the list shows them now.
    private func showBody(of listed: StoredEntry) {
        Task { @MainActor [weak self, library] in
            let stored: StoredEntry?
            do {
                stored = try await library.store.entry(id: listed.id)
            } catch {
                self?.onFailure?(tr("The stored entries could not be read."), error)
                return
            }
            guard let self = self?.live, var entry = stored, let current = self.entryList.selectedEntry, current.id == entry.id else { return }
            entry.isRead = current.isRead
            entry.isStarred = current.isStarred
            self.article.show(entry, feedTitle: self.model.feedTitles[entry.feedID])
        }
    }

    func openInBrowser(_ entry: StoredEntry) {
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
}
