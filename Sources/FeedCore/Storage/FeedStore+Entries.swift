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
    ///
    /// - Throws: `EntryMarksNotSaved`, with the marks the database keeps, when the change was not saved.
    public func markRead(entryID: Int64, isRead: Bool = true) async throws {
        try await savingMarks(of: entryID) { db in
            try db.execute(sql: "UPDATE entries SET isRead = ? WHERE id = ?", arguments: [isRead, entryID])
        }
    }

    /// Stars an entry, or unstars it with `isStarred: false`.
    ///
    /// - Throws: `EntryMarksNotSaved`, with the marks the database keeps, when the change was not saved.
    public func setStarred(entryID: Int64, isStarred: Bool = true) async throws {
        try await savingMarks(of: entryID) { db in
            try db.execute(sql: "UPDATE entries SET isStarred = ? WHERE id = ?", arguments: [isStarred, entryID])
        }
    }

    /// Runs `update` on one entry's row; when it fails, reads back what the database kept, so
    /// the window can show that rather than the change it showed at once.
    private func savingMarks(of entryID: Int64, _ update: @Sendable @escaping (Database) throws -> Void) async throws {
        do {
            try await writing { db in
                try update(db)
                if db.changesCount == 0 {
                    throw FeedStoreError.entryNotFound(id: entryID)
                }
            }
        } catch let error as FeedStoreError where error == .entryNotFound(id: entryID) {
            throw error
        } catch {
            let kept = try? await reading { db in
                try Row.fetchOne(db, sql: "SELECT isRead, isStarred FROM entries WHERE id = ?", arguments: [entryID])
                    .map { EntryMarksNotSaved.Marks(isRead: $0["isRead"], isStarred: $0["isStarred"]) }
            }
            throw EntryMarksNotSaved(kept: kept ?? nil, cause: error)
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

/// A change to an entry's read or starred mark that was not saved, with what the database keeps.
public struct EntryMarksNotSaved: ReasonedError, CustomStringConvertible {
    /// An entry's marks as stored.
    public struct Marks: Sendable, Equatable {
        public var isRead: Bool
        public var isStarred: Bool
    }

    /// The marks the database keeps; nil when the entry is gone or could not be read either.
    public let kept: Marks?
    /// Why the change was not saved.
    public let cause: any Error

    /// `entry` as the database keeps it: with the kept marks, or unchanged when they are unknown.
    public func keptState(of entry: StoredEntry) -> StoredEntry {
        guard let kept else { return entry }
        var stored = entry
        stored.isRead = kept.isRead
        stored.isStarred = kept.isStarred
        return stored
    }

    /// Why the change was not saved, as a code and its values.
    public var reason: ErrorReason { ErrorReason(cause) }

    public var description: String { "\(cause)" }
}
