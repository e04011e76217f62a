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
}
