import Foundation
import GRDB

extension FeedStore {
    /// A page of entries, newest first (by published date, else updated, else when first stored).
    public func entries(_ query: EntryQuery = EntryQuery()) async throws -> [StoredEntry] {
        try await database.read { db in
            var conditions: [String] = []
            var arguments = StatementArguments()
            if let feedID = query.feedID {
                conditions.append("feedId = ?")
                arguments += [feedID]
            }
            if query.unreadOnly {
                conditions.append("isRead = 0")
            }
            if let cursor = query.olderThan {
                conditions.append("(sortDate < ? OR (sortDate = ? AND id < ?))")
                arguments += [cursor.sortDate, cursor.sortDate, cursor.id]
            }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            arguments += [query.limit, query.offset]
            return try StoredEntry.fetchAll(
                db,
                sql: "SELECT * FROM entries\(filter) ORDER BY sortDate DESC, id DESC LIMIT ? OFFSET ?",
                arguments: arguments
            )
        }
    }

    /// Marks one entry read, or unread with `isRead: false`.
    public func markRead(entryID: Int64, isRead: Bool = true) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE entries SET isRead = ? WHERE id = ?", arguments: [isRead, entryID])
            if db.changesCount == 0 {
                throw FeedStoreError.entryNotFound(id: entryID)
            }
        }
    }

    /// Marks every entry read, or only one feed's; returns how many changed.
    @discardableResult
    public func markAllRead(feedID: Int64? = nil) async throws -> Int {
        try await database.write { db in
            if let feedID {
                try db.execute(sql: "UPDATE entries SET isRead = 1 WHERE isRead = 0 AND feedId = ?", arguments: [feedID])
            } else {
                try db.execute(sql: "UPDATE entries SET isRead = 1 WHERE isRead = 0")
            }
            return db.changesCount
        }
    }

    /// Counts entries, of one feed or all, optionally only the unread ones.
    public func entryCount(feedID: Int64? = nil, unreadOnly: Bool = false) async throws -> Int {
        try await database.read { db in
            var sql = "SELECT COUNT(*) FROM entries WHERE 1"
            var arguments = StatementArguments()
            if let feedID {
                sql += " AND feedId = ?"
                arguments += [feedID]
            }
            if unreadOnly {
                sql += " AND isRead = 0"
            }
            return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
        }
    }
}
