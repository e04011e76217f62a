import Foundation
import GRDB

extension FeedStore {
    /// A page of entries, newest first (by published date, else updated, else when first stored).
    public func entries(_ query: EntryQuery = EntryQuery()) async throws -> [StoredEntry] {
        try await reading { db in
            var conditions: [String] = []
            var arguments = StatementArguments()
            if let feedID = query.feedID {
                conditions.append("feedId = ?")
                arguments += [feedID]
            }
            if let folderID = query.folderID {
                conditions.append("feedId IN (SELECT feeds.id FROM feeds WHERE folderId IN (\(FeedStore.subtreeSQL)))")
                arguments += [folderID]
            }
            if query.unreadOnly {
                conditions.append("isRead = 0")
            }
            if query.starredOnly {
                conditions.append("isStarred = 1")
            }
            if let cursor = query.olderThan {
                conditions.append("(sortDate < ? OR (sortDate = ? AND id < ?))")
                arguments += [cursor.sortDate, cursor.sortDate, cursor.id]
            }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            arguments += [query.limit, query.offset]
            return try StoredEntry.fetchAll(
                db,
                sql: "SELECT \(FeedStore.columns(query.fields)) FROM entries\(filter) ORDER BY sortDate DESC, id DESC LIMIT ? OFFSET ?",
                arguments: arguments
            )
        }
    }

    /// One entry with everything stored about it, or nil when there is no such entry (any longer).
    public func entry(id: Int64) async throws -> StoredEntry? {
        try await reading { db in
            try StoredEntry.fetchOne(db, sql: "SELECT * FROM entries WHERE id = ?", arguments: [id])
        }
    }

    /// The columns `fields` reads, named as `StoredEntry(row:)` expects them.
    static func columns(_ fields: EntryFields) -> String {
        switch fields {
        case .all:
            "*"
        case .listing:
            """
            id, feedId, entryId, title, link, author, published, updated, substr(summary, 1, \(EntryFields.listingSummaryLength)) AS summary,
            NULL AS summaryHTML, NULL AS content, NULL AS enclosures, isRead, isStarred, insertedAt, sortDate
            """
        }
    }

    /// Marks one entry read, or unread with `isRead: false`.
    public func markRead(entryID: Int64, isRead: Bool = true) async throws {
        try await writing { db in
            try db.execute(sql: "UPDATE entries SET isRead = ? WHERE id = ?", arguments: [isRead, entryID])
            if db.changesCount == 0 {
                throw FeedStoreError.entryNotFound(id: entryID)
            }
        }
    }

    /// Stars an entry, or unstars it with `isStarred: false`.
    public func setStarred(entryID: Int64, isStarred: Bool = true) async throws {
        try await writing { db in
            try db.execute(sql: "UPDATE entries SET isStarred = ? WHERE id = ?", arguments: [isStarred, entryID])
            if db.changesCount == 0 {
                throw FeedStoreError.entryNotFound(id: entryID)
            }
        }
    }

    /// Marks every entry read, or only one feed's; returns the entries that changed, for an undo.
    @discardableResult
    public func markAllRead(feedID: Int64? = nil) async throws -> [Int64] {
        try await writing { db in
            let filter = feedID == nil ? "" : " AND feedId = ?"
            let arguments: StatementArguments = feedID.map { [$0] } ?? []
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM entries WHERE isRead = 0" + filter, arguments: arguments)
            try db.execute(sql: "UPDATE entries SET isRead = 1 WHERE isRead = 0" + filter, arguments: arguments)
            return ids
        }
    }

    /// Sets the read state of many entries at once (an undone "mark all read"); unknown ids are skipped.
    public func setRead(_ isRead: Bool, entryIDs: [Int64]) async throws {
        try await writing { db in
            // In slices, well under SQLite's limit on bound parameters.
            for start in stride(from: 0, to: entryIDs.count, by: 500) {
                let slice = Array(entryIDs[start..<min(start + 500, entryIDs.count)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
                try db.execute(sql: "UPDATE entries SET isRead = ? WHERE id IN (\(marks))",
                               arguments: StatementArguments([isRead]) + StatementArguments(slice))
            }
        }
    }

    /// Counts entries, of one feed or all, optionally only the unread or starred ones.
    public func entryCount(feedID: Int64? = nil, unreadOnly: Bool = false, starredOnly: Bool = false) async throws -> Int {
        try await reading { db in
            var sql = "SELECT COUNT(*) FROM entries WHERE 1"
            var arguments = StatementArguments()
            if let feedID {
                sql += " AND feedId = ?"
                arguments += [feedID]
            }
            if unreadOnly {
                sql += " AND isRead = 0"
            }
            if starredOnly {
                sql += " AND isStarred = 1"
            }
            return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
        }
    }
}
