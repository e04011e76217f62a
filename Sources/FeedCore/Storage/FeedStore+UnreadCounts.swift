import GRDB

extension FeedStore {
    /// A feed's unread count (`feeds.id` in the enclosing query) as `feedUnreadCounts` keeps it:
    /// not read and not hidden by a rule.
    static let unreadCountOfFeed = "COALESCE((SELECT unread FROM feedUnreadCounts WHERE feedUnreadCounts.feedId = feeds.id), 0)"

    /// Every folder with each folder below it, itself included (`below(root, id)`), for ``unreadCountOfFolder``.
    static let foldersBelow = """
        WITH RECURSIVE below(root, id) AS (
            SELECT id, id FROM folders UNION ALL SELECT below.root, folders.id FROM folders JOIN below ON folders.parentId = below.id)
        """

    /// A folder's unread count (`folders.id` in a query opened by ``foldersBelow``): its feeds' and
    /// those of the folders below it.
    static let unreadCountOfFolder = """
        (SELECT COALESCE(SUM(feedUnreadCounts.unread), 0) FROM below JOIN feeds ON feeds.folderId = below.id
         JOIN feedUnreadCounts ON feedUnreadCounts.feedId = feeds.id WHERE below.root = folders.id)
        """

    /// `v26-unread-counts`: every feed's unread count, kept by triggers as entries are stored,
    /// marked, hidden, moved and removed. Counting them from the entries read a million index
    /// rows for the sidebar at every start and change (docs/performance.md, Scale); this is a
    /// row a feed.
    static func createUnreadCounts(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE feedUnreadCounts (
                feedId INTEGER PRIMARY KEY REFERENCES feeds(id) ON DELETE CASCADE,
                unread INTEGER NOT NULL DEFAULT 0);
            CREATE TRIGGER feeds_unread_count AFTER INSERT ON feeds BEGIN
                INSERT INTO feedUnreadCounts (feedId, unread) VALUES (new.id, 0);
            END;
            CREATE TRIGGER entries_unread_insert AFTER INSERT ON entries WHEN new.isRead = 0 AND new.hiddenByRule IS NULL BEGIN
                UPDATE feedUnreadCounts SET unread = unread + 1 WHERE feedId = new.feedId;
            END;
            CREATE TRIGGER entries_unread_delete AFTER DELETE ON entries WHEN old.isRead = 0 AND old.hiddenByRule IS NULL BEGIN
                UPDATE feedUnreadCounts SET unread = unread - 1 WHERE feedId = old.feedId;
            END;
            CREATE TRIGGER entries_unread_update AFTER UPDATE OF isRead, hiddenByRule, feedId ON entries
            WHEN (old.isRead = 0 AND old.hiddenByRule IS NULL) != (new.isRead = 0 AND new.hiddenByRule IS NULL) OR old.feedId != new.feedId BEGIN
                UPDATE feedUnreadCounts SET unread = unread - 1 WHERE feedId = old.feedId AND old.isRead = 0 AND old.hiddenByRule IS NULL;
                UPDATE feedUnreadCounts SET unread = unread + 1 WHERE feedId = new.feedId AND new.isRead = 0 AND new.hiddenByRule IS NULL;
            END;
            DELETE FROM feedUnreadCounts;
            INSERT INTO feedUnreadCounts (feedId, unread)
                SELECT feeds.id, (SELECT COUNT(*) FROM entries WHERE feedId = feeds.id AND isRead = 0 AND hiddenByRule IS NULL) FROM feeds;
            """)
    }

    /// Every feed's unread count counted again from `unreadEntries`, as the triggers keep it,
    /// after the marks of entries no longer stored are dropped (a store copied out of a damaged file).
    static func recountUnread(in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM unreadEntries WHERE id NOT IN (SELECT id FROM entries);
            DELETE FROM feedUnreadCounts;
            INSERT INTO feedUnreadCounts (feedId, unread)
                SELECT feeds.id, COALESCE(counted.unread, 0) FROM feeds LEFT JOIN (
                    SELECT feedId, COUNT(*) AS unread FROM unreadEntries
                    WHERE id NOT IN (SELECT id FROM entries WHERE hiddenByRule IS NOT NULL) GROUP BY feedId
                ) AS counted ON counted.feedId = feeds.id;
            """)
    }
}

/// Every unread count the sidebar shows, by what it counts, without the feeds' and folders' other
/// columns: what a change of read marks changes.
public struct UnreadCounts: Sendable, Equatable {
    /// Every feed's, local and of the accounts, by feed id.
    public var feeds: [Int64: Int] = [:]
    /// Every folder's (its feeds' and those of the folders below it), local and of the accounts, by folder id.
    public var folders: [Int64: Int] = [:]
    /// The starred entries not read yet.
    public var starred = 0
    /// Each saved search's, by its id.
    public var savedSearches: [Int64: Int] = [:]
    /// Each label's, by its id.
    public var labels: [Int64: Int] = [:]

    public init() {}
}

extension FeedStore {
    /// The unread counts of every row of the sidebar. Decoding every feed and folder for their
    /// counts alone was most of the 65 ms the sidebar's counts took at 5,000 feeds (docs/performance.md).
    public func unreadCounts() async throws -> UnreadCounts {
        let searches = try await savedSearches()
        let labels = try await labels()
        let starred = try await entryCount(unreadOnly: true, starredOnly: true)
        return try await reading { db in
            var counts = UnreadCounts()
            try Row.fetchCursor(db, sql: "SELECT id, \(FeedStore.unreadCountOfFeed) FROM feeds").forEach { counts.feeds[$0[0]] = $0[1] }
            try Row.fetchCursor(db, sql: FeedStore.foldersBelow + " SELECT folders.id, \(FeedStore.unreadCountOfFolder) FROM folders")
                .forEach { counts.folders[$0[0]] = $0[1] }
            counts.starred = starred
            counts.savedSearches = Dictionary(searches.map { ($0.id, $0.unreadCount) }, uniquingKeysWith: { first, _ in first })
            counts.labels = Dictionary(labels.map { ($0.id, $0.unreadCount) }, uniquingKeysWith: { first, _ in first })
            return counts
        }
    }
}
