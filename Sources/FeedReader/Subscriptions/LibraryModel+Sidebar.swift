import CGtk
import FeedCore
import RefreshGtk

/// The sidebar's rows as the model holds them: one GListStore of ``SidebarItem``s per level
/// (the top, and inside each folder and account), updated in place from what the store holds.
/// A row whose counts or name change keeps its item, which notifies the widgets bound to it; only
/// rows added or removed are spliced into their level's list, so selection and scroll stay.
extension LibraryModel {
    /// The item standing for `selection`, when it is in the sidebar, filled.
    func item(_ selection: FeedSelection) -> SidebarItem? {
        fill(selection)
        return heldItem(selection)
    }

    /// The item standing for `selection`, as it is: filled or not.
    private func heldItem(_ selection: FeedSelection) -> SidebarItem? {
        items[selection].map { SidebarItem($0.pointer) }
    }

    /// Every item, in no order.
    var allItems: [SidebarItem] { items.values.map { SidebarItem($0.pointer) } }

    /// Brings the items and their lists in step with ``feeds``, ``folders``, ``accounts``, ``labels`` and ``starredUnreadCount``.
    func updateSidebar() {
        let new = SidebarOutline(feeds: feeds.map { ($0.id, $0.folderID) }, folders: folders.map { ($0.id, $0.parentID) },
                                 accounts: accounts.map { account in
                                     SidebarOutline.Account(id: account.account.id, feeds: account.feeds.map { ($0.id, $0.folderID) },
                                                            folders: account.folders.map { ($0.id, $0.parentID) })
                                 },
                                 savedSearches: savedSearches.map(\.id), labels: labels.map(\.id))
        let old = outline
        outline = new
        isUpdatingSidebar = true
        defer { isUpdatingSidebar = false }
        for selection in new.top + new.children.values.joined() where items[selection] == nil {
            items[selection] = ObjectRef(takingOwnership: SidebarItem.make(selection).object)
            if fillsItemsWhenAsked { unfilledItems.insert(selection) }
        }
        fillItems()
        // The lists inside first, so a folder spliced in below already holds its rows.
        for (parent, rows) in new.children {
            guard let ref = items[parent] else { continue }
            splice(SidebarItem(ref.pointer).makeChildren(), from: old.children[parent] ?? [], to: rows)
        }
        splice(sidebarRoot, from: old.top, to: new.top)
        let shown = Set(new.top + new.children.values.joined())
        for selection in items.keys where !shown.contains(selection) {
            items[selection] = nil
            unfilledItems.remove(selection)
        }
    }

    /// Replaces the run of `list`'s items that differs between `old` and `new`.
    private func splice(_ list: OpaquePointer, from old: [FeedSelection], to new: [FeedSelection]) {
        guard let splice = SidebarOutline.splice(from: old, to: new) else { return }
        var added: [gpointer?] = new[splice.position..<splice.position + splice.added].map { items[$0].map { UnsafeMutableRawPointer($0.pointer) } }
        g_list_store_splice(list, guint(splice.position), guint(splice.removed), &added, guint(added.count))
    }

    /// Writes what every row shows, in the current language; the items notify only what changed.
    /// While ``fillsItemsWhenAsked``, the items not filled yet are left for when they are asked for.
    func fillItems() {
        var texts = SidebarItemTexts(self)
        for (selection, ref) in items where !fillsItemsWhenAsked || !unfilledItems.contains(selection) {
            fill(SidebarItem(ref.pointer), as: selection, from: &texts)
        }
        if fillsItemsWhenAsked {
            itemTexts = texts
        } else {
            (unfilledItems, itemTexts) = ([], nil)
        }
    }

    /// Fills the items left empty (``fillsItemsWhenAsked``), and from now on every item a change makes.
    func fillEveryItem() {
        fillsItemsWhenAsked = false
        var texts = itemTexts ?? SidebarItemTexts(self)
        for selection in unfilledItems {
            if let item = heldItem(selection) { fill(item, as: selection, from: &texts) }
        }
        (unfilledItems, itemTexts) = ([], nil)
    }

    /// Fills the item of `selection` when it waits to be filled: a row is about to show it, or a part reads it.
    func fill(_ selection: FeedSelection) {
        guard unfilledItems.remove(selection) != nil, let item = heldItem(selection) else { return }
        var texts = itemTexts ?? SidebarItemTexts(self)
        fill(item, as: selection, from: &texts)
        itemTexts = texts
    }

    /// Writes what the row of `selection` shows into `item`.
    private func fill(_ item: SidebarItem, as selection: FeedSelection, from texts: inout SidebarItemTexts) {
        func show(title: String, icon: String) {
            let unread = texts.unreadCounts[selection] ?? 0
            item.title = title
            item.iconName = icon
            item.unreadCount = unread
            item.accessibleDescription = texts.counts.description(unread)
            item.accessibleName = texts.counts.name(title, unread: unread)
        }
        switch selection {
        case .all:
            show(title: tr("All Feeds"), icon: "view-list-symbolic")
        case .starred:
            show(title: tr("Starred"), icon: "starred-symbolic")
        case let .savedSearch(id):
            let search = savedSearch(id: id)
            show(title: search?.name ?? "", icon: "edit-find-symbolic")
            item.tooltip = search?.query ?? ""
        case let .folder(id):
            show(title: texts.folders[id]?.name ?? "", icon: "folder-symbolic")
        case let .feed(id):
            let feed = texts.feeds[id]
            show(title: feed?.displayTitle ?? "", icon: "application-rss+xml-symbolic")
            item.hasError = feed?.lastError != nil
            item.tooltip = feed.flatMap(Self.tooltip) ?? ""
        case let .label(id):
            show(title: labels.first { $0.id == id }?.name ?? "", icon: "user-bookmarks-symbolic")
        case .labelsHeading:
            // TRANSLATORS: the heading of the sidebar's section of labels (tags put on entries).
            item.title = tr("Labels")
            item.accessibleName = item.title
        case let .account(id):
            guard let account = accounts.first(where: { $0.account.id == id }) else { return }
            show(title: account.name.server, icon: "network-server-symbolic")
            item.subtitle = account.name.service.map { account.name.user + " · " + $0 } ?? account.name.user
            let syncError = account.account.lastError.map { $0.message(for: account.account.kind) }
            item.syncError = syncError ?? ""
            item.tooltip = syncError ?? ""
            // The service is named for screen readers, after the user and the server.
            item.accessibleDescription = ([account.account.kind.displayName] + (syncError.map { [$0] } ?? [])).joined(separator: " ")
            item.accessibleName = Self.accessibleName(account.name.text, unread: account.unreadCount)
        }
    }

    /// Every row's unread count as the model holds it, by row: All Feeds counts every feed's,
    /// an account its feeds'.
    var unreadCountsByRow: [FeedSelection: Int] {
        let allFeeds = feeds + accounts.flatMap(\.feeds)
        var counts: [FeedSelection: Int] = [.starred: starredUnreadCount]
        counts.reserveCapacity(allFeeds.count + folders.count + 8)
        for feed in allFeeds where counts[.feed(feed.id)] == nil { counts[.feed(feed.id)] = feed.unreadCount }
        counts[.all] = counts.reduce(0) { sum, row in sum + (row.key.feedID != nil ? row.value : 0) }
        for folder in folders + accounts.flatMap(\.folders) where counts[.folder(folder.id)] == nil { counts[.folder(folder.id)] = folder.unreadCount }
        for account in accounts { counts[.account(account.account.id)] = account.unreadCount }
        for search in savedSearches { counts[.savedSearch(search.id)] = search.unreadCount }
        for label in labels { counts[.label(label.id)] = label.unreadCount }
        return counts
    }

    /// Sets on each row whose unread count differs from `shown` its count and the words for
    /// screen readers that say it; the other rows are left alone.
    func showUnreadCounts(changedFrom shown: [FeedSelection: Int]) {
        var countTexts = CountTexts()
        // An item not filled yet is filled with the new count when asked for.
        for (selection, unread) in unreadCountsByRow where shown[selection] != unread && !unfilledItems.contains(selection) {
            guard let item = heldItem(selection) else { continue }
            item.unreadCount = unread
            if case let .account(id) = selection {
                guard let account = accounts.first(where: { $0.account.id == id }) else { continue }
                item.accessibleName = Self.accessibleName(account.name.text, unread: unread)
            } else {
                item.accessibleDescription = countTexts.description(unread)
                item.accessibleName = countTexts.name(item.title, unread: unread)
            }
        }
    }

    /// The words for screen readers of the rows' unread counts, each count's looked up once a
    /// fill: for 5,000 feeds the catalog's lookups and fillings were tens of milliseconds of a start.
    @MainActor
    struct CountTexts {
        private var descriptions: [Int: String] = [:]
        private var names: [Int: String] = [:]

        /// "3 unread entries".
        mutating func description(_ unread: Int) -> String {
            if let known = descriptions[unread] { return known }
            let text = trn("%d unread entry", "%d unread entries", unread).filling(count: unread)
            descriptions[unread] = text
            return text
        }

        /// "GNOME Desktop Notes, 3 unread".
        mutating func name(_ title: String, unread: Int) -> String {
            if let known = names[unread] { return known.filling(phrase: title) }
            let sentence = LibraryModel.accessibleNameSentence(unread: unread)
            names[unread] = sentence
            return sentence.filling(phrase: title)
        }
    }

    /// The title of a row, as the list pane's header shows it when the row is selected.
    func title(of selection: FeedSelection) -> String { item(selection)?.title ?? "" }

    /// A feed's tooltip: where a fetch error or the feed's mistakes show; nil when it has neither.
    private static func tooltip(_ feed: StoredFeed) -> String? {
        if let error = feed.lastError {
            // TRANSLATORS: tooltip of a feed whose last refresh failed; %@ is the reason.
            return tr("Last refresh failed: %@").filling(error.sentence)
        }
        guard !feed.lastWarnings.isEmpty else { return nil }
        // TRANSLATORS: tooltip of a feed that is not well-formed but was read anyway; %@ lists what was wrong.
        return tr("Read despite mistakes in the feed: %@").filling(lines: feed.lastWarnings.map(\.sentence))
    }

    /// "GNOME Desktop Notes, 3 unread".
    static func accessibleName(_ title: String, unread: Int) -> String {
        accessibleNameSentence(unread: unread).filling(phrase: title)
    }

    /// "%@, 3 unread": the name's sentence with its count, for a title.
    static func accessibleNameSentence(unread: Int) -> String {
        // TRANSLATORS: a feed's name for screen readers; %@ is its title, %d how many of its entries are unread.
        trn("%@, %d unread", "%@, %d unread", unread).filling(count: unread)
    }
}

extension StoredFeed {
    /// The feed's name as the window shows it: its title, else its address's host.
    var displayTitle: String {
        title?.isEmpty == false ? title! : (url.host ?? url.lastPathComponent)
    }
}

/// What filling the sidebar's items reads of the model, gathered once for them all: the feeds and
/// folders by id, every row's unread count and the words that say it.
@MainActor
struct SidebarItemTexts {
    let feeds: [Int64: StoredFeed]
    let folders: [Int64: StoredFolder]
    let unreadCounts: [FeedSelection: Int]
    var counts = LibraryModel.CountTexts()

    init(_ model: LibraryModel) {
        var feeds: [Int64: StoredFeed] = [:], folders: [Int64: StoredFolder] = [:]
        feeds.reserveCapacity(model.feeds.count)
        for feed in model.feeds where feeds[feed.id] == nil { feeds[feed.id] = feed }
        for folder in model.folders where folders[folder.id] == nil { folders[folder.id] = folder }
        for account in model.accounts {
            for feed in account.feeds where feeds[feed.id] == nil { feeds[feed.id] = feed }
            for folder in account.folders where folders[folder.id] == nil { folders[folder.id] = folder }
        }
        (self.feeds, self.folders, unreadCounts) = (feeds, folders, model.unreadCountsByRow)
    }
}
