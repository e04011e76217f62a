import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Reading's actions, and marking entries read or starred: one at a time in their row and the
/// article at once, or a feed's, folder's or account's at a time with a way to undo it.
extension Reading {
    /// Adds the window's actions for reading and marking entries, and for moving between them.
    func addActions() {
        Widgets.addAction(to: window, "mark-all-read") { [weak self] _ in self?.markShownRead() }
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
        for (name, isRead) in [("read-selected", true), ("unread-selected", false)] {
            Widgets.addAction(to: window, name) { [weak self] _ in
                guard let self else { return }
                self.setRead(self.entryList.selectedIDs, isRead)
            }
        }
        for (name, isStarred) in [("star-selected", true), ("unstar-selected", false)] {
            Widgets.addAction(to: window, name) { [weak self] _ in
                guard let self else { return }
                self.setStarred(self.entryList.selectedIDs, isStarred)
            }
        }
        addLabelActions()
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
        Widgets.addAction(to: window, "zoom-in") { [weak self] _ in self?.zoom { $0.zoomIn() } }
        Widgets.addAction(to: window, "zoom-out") { [weak self] _ in self?.zoom { $0.zoomOut() } }
        Widgets.addAction(to: window, "zoom-reset") { [weak self] _ in self?.zoom { $0.resetZoom() } }
        addMarkAroundActions()
        enableArticleActions(for: entryList.selectedEntry)
    }

    /// Zooms the article with `change` and says the level it reached, over the article it
    /// describes, which stops at the highest and lowest: a key pressed again there says so
    /// rather than seeming to do nothing.
    private func zoom(_ change: (ArticleView) -> Void) {
        change(article)
        let percent = Int((article.zoom * 100).rounded())
        // TRANSLATORS: a notice after zooming the article; %d%% is its size in percent, such as 120%.
        article.toasts.show(tr("Text size %d%%").filling(percent: percent))
    }

    /// Marks one entry read or unread, in the store, its row and the unread counts.
    func setRead(_ entry: StoredEntry, _ isRead: Bool) {
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
                self?.onFailure?(failure, error)
            }
            await self?.model.unreadCountsChanged()
        }
    }

    /// Marks read what the list shows, as the main menu's item says: a search's results, else what
    /// the sidebar has selected: every entry for All Feeds, else only the selected feed's,
    /// folder's, account's, label's or the starred ones.
    private func markShownRead() {
        let store = library.store
        if entryList.searchedText != nil {
            markRead { [entryList] in try await store.markRead(entryIDs: try await entryList.searchResultIDs()) }
            return
        }
        switch sidebar.selection {
        case .all: markRead(feedID: nil)
        case let .feed(id): markRead(feedID: id)
        case let .account(id): markRead { try await store.markAllRead(accountID: id) }
        case .starred: markRead { try await store.markAllRead(inFeeds: nil) }
        case let .savedSearch(id):
            guard let search = model.savedSearch(id: id) else { return }
            markRead { try await store.markAllRead(in: search) }
        case let .label(id): markRead { try await store.markAllRead(labelID: id) }
        case .labelsHeading: return
        case let .folder(id):
            if let accountID = sidebar.outline.account(of: .folder(id)) {
                markRead { try await store.markAllRead(accountID: accountID, folderID: id) }
            } else {
                let inside = model.folders.subtree(of: id)
                let feedIDs = model.feeds.filter { $0.folderID.map(inside.contains) == true }.map(\.id)
                markRead { try await store.markAllRead(inFeeds: feedIDs) }
            }
        }
    }

    /// The main menu's label for marking read what the list shows: a search's results, else what
    /// `selection` shows, named as the sidebar names it.
    static func markReadLabel(for selection: FeedSelection, title: String, searching: Bool) -> String {
        // TRANSLATORS: main menu item while the list shows a search's results.
        guard !searching else { return tr("_Mark Results as Read") }
        guard selection != .all else { return tr("_Mark All as Read") }
        // A name's underscores are its own, not the menu's mnemonic marks.
        let name = title.replacingOccurrences(of: "_", with: "__")
        // TRANSLATORS: main menu item; %@ is the selected feed, folder or account, or Starred.
        return tr("_Mark “%@” as Read").filling(name)
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
                self?.onFailure?(tr("The read state could not be saved."), error)
                return
            }
            guard let self = self?.live else { return }
            await self.afterReadStateChanged()
            guard self.live != nil else { return }
            self.offerUndo(ofMarkingRead: changed)
        }
    }

    /// Says how many entries were just marked read, with an Undo that marks them unread again.
    func offerUndo(ofMarkingRead changed: [Int64]) {
        guard !changed.isEmpty else { return }
        let text = trn("%d entry marked as read", "%d entries marked as read", changed.count).filling(count: changed.count)
        toasts.show(text, button: tr("_Undo")) { [weak self] in self?.markUnread(changed) }
    }

    /// Marks `entryIDs` unread: the Undo of a mark read, or several entries selected.
    private func markUnread(_ entryIDs: [Int64]) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.setRead(false, entryIDs: entryIDs)
            } catch {
                self?.onFailure?(tr("The read state could not be saved."), error)
            }
            await self?.afterReadStateChanged()
        }
    }

    private func afterReadStateChanged() async {
        await model.changed(.entries())
    }

    /// Marks the entry (the selected one when nil) unread if it is read, read if not; of several
    /// selected, all read when one is unread, else all unread.
    private func toggleRead(entryID: Int64? = nil) {
        let selected = entryList.selectedIDs
        if entryID == nil, selected.count > 1 {
            return setRead(selected, selected.contains { entryList.entries[$0]?.isRead == false })
        }
        guard let entry = entryID.flatMap({ entryList.entries[$0] }) ?? entryList.selectedEntry else { return }
        setRead(entry, !entry.isRead)
    }

    /// Stars the entry (the selected one when nil), or unstars it; of several selected, stars
    /// all when one is not starred, else unstars all.
    private func toggleStar(entryID: Int64? = nil) {
        let selected = entryList.selectedIDs
        if entryID == nil, selected.count > 1 {
            return setStarred(selected, selected.contains { entryList.entries[$0]?.isStarred == false })
        }
        guard let entry = entryID.flatMap({ entryList.entries[$0] }) ?? entryList.selectedEntry else { return }
        setStarred(entry, !entry.isStarred)
    }

    /// Marks the entries `ids` read, offering to undo it, or unread.
    private func setRead(_ ids: [Int64], _ isRead: Bool) {
        guard !ids.isEmpty else { return }
        guard isRead else { return markUnread(ids) }
        markRead { [library] in try await library.store.markRead(entryIDs: ids) }
    }

    /// Stars or unstars the entries `ids`; the list and the counts follow.
    private func setStarred(_ ids: [Int64], _ isStarred: Bool) {
        guard !ids.isEmpty else { return }
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.setStarred(isStarred, entryIDs: ids)
            } catch {
                self?.onFailure?(tr("The star could not be saved."), error)
            }
            await self?.model.changed(.entries())
        }
    }
}
