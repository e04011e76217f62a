import GRDB

extension FeedStore {
    /// A feed's unread count (`feeds.id` in the enclosing query) as `feedUnreadCounts` keeps it:
    /// not read and not hidden by a rule.
    static let unreadCountOfFeed = "COALESCE((SELECT unread FROM feedUnreadCounts WHERE feedUnreadCounts.feedId = feeds.id), 0)"

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
