import Foundation
import GRDB

extension FeedStore {
    /// Marks read those of `entryIDs` still unread, in one transaction that also queues each
    /// synced one for its server; returns those it changed, for an undo.
    public func markRead(entryIDs: [Int64]) async throws -> [Int64] {
        guard !entryIDs.isEmpty else { return [] }
        return try await writing { db in
            var changed: [Int64] = []
            // In slices, well under SQLite's limit on bound parameters.
            for start in stride(from: 0, to: entryIDs.count, by: 500) {
                let slice = Array(entryIDs[start..<min(start + 500, entryIDs.count)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
                let unread = try Int64.fetchAll(db, sql: "SELECT id FROM entries WHERE isRead = 0 AND id IN (\(marks))",
                                                arguments: StatementArguments(slice))
                guard !unread.isEmpty else { continue }
                try db.execute(sql: "UPDATE entries SET isRead = 1 WHERE id IN (\(Array(repeating: "?", count: unread.count).joined(separator: ",")))",
                               arguments: StatementArguments(unread))
                changed += unread
            }
            try FeedStore.queueArticleState(.read, entryIDs: changed, db: db)
            return changed
        }
    }

    /// `feed_marking_in_bulk()`: whether the current statement marks many entries at once; the
    /// unread counts' trigger then leaves them to `setRead(_:where:arguments:db:)`.
    static let markingInBulkFunction = DatabaseFunction("feed_marking_in_bulk", argumentCount: 0, pure: false) { _ in
        markingInBulk
    }

    /// Set around a statement marking many entries: their feeds' unread counts change once a
    /// feed rather than once an entry (the trigger was a third of Mark All as Read's CPU on the
    /// bench's store, docs/performance.md). Bound around that statement; the function runs on its thread.
    @TaskLocal static var markingInBulk = false

    /// Sets the read mark of the entries meeting `condition` (a condition on `entries`) whose mark
    /// differs, and changes their feeds' unread counts by as many; returns the ids changed, in order.
    static func setRead(_ isRead: Bool, where condition: String, arguments: StatementArguments = [], db: Database) throws -> [Int64] {
        var changed: [Int64] = []
        var countChanges: [Int64: Int] = [:]
        try $markingInBulk.withValue(true) {
            let rows = try Row.fetchCursor(db, sql: """
                UPDATE entries SET isRead = ? WHERE isRead != ? AND (\(condition)) RETURNING id, feedId, hiddenByRule IS NULL
                """, arguments: [isRead, isRead] + arguments)
            while let row = try rows.next() {
                changed.append(row[0])
                if row[2] as Bool { countChanges[row[1], default: 0] += isRead ? -1 : 1 }
            }
        }
        let count = try db.cachedStatement(sql: "UPDATE feedUnreadCounts SET unread = unread + ? WHERE feedId = ?")
        for (feedID, change) in countChanges {
            try count.execute(arguments: [change, feedID])
        }
        return changed.sorted()
    }

    /// `v29-bulk-read-marks`: the unread counts' trigger skips statements marking in bulk, and
    /// the index of every entry by feed and read mark goes. Nothing read it but counts of a
    /// feed's unread entries, which `feedUnreadCounts` keeps, and a feed's own entries are found
    /// by `entries_by_feed_and_date`; every mark changed moved a row in it (another third of Mark
    /// All as Read's CPU) and it was 13 bytes an entry.
    static func markInBulk(in db: Database) throws {
        try db.execute(sql: """
            DROP INDEX entries_by_feed_and_read;
            DROP TRIGGER entries_unread_update;
            CREATE TRIGGER entries_unread_update AFTER UPDATE OF isRead, hiddenByRule, feedId ON entries
            WHEN NOT feed_marking_in_bulk()
                AND ((old.isRead = 0 AND old.hiddenByRule IS NULL) != (new.isRead = 0 AND new.hiddenByRule IS NULL) OR old.feedId != new.feedId) BEGIN
                UPDATE feedUnreadCounts SET unread = unread - 1 WHERE feedId = old.feedId AND old.isRead = 0 AND old.hiddenByRule IS NULL;
                UPDATE feedUnreadCounts SET unread = unread + 1 WHERE feedId = new.feedId AND new.isRead = 0 AND new.hiddenByRule IS NULL;
            END;
            """)
    }
}
