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
    let toast = UndoToast()
    let preferences: Preferences
    /// Opens a web or mail address outside the app; tests replace it to see what would open.
    var openLink: (URL) -> Void
    private var feeds: [StoredFeed] = []
    private var starredCount = 0

    private enum Key {
        static let group = "Window"
        static let width = "width", height = "height", maximized = "maximized", selectedFeed = "selected-feed"
        /// What selected-feed holds while Starred is selected (feed ids are positive).
        static let starredSelection = -1
    }

    init(application: UnsafeMutablePointer<GtkApplication>, library: FeedLibrary, settings: SettingsStore) {
        self.library = library
        self.settings = settings
        preferences = Preferences(settings: settings)
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
        gtk_window_set_titlebar(cast(window), makeHeaderBar())

        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [filterBar.widget, banner.widget, entryList.widget])
        gtk_widget_set_size_request(content, 300, -1)
        let reading = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_paned_set_start_child(cast(reading), content)
        gtk_paned_set_end_child(cast(reading), article.widget)
        gtk_paned_set_shrink_start_child(cast(reading), 0)
        gtk_paned_set_shrink_end_child(cast(reading), 0)
        gtk_paned_set_position(cast(reading), 400)
        let paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_paned_set_start_child(cast(paned), sidebar.widget)
        gtk_paned_set_end_child(cast(paned), reading)
        gtk_paned_set_resize_start_child(cast(paned), 0)
        gtk_paned_set_shrink_start_child(cast(paned), 0)
        gtk_paned_set_position(cast(paned), 290)
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(cast(overlay), paned)
        gtk_overlay_add_overlay(cast(overlay), toast.widget)
        gtk_window_set_child(cast(window), overlay)

        entryList.header.refreshingAction = { [weak self] in self?.refreshSelection() }
        entryList.onOpen = { [weak self] entry in self?.openInBrowser(entry) }
        entryList.onSelect = { [weak self] entry in self?.showArticle(entry) }
        filterBar.onFilter = { [weak self] filter in self?.entryList.setFilter(filter) }
        filterBar.onSearch = { [weak self] text in self?.entryList.search(text) }
        article.onOpenLink = { [weak self] link in self?.openExternally(link) }
        entryList.onError = { [weak self] message in self?.banner.show(message) }
        if settings.recoveryNote != nil { banner.show(Self.settingsResetMessage(keptAt: settings.setAsidePath)) }
        sidebar.onSelect = { [weak self] selection in self?.select(selection) }
        addActions(application: application)
        Signal.connect(cast(window), "unrealize") { [weak self] in self?.saveSize() }
    }

    func present() {
        gtk_window_present(cast(window))
        start()
    }

    /// First run: subscribes to the bundled samples so the window is never empty; then shows the
    /// stored entries at once, without waiting for the network.
    private func start() {
        Task { @MainActor [weak self, library] in
            await library.subscribeToSamplesIfEmpty(in: AppData.sampleFeeds)
            guard let self else { return }
            let saved = self.settings.integer(forKey: Key.selectedFeed, in: Key.group)
            await self.reloadFeeds(selecting: saved == Key.starredSelection ? .starred : saved.map { .feed(Int64($0)) } ?? .all)
            self.entryList.show(self.sidebar.selection, feedTitles: self.feedTitles)
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

    private var feedTitles: [Int64: String] {
        Dictionary(feeds.map { ($0.id, FeedSidebar.title(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    private func reloadFeeds(selecting selection: FeedSelection) async {
        do {
            feeds = try await library.store.feeds()
            starredCount = try await library.store.entryCount(starredOnly: true)
            sidebar.show(feeds, starred: starredCount, selecting: selection)
            entryList.updateFeedTitles(feedTitles)
        } catch {
            banner.show(tr("Could not read the subscriptions") + ": \(error)")
        }
    }

    private func select(_ selection: FeedSelection) {
        let saved: Int? = switch selection {
        case .all: nil
        case .starred: Key.starredSelection
        case let .feed(id): Int(id)
        }
        settings.setInteger(saved, forKey: Key.selectedFeed, in: Key.group)
        entryList.show(selection, feedTitles: feedTitles)
    }

    // MARK: - Refreshing

    /// Fetches every feed of the selection; the header shows "Loading..." until the last is done.
    private func refreshSelection() {
        let selection = sidebar.selection
        banner.hide()
        Task { @MainActor [weak self, library] in
            let report = await library.refresh(feedIDs: selection.feedID.map { [$0] })
            guard let self else { return }
            await self.reloadFeeds(selecting: selection)
            self.entryList.reload(scrollToTop: report.newEntries > 0) { [weak self] in
                self?.entryList.header.endRefreshing()
            }
            self.report(report)
        }
    }

    private func report(_ report: FeedLibrary.RefreshReport) {
        guard let first = report.failures.first else { return }
        let count = report.failures.count
        let summary = trn("%d feed could not be refreshed", "%d feeds could not be refreshed", count)
            .replacingOccurrences(of: "%d", with: "\(count)")
        banner.show("\(summary): \(first.title) — \(first.message)")
    }

    // MARK: - Entries

    /// Shows the entry beside the list and marks it read.
    private func showArticle(_ entry: StoredEntry?) {
        guard let entry else {
            article.clear()
            return
        }
        article.show(entry, feedTitle: feedTitles[entry.feedID])
        if !entry.isRead && preferences.marksReadWhenShown { setRead(entry, true) }
    }

    /// Marks one entry read or unread, in the store, its row and the unread counts.
    private func setRead(_ entry: StoredEntry, _ isRead: Bool) {
        var changed = entry
        changed.isRead = isRead
        apply(changed, failure: tr("Could not save the read state")) { store in
            try await store.markRead(entryID: entry.id, isRead: isRead)
        }
    }

    /// Stars or unstars one entry, in the store, its row, the article and the Starred count.
    private func setStarred(_ entry: StoredEntry, _ isStarred: Bool) {
        var changed = entry
        changed.isStarred = isStarred
        apply(changed, failure: tr("Could not save the star")) { store in
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
                self?.banner.show(failure + ": \(error)")
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
                self?.banner.show(tr("Could not save the read state") + ": \(error)")
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
                self?.banner.show(tr("Could not save the read state") + ": \(error)")
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
                    self.banner.show(tr("Could not remove the feed") + ": \(error)")
                }
                let selection = self.sidebar.selectedFeedID == feedID ? .all : self.sidebar.selection
                await self.reloadFeeds(selecting: selection)
                self.entryList.show(self.sidebar.selection, feedTitles: self.feedTitles)
            }
        }
    }

    // MARK: - Chrome

    private func makeHeaderBar() -> UnsafeMutablePointer<GtkWidget> {
        let bar = gtk_header_bar_new()!
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
        Widgets.addAction(to: window, "entry-menu") { [weak self] _ in self?.entryList.showMenuForSelection() }
        Widgets.addAction(to: window, "open-entry", withInt64: true) { [weak self] id in
            guard let entry = self?.entryList.entries[id] else { return }
            self?.openInBrowser(entry)
        }
        Widgets.addAction(to: window, "preferences") { [weak self] _ in
            guard let self else { return }
            self.preferences.present(over: self.window)
        }
        Widgets.addAction(to: window, "next-entry") { [weak self] _ in self?.entryList.selectAdjacent(1) }
        Widgets.addAction(to: window, "previous-entry") { [weak self] _ in self?.entryList.selectAdjacent(-1) }
        Widgets.addAction(to: window, "next-feed") { [weak self] _ in self?.sidebar.selectAdjacent(1) }
        Widgets.addAction(to: window, "previous-feed") { [weak self] _ in self?.sidebar.selectAdjacent(-1) }
        Widgets.addAction(to: window, "page-or-next-unread") { [weak self] _ in
            self?.article.pageDown { [weak self] atEnd in
                if atEnd { self?.entryList.selectNextUnread() }
            }
        }
        Widgets.addAction(to: window, "shortcuts") { [weak self] _ in
            guard let self else { return }
            ShortcutsWindow.present(over: self.window)
        }
        Widgets.addAction(to: window, "quit") { _ in g_application_quit(g_application_get_default()) }
        let keys: [(Int32, String)] = [
            (GDK_KEY_o, "open-in-browser"), (GDK_KEY_m, "toggle-read"), (GDK_KEY_s, "toggle-star"),
            (GDK_KEY_j, "next-entry"), (GDK_KEY_k, "previous-entry"), (GDK_KEY_J, "next-feed"), (GDK_KEY_K, "previous-feed"),
            (GDK_KEY_space, "page-or-next-unread"), (GDK_KEY_r, "refresh"),
        ]
        KeyShortcuts.install(on: window, keys.map { KeyShortcuts.Key(keyval: guint($0.0), action: "win." + $0.1) })
        addLanguageAction()
        let shortcuts = [("win.refresh", ["F5", "<Control>r"]), ("win.add-feed", ["<Control>n"]),
                         ("win.preferences", ["<Control>comma"]), ("win.entry-menu", ["<Shift>F10", "Menu"]),
                         ("win.show-all", ["<Control>1"]), ("win.show-unread", ["<Control>2"]),
                         ("win.show-starred", ["<Control>3"]), ("win.search", ["<Control>f"]),
                         ("win.next-feed", ["<Control>j"]), ("win.previous-feed", ["<Control>k"]),
                         ("win.shortcuts", ["<Control>question"]), ("win.quit", ["<Control>q"]),
                         ("window.close", ["<Control>w"])]
        for (action, keys) in shortcuts {
            withCStringArray(keys) { gtk_application_set_accels_for_action(application, action, $0) }
        }
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
        sidebar.show(feeds, starred: starredCount, selecting: sidebar.selection)
        entryList.retranslate()
        article.retranslate()
        filterBar.retranslate()
        banner.retranslate()
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
    }
}
