import Foundation
import GRDB

/// Which entries are kept as they age.
public struct Retention: Sendable, Hashable {
    /// Entries are kept this many days after they were published and stored; nil keeps them forever.
    public var days: Int?
    /// Unread entries are kept however old.
    public var keepsUnread: Bool
    /// Starred entries are kept however old.
    public var keepsStarred: Bool

    /// Creates a policy; by default entries are kept 90 days, unread and starred ones for good.
    public init(days: Int? = 90, keepsUnread: Bool = true, keepsStarred: Bool = true) {
        self.days = days
        self.keepsUnread = keepsUnread
        self.keepsStarred = keepsStarred
    }
}

extension FeedStore {
    /// Removes the entries `retention` lets go at `now`: older than its days (or their feed's own,
    /// `FeedSettings.keepDays`) both by date and in the store, and neither unread nor starred
    /// unless it says so; and past the newest `FeedSettings.keepNewest` of a feed that keeps a
    /// number, starred ones apart. A synced entry unread or starred is always kept, as its server
    /// still has it so. Each removed entry is remembered so that a feed still listing it does not
    /// bring it back. One transaction: a program killed half-way removes nothing. Returns how
    /// many were removed.
    @discardableResult
    public func expireEntries(_ retention: Retention, at now: Date = Date()) async throws -> Int {
        let isRead = "NOT \(FeedStore.isUnread)"
        let kept = (retention.keepsUnread ? " AND \(isRead)" : "") + (retention.keepsStarred ? " AND isStarred = 0" : "")
            + " AND (remoteId IS NULL OR (\(isRead) AND isStarred = 0))"
        return try await writing { db in
            var removed = 0
            func expire(_ condition: String, _ arguments: StatementArguments) throws {
                try db.execute(sql: "INSERT OR IGNORE INTO expiredEntries (feedId, entryId) SELECT feedId, entryId FROM entries WHERE \(condition)",
                               arguments: arguments)
                try db.execute(sql: "DELETE FROM entries WHERE \(condition)", arguments: arguments)
                removed += db.changesCount
            }
            for feedDays in try Int?.fetchAll(db, sql: "SELECT DISTINCT keepDays FROM feeds") {
                guard let days = feedDays ?? retention.days else { continue }
                let cutoff = now - TimeInterval(days) * 86400
                try expire("MAX(insertedAt, sortDate) < ? AND feedId IN (SELECT id FROM feeds WHERE keepDays IS ?)" + kept, [cutoff, feedDays])
            }
            try expire("""
                isStarred = 0 AND (remoteId IS NULL OR \(isRead)) AND id IN (
                    SELECT id FROM (
                        SELECT entries.id, feeds.keepNewest,
                               ROW_NUMBER() OVER (PARTITION BY entries.feedId ORDER BY entries.sortDate DESC, entries.id DESC) AS rank
                        FROM entries JOIN feeds ON feeds.id = entries.feedId WHERE feeds.keepNewest IS NOT NULL)
                    WHERE rank > keepNewest)
                """, [])
            return removed
        }
    }

    /// Gives the pages freed by removed entries back to the file system: an incremental vacuum, or
    /// once for a database made before incremental vacuum was set, a full VACUUM that sets it.
    /// After entries were removed (`mergingSearchIndex`) the search index is merged first.
    public func compact(mergingSearchIndex: Bool = true) async throws {
        try await writingWithoutTransaction { db in
            // The search index keeps a removed entry's words as deletion marks in its segments
            // until they are merged: merged whole, the index gives their pages back too.
            if mergingSearchIndex { try db.execute(sql: "INSERT INTO entries_search(entries_search) VALUES('optimize')") }
            if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2 {
                try db.execute(sql: "PRAGMA incremental_vacuum")
            } else {
                // VACUUM rebuilds the whole database in a temporary one: on disk, not in memory.
                try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL; PRAGMA temp_store = FILE")
                defer { try? db.execute(sql: "PRAGMA temp_store = MEMORY") }
                try db.execute(sql: "VACUUM")
            }
        }
    }
}
