import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Reading: the panes, the article of the selected entry, read and starred states, and the
/// keys that move from entry to entry and feed to feed.
extension MainWindow {
    func addReadingActions() {
        Widgets.addAction(to: window, "mark-all-read") { [weak self] _ in self?.markRead(feedID: nil) }
        Widgets.addAction(to: window, "mark-feed-read", withInt64: true) { [weak self] id in self?.markRead(feedID: id) }
        Widgets.addAction(to: window, "mark-account-read", withInt64: true) { [weak self, library] id in
            self?.markRead { try await library.store.markAllRead(accountID: id) }
        }
        Widgets.addAction(to: window, "mark-folder-read", withInt64: true) { [weak self, library] id in
            guard let accountID = self?.sidebar.outline.account(of: .folder(id)) else { return }
            self?.markRead { try await library.store.markAllRead(accountID: accountID, folderID: id) }
        }
        Widgets.addAction(to: window, "open-in-browser") { [weak self] _ in
            guard let entry = self?.entryList.selectedEntry else { return }
            self?.openInBrowser(entry)
        }
        Widgets.addAction(to: window, "toggle-read") { [weak self] _ in self?.toggleRead() }
        Widgets.addAction(to: window, "toggle-star") { [weak self] _ in self?.toggleStar() }
        Widgets.addAction(to: window, "toggle-read-entry", withInt64: true) { [weak self] id in self?.toggleRead(entryID: id) }
        Widgets.addAction(to: window, "toggle-star-entry", withInt64: true) { [weak self] id in self?.toggleStar(entryID: id) }
        for (name, filter) in [("show-all", EntryFilter.all), ("show-unread", .unread)] {
            Widgets.addAction(to: window, name) { [weak self] _ in self?.filterBar.select(filter) }
        }
        Widgets.addAction(to: window, "search") { [weak self] _ in self?.filterBar.startSearch() }
        Widgets.addAction(to: window, "open-entry", withInt64: true) { [weak self] id in
            guard let entry = self?.entryList.entries[id] else { return }
            self?.openInBrowser(entry)
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
        Widgets.addAction(to: window, "back") { [weak self] _ in self?.panes.back() }
        Widgets.addAction(to: window, "zoom-in") { [weak self] _ in self?.article.zoomIn() }
        Widgets.addAction(to: window, "zoom-out") { [weak self] _ in self?.article.zoomOut() }
        Widgets.addAction(to: window, "zoom-reset") { [weak self] _ in self?.article.resetZoom() }
    }

    /// Where panes fold, the pane that comes into view takes the focus; the back buttons show
    /// through their leaflets' folds (views/window.ui).
    func panesChanged() {
        let shown = panes.visiblePanes
        guard shown != shownPanes else { return }
        shownPanes = shown
        guard shown != PaneLeaflet.Pane.allCases else { return }
        switch panes.page {
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

    /// Folded, the article replaces the list once an entry is selected to be read.
    func showArticlePane() {
        guard entryList.selectedEntry != nil else { return }
        panes.show(.article)
    }

    /// Enter on an entry: where the list shows alone, shows its article; otherwise opens its page in the browser.
    func open(_ entry: StoredEntry) {
        if panes.isOnePane, panes.page == .entries {
            showArticlePane()
        } else {
            openInBrowser(entry)
        }
    }


    /// Shows the entry beside the list and marks it read as the preferences say: at once, once it
    /// has stayed selected a few seconds, or never; with no entry left to show, a narrow window
    /// goes back to the list.
    func showArticle(_ entry: StoredEntry?) {
        if markReadTimer != 0 {
            g_source_remove(markReadTimer)
            markReadTimer = 0
        }
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

    /// Reads the entry's body, which the list does not keep, and shows it unless another entry
    /// was selected meanwhile; read and starred as the list shows them now.
    private func showBody(of listed: StoredEntry) {
        Task { @MainActor [weak self, library] in
            let stored: StoredEntry?
            do {
                stored = try await library.store.entry(id: listed.id)
            } catch {
                self?.live?.showStoreError(tr("The stored entries could not be read."), error)
                return
            }
            guard let self = self?.live, var entry = stored, let current = self.entryList.selectedEntry, current.id == entry.id else { return }
            entry.isRead = current.isRead
            entry.isStarred = current.isStarred
            self.article.show(entry, feedTitle: self.model.feedTitles[entry.feedID])
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
                if let notSaved = error as? EntryMarksNotSaved {
                    self?.live?.entryList.update(notSaved.keptState(of: changed))
                    self?.live?.article.update(notSaved.keptState(of: changed))
                }
                self?.live?.showStoreError(failure, error)
            }
            await self?.live?.reloadSidebar()
        }
    }

    func openInBrowser(_ entry: StoredEntry) {
        guard let link = entry.link else { return }
        openExternally(link)
    }

    /// Opens a link outside the app, if it is a web or mail link.
    func openExternally(_ link: URL) {
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
        markRead { [library] in try await library.store.markAllRead(feedID: feedID) }
    }

    /// Marks entries read with `marking`, which returns those that changed, offering to undo it.
    private func markRead(_ marking: @escaping @MainActor () async throws -> [Int64]) {
        Task { @MainActor [weak self] in
            let changed: [Int64]
            do {
                changed = try await marking()
            } catch {
                self?.live?.showStoreError(tr("The read state could not be saved."), error)
                return
            }
            guard let self = self?.live else { return }
            await self.afterReadStateChanged()
            guard self.live != nil else { return }
            guard !changed.isEmpty else { return }
            let text = trn("%d entry marked as read", "%d entries marked as read", changed.count)
                .filling(count: changed.count)
            self.toasts.show(text, button: tr("_Undo")) { [weak self] in self?.live?.undoMarkRead(changed) }
        }
    }

    private func undoMarkRead(_ entryIDs: [Int64]) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.setRead(false, entryIDs: entryIDs)
            } catch {
                self?.live?.showStoreError(tr("The read state could not be saved."), error)
            }
            await self?.live?.afterReadStateChanged()
        }
    }

    private func afterReadStateChanged() async {
        await reloadSidebar()
        guard self.live != nil else { return }
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

    /// Selects another entry with `select`, then shows its article when one pane shows at a time.
    private func read(_ select: (MainWindow) -> Void) {
        select(self)
        showArticlePane()
    }

    /// Selects another feed with `select`, then shows its entries where the sidebar is folded away.
    private func browse(_ select: (MainWindow) -> Void) {
        select(self)
        panes.show(.entries)
    }

    /// A stateful action: the menu shows the current choice as a radio item.
}
