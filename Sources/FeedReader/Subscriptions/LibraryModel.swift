import CGtk
import FeedCore
import RefreshGtk

/// What the window shows of the library, as last read from the store: the local feeds with
/// their folders, the sync accounts with theirs, how many starred entries are unread, the sidebar's
/// rows as GObject items in list models (``sidebarRoot``), and the selection.
///
/// The window's parts talk through it: a part that changes the store says what it changed
/// (``changed(_:selecting:)``), and the parts that show the library follow ``onChange``. So the
/// subscriptions part, which changes feeds and folders, knows nothing of the sidebar or the list.
@MainActor
final class LibraryModel {
    /// What a part changed in the store.
    enum Change: Equatable {
        /// Folders, or the folder a feed is in: a folder's entries may change, no other list's.
        case folders
        /// Feeds added, removed, renamed or given a new address: every list may change, and the
        /// new feeds' icons are fetched.
        case feeds
        /// Entries fetched, synced, removed or marked in bulk: the sidebar changes and the list
        /// lists its entries again, scrolled to the top when new ones came (`newAtTop`).
        case entries(newAtTop: Bool = false)
        /// Saved searches or labels added, renamed or given, or an import's feeds before they are
        /// fetched: the sidebar's rows and counts change; the list already shows the change (and
        /// lists the import's entries once it ends). Marks alone change only counts
        /// (``unreadCountsChanged()``).
        case counts
    }

    private(set) var feeds: [StoredFeed] = []
    private(set) var folders: [StoredFolder] = []
    private(set) var accounts: [SidebarAccount] = []
    /// The starred entries not read yet: Starred's count, unread as every other row's.
    private(set) var starredUnreadCount = 0
    /// The saved searches, in the sidebar's order, with their unread counts.
    private(set) var savedSearches: [SavedSearch] = []
    /// The labels by name, with their unread counts.
    private(set) var labels: [StoredLabel] = []
    /// The row selected in the sidebar, whose entries the list shows.
    var selection = FeedSelection.all
    /// The sidebar's top level: a GListStore of ``SidebarItem``s; folders and accounts hold theirs.
    let sidebarRoot: OpaquePointer = g_list_store_new(SidebarItem.type.gtype)
    /// What each level of the sidebar holds now.
    var outline = SidebarOutline()
    /// While the sidebar's lists change: a selection moving with them is not the person's choice.
    var isUpdatingSidebar = false
    /// The item of every row, our reference to it.
    var items: [FeedSelection: ObjectRef<UnsafeMutablePointer<GObject>>] = [:]
    /// Whether a change leaves the items it makes empty until they are asked for (``item(_:)``,
    /// a row bound to one) or ``fillEveryItem()``: the window's start, whose first frame shows a
    /// screen of rows, not thousands of feeds' items.
    var fillsItemsWhenAsked = false
    /// The rows whose items are made but not filled yet.
    var unfilledItems: Set<FeedSelection> = []
    /// What filling an item reads, kept while items wait to be filled.
    var itemTexts: SidebarItemTexts?

    /// Called once the model holds what the store holds after a change, with the row the part
    /// asked to select (nil: the selection stays where it can); ``changed(_:selecting:)`` returns
    /// once it has, the entry list's first page shown again.
    var onChange: ((Change, FeedSelection?) async -> Void)?
    /// Called when the store could not be read.
    var onFailure: ((any Error) -> Void)?

    private let store: FeedStore

    init(store: FeedStore) {
        self.store = store
    }

    isolated deinit { g_object_unref(cast(sidebarRoot)) }

    /// Reads the subscriptions again after `change`, then tells ``onChange``; `selection` is the
    /// row to select, when the change calls for one.
    func changed(_ change: Change, selecting selection: FeedSelection? = nil) async {
        do {
            let feeds = try await store.feeds()
            let folders = try await store.folders()
            let starredUnreadCount = try await store.entryCount(unreadOnly: true, starredOnly: true)
            let accounts = try await SidebarAccount.all(in: store)
            let savedSearches = try await store.savedSearches()
            let labels = try await store.labels()
            (self.feeds, self.folders, self.starredUnreadCount, self.accounts) = (feeds, folders, starredUnreadCount, accounts)
            (self.savedSearches, self.labels) = (savedSearches, labels)
            updateSidebar()
            await onChange?(change, selection)
        } catch {
            onFailure?(error)
        }
    }

    /// Reads only the unread counts after entries were marked read or unread, and sets them on
    /// the rows whose count changed: the rows, their names and the selection stay as they are.
    /// Reading every feed and folder again for this was most of the 65 ms a mark cost the sidebar
    /// at 5,000 feeds.
    func unreadCountsChanged() async {
        do {
            let counts = try await store.unreadCounts()
            let shown = unreadCountsByRow
            Self.take(counts.feeds, into: &feeds, id: \.id, count: \.unreadCount)
            Self.take(counts.folders, into: &folders, id: \.id, count: \.unreadCount)
            for index in accounts.indices {
                Self.take(counts.feeds, into: &accounts[index].feeds, id: \.id, count: \.unreadCount)
                Self.take(counts.folders, into: &accounts[index].folders, id: \.id, count: \.unreadCount)
            }
            Self.take(counts.savedSearches, into: &savedSearches, id: \.id, count: \.unreadCount)
            Self.take(counts.labels, into: &labels, id: \.id, count: \.unreadCount)
            starredUnreadCount = counts.starred
            itemTexts = nil
            showUnreadCounts(changedFrom: shown)
        } catch {
            onFailure?(error)
        }
    }

    /// Gives each of `items` its count from `counts`, by id; one `counts` does not have keeps its own.
    private static func take<Item>(_ counts: [Int64: Int], into items: inout [Item],
                                   id: KeyPath<Item, Int64>, count: WritableKeyPath<Item, Int>) {
        for index in items.indices {
            if let counted = counts[items[index][keyPath: id]] { items[index][keyPath: count] = counted }
        }
    }

    /// A feed of this computer or of a sync account, by id.
    func feed(id: Int64) -> StoredFeed? {
        feeds.first { $0.id == id } ?? accounts.lazy.flatMap(\.feeds).first { $0.id == id }
    }

    /// A saved search, by id.
    func savedSearch(id: Int64) -> SavedSearch? {
        savedSearches.first { $0.id == id }
    }

    /// Every feed's title, local and synced, as the sidebar names it, by the feed's id.
    var feedTitles: [Int64: String] {
        Dictionary((feeds + accounts.flatMap(\.feeds)).map { ($0.id, $0.displayTitle) }, uniquingKeysWith: { first, _ in first })
    }

    /// The feeds a selection refreshes: nil for all of them.
    func feedIDs(of selection: FeedSelection) -> [Int64]? {
        switch selection {
        case .all, .starred, .label, .labelsHeading:
            return nil
        case let .feed(id):
            return [id]
        case let .folder(id):
            // The feeds in the folder and in the folders below it.
            let inside = folders.subtree(of: id)
            return feeds.filter { $0.folderID.map(inside.contains) == true }.map(\.id)
        case .account:
            // An account's feeds come from its server by a sync, not by fetching each feed.
            return []
        case let .savedSearch(id):
            // Those of where it looks.
            return switch savedSearch(id: id)?.scope {
            case let .feed(feedID)?: feedIDs(of: .feed(feedID))
            case let .folder(folderID)?: feedIDs(of: .folder(folderID))
            case let .account(accountID)?: feedIDs(of: .account(accountID))
            case let .label(labelID)?: feedIDs(of: .label(labelID))
            case .everything?, nil: nil
            }
        }
    }
}
