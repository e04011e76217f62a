import Foundation
import GRDB

extension FeedStore {
    /// A page of entries, newest first (by published date, else updated, else when first stored).
    public func entries(_ query: EntryQuery = EntryQuery()) async throws -> [StoredEntry] {
        if query.search != nil { try await indexSearchBacklog() }
        return try await reading { db in
            guard var (conditions, arguments) = try FeedStore.conditions(of: query, in: db) else { return [] }
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

    /// How many entries `query` lists, limits and paging aside.
    static func count(_ query: EntryQuery, in db: Database) throws -> Int {
        guard let (conditions, arguments) = try conditions(of: query, in: db) else { return 0 }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries\(filter)", arguments: arguments) ?? 0
    }

    /// The conditions on `entries` of what `query` selects (its paging aside), with their
    /// arguments; nil when its search can find nothing.
    static func conditions(of query: EntryQuery, in db: Database) throws -> ([String], StatementArguments)? {
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
        if let accountID = query.accountID {
            conditions.append("feedId IN (SELECT feeds.id FROM feeds WHERE accountId = ?)")
            arguments += [accountID]
        }
        if let labelID = query.labelID {
            conditions.append("id IN (SELECT entryId FROM entryLabels WHERE labelId = ?)")
            arguments += [labelID]
        }
        if !query.includesHidden {
            conditions.append("hiddenByRule IS NULL")
        }
        for (applies, state) in [(query.unreadOnly, FeedStore.isUnread), (query.starredOnly, "isStarred = 1")] where applies {
            if let kept = query.keeping {
                conditions.append("(\(state) OR id = ?)")
                arguments += [kept]
            } else {
                conditions.append(state)
            }
        }
        if let text = query.search {
            let search = SearchQuery(text)
            guard let match = try matchExpression(of: search, in: db), let within = try condition(of: search, in: db) else { return nil }
            conditions.append("id IN (SELECT rowid FROM entries_search WHERE entries_search MATCH ?)")
            arguments += [match]
            if !within.isEmpty { conditions.append(within) }
        }
        return (conditions, arguments)
    }

    /// One entry with everything stored about it, or nil when there is no such entry (any longer).
    public func entry(id: Int64) async throws -> StoredEntry? {
        try await reading { db in
            try StoredEntry.fetchOne(db, sql: "SELECT *, \(FeedStore.isReadColumn) FROM entries WHERE id = ?", arguments: [id])
        }
    }

    /// The columns `fields` reads, named as `StoredEntry(row:)` expects them.
    static func columns(_ fields: EntryFields) -> String {
        switch fields {
        case .all:
            "entries.*, \(isReadColumn)"
        case .listing:
            """
            id, feedId, entryId, title, link, author, published, updated, \(summaryExpression(length: EntryFields.listingSummaryLength)) AS summary,
            NULL AS summaryHTML, NULL AS content, NULL AS enclosures, CASE WHEN entries.enclosures IS NOT NULL THEN
                (SELECT json_group_array(json(value)) FROM (SELECT value FROM json_each(entries.enclosures)
                WHERE coalesce(json_extract(value, '$.isThumbnail'), 0) = 0 LIMIT \(EntryFields.listingEnclosures))) END AS \(listedEnclosuresColumn),
            \(isReadColumn), isStarred, insertedAt, sortDate, hiddenByRule
            """
        }
    }

    /// The column of a listing with the few enclosures `StoredEntry.playableMedia` is found
    /// among; NULL for the many entries without any, which are then not decoded at all.
    static let listedEnclosuresColumn = "listedEnclosures"

    /// Marks one entry read, or unread with `isRead: false`; for a synced entry the change is
    /// queued for its server in the same transaction.
    ///
    /// - Throws: `EntryMarksNotSaved`, with the marks the database keeps, when the change was not saved.
    public func markRead(entryID: Int64, isRead: Bool = true) async throws {
        try await setFlag("NOT \(FeedStore.isUnread)", to: isRead, entryID: entryID, queueing: isRead ? .read : .unread) { db in
            _ = try FeedStore.setRead(isRead, where: "id = ?", arguments: [entryID], db: db)
        }
    }

    /// Stars an entry, or unstars it with `isStarred: false`; queued for a synced entry's server.
    ///
    /// - Throws: `EntryMarksNotSaved`, with the marks the database keeps, when the change was not saved.
    public func setStarred(entryID: Int64, isStarred: Bool = true) async throws {
        try await setFlag("isStarred", to: isStarred, entryID: entryID, queueing: isStarred ? .star : .unstar) { db in
            try db.execute(sql: "UPDATE entries SET isStarred = ? WHERE id = ?", arguments: [isStarred, entryID])
        }
    }

    /// Sets one of an entry's marks (read by `mark`, a condition on `entries`, changed by
    /// `write`) and queues it for a synced entry's server in one transaction; when that fails,
    /// reads back what the database kept, so the window can show that rather than the change
    /// it showed at once.
    private func setFlag(_ mark: String, to value: Bool, entryID: Int64, queueing action: QueuedChange.Action,
                         write: @escaping @Sendable (Database) throws -> Void) async throws {
        do {
            try await writing { db in
                guard let current = try Bool.fetchOne(db, sql: "SELECT \(mark) FROM entries WHERE id = ?", arguments: [entryID]) else {
                    throw FeedStoreError.entryNotFound(id: entryID)
                }
                // Unchanged: nothing for a server to hear either.
                guard current != value else { return }
                try write(db)
                try FeedStore.queueArticleState(action, entryIDs: [entryID], db: db)
            }
        } catch let error as FeedStoreError where error == .entryNotFound(id: entryID) {
            throw error
        } catch {
            let kept = try? await reading { db in
                try Row.fetchOne(db, sql: "SELECT \(FeedStore.isReadColumn), isStarred FROM entries WHERE id = ?", arguments: [entryID])
                    .map { EntryMarksNotSaved.Marks(isRead: $0["isRead"], isStarred: $0["isStarred"]) }
            }
            throw EntryMarksNotSaved(kept: kept ?? nil, cause: error)
        }
    }

    /// Marks every entry read, or only one feed's; returns the entries that changed, for an undo.
    /// A synced feed's server, or every account's for all entries, is asked to do the same.
    @discardableResult
    public func markAllRead(feedID: Int64? = nil) async throws -> [Int64] {
        try await writing { db in
            let ids = try FeedStore.setRead(true, where: feedID == nil ? nil : "feedId = ?",
                                            arguments: feedID.map { [$0] } ?? [], db: db)
            if let feedID {
                if let row = try Row.fetchOne(db, sql: "SELECT accountId, remoteId FROM feeds WHERE id = ? AND accountId IS NOT NULL",
                                              arguments: [feedID]) {
                    try FeedStore.queue(.catchupFeed, accountID: row["accountId"], remoteID: row["remoteId"], db: db)
                }
            } else {
                for accountID in try Int64.fetchAll(db, sql: "SELECT id FROM accounts ORDER BY id") {
                    try FeedStore.queue(.catchupAccount, accountID: accountID, remoteID: nil, db: db)
                }
            }
            return ids
        }
    }

    /// Marks read the unread entries of `feedIDs` (a folder of this computer's feeds), or the
    /// unread starred entries when nil; returns those that changed, for an undo. A synced entry's
    /// server is told, one queued change per entry.
    @discardableResult
    public func markAllRead(inFeeds feedIDs: [Int64]?) async throws -> [Int64] {
        guard feedIDs?.isEmpty != true else { return [] }
        return try await writing { db in
            var filter = "isStarred = 1"
            var arguments: StatementArguments = []
            if let feedIDs {
                filter = "feedId IN (\(Array(repeating: "?", count: feedIDs.count).joined(separator: ",")))"
                arguments = StatementArguments(feedIDs)
            }
            let ids = try FeedStore.setRead(true, where: filter, arguments: arguments, db: db)
            try FeedStore.queueArticleState(.read, entryIDs: ids, db: db)
            return ids
        }
    }

    /// Sets the read state of many entries at once (an undone "mark all read"); unknown ids are
    /// skipped. The synced ones' servers are told, one queued change per entry.
    public func setRead(_ isRead: Bool, entryIDs: [Int64]) async throws {
        guard !entryIDs.isEmpty else { return }
        try await writing { db in
            _ = try isRead ? FeedStore.markRead(entryIDs, db: db) : FeedStore.markUnread(entryIDs, db: db)
            try FeedStore.queueArticleState(isRead ? .read : .unread, entryIDs: entryIDs, db: db)
        }
    }

    /// Stars or unstars many entries at once (those selected in the window); unknown ids are
    /// skipped, and only the entries that change are queued for their servers.
    public func setStarred(_ isStarred: Bool, entryIDs: [Int64]) async throws {
        try await writing { db in
            var changed: [Int64] = []
            for start in stride(from: 0, to: entryIDs.count, by: 500) {
                let slice = Array(entryIDs[start..<min(start + 500, entryIDs.count)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM entries WHERE isStarred = ? AND id IN (\(marks))",
                                             arguments: StatementArguments([!isStarred]) + StatementArguments(slice))
                guard !ids.isEmpty else { continue }
                try db.execute(sql: "UPDATE entries SET isStarred = ? WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ",")))",
                               arguments: StatementArguments([isStarred]) + StatementArguments(ids))
                changed += ids
            }
            try FeedStore.queueArticleState(isStarred ? .star : .unstar, entryIDs: changed, db: db)
        }
    }

    /// Counts entries, of one feed or all, optionally only the unread or starred ones; those a rule
    /// hid only with `includingHidden`.
    public func entryCount(feedID: Int64? = nil, unreadOnly: Bool = false, starredOnly: Bool = false,
                           includingHidden: Bool = false) async throws -> Int {
        try await reading { db in
            if unreadOnly, !starredOnly, !includingHidden {
                // What the triggers keep (FeedStore+UnreadCounts), instead of every unread entry counted.
                let sql = "SELECT COALESCE(SUM(unread), 0) FROM feedUnreadCounts" + (feedID == nil ? "" : " WHERE feedId = ?")
                return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(feedID.map { [$0] } ?? [])) ?? 0
            }
            var sql = "SELECT COUNT(*) FROM entries WHERE " + (includingHidden ? "1" : "hiddenByRule IS NULL")
            var arguments = StatementArguments()
            if let feedID {
                sql += " AND feedId = ?"
                arguments += [feedID]
            }
            if unreadOnly {
                sql += " AND \(FeedStore.isUnread)"
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
