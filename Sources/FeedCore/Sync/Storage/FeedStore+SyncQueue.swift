import Foundation
import GRDB

/// One row of the sync queue: a change made here that the server has yet to make.
struct QueuedChange: Sendable, Hashable {
    /// What the row asks for, as stored in `syncQueue.action`.
    enum Action: String, Sendable {
        case read, unread, star, unstar, subscribe, unsubscribe, move
        case catchupFeed, catchupCategory, catchupAccount
        /// A label, named by the argument, put on or taken off an article.
        case label, unlabel
    }

    var id: Int64
    var action: Action
    /// The article, feed or category acted on (the category to subscribe into).
    var remoteID: RemoteID? = nil
    /// The address to subscribe to; the category to move into; the label's name.
    var argument: String? = nil
    /// When the change was made here.
    var queuedAt = Date()
}

extension FeedStore {
    /// Queues, in the caller's transaction, the read (or star) state just given to the synced
    /// entries among `entryIDs`, replacing any change of the same kind queued for them before.
    static func queueArticleState(_ action: QueuedChange.Action, entryIDs: [Int64], db: Database) throws {
        let opposite: QueuedChange.Action = switch action {
        case .read: .unread
        case .unread: .read
        case .star: .unstar
        default: .star
        }
        try queueForSyncedEntries(action, replacing: [action, opposite], argument: nil, entryIDs: entryIDs, db: db)
    }

    /// Queues, in the caller's transaction, the label `name` just put on (or taken off) the
    /// synced entries among `entryIDs`, replacing any change of that label queued for them before.
    static func queueLabelChange(_ name: String, isOn: Bool, entryIDs: [Int64], db: Database) throws {
        try queueForSyncedEntries(isOn ? .label : .unlabel, replacing: [.label, .unlabel], argument: name, entryIDs: entryIDs, db: db)
    }

    /// Queues `action` (with `argument`) for the synced entries among `entryIDs`, in place of the
    /// changes among `replaced` (with the same argument) queued for them before.
    private static func queueForSyncedEntries(_ action: QueuedChange.Action, replacing replaced: [QueuedChange.Action],
                                              argument: String?, entryIDs: [Int64], db: Database) throws {
        // Without an account no entry is synced: an undone Mark All as Read's million ids need no look.
        guard !entryIDs.isEmpty, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM accounts)") == true else { return }
        let now = FeedStore.storageValue(Date())
        let replacedMarks = Array(repeating: "?", count: replaced.count).joined(separator: ",")
        let sameArgument = argument == nil ? "" : " AND argument = ?"
        let replacing = StatementArguments(replaced.map(\.rawValue)) + StatementArguments(argument.map { [$0] } ?? [])
        for start in stride(from: 0, to: entryIDs.count, by: 500) {
            let slice = Array(entryIDs[start..<min(start + 500, entryIDs.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
            let synced = """
                SELECT feeds.accountId, entries.remoteId FROM entries JOIN feeds ON feeds.id = entries.feedId
                WHERE entries.id IN (\(marks)) AND entries.remoteId IS NOT NULL AND feeds.accountId IS NOT NULL
                """
            try db.execute(sql: "DELETE FROM syncQueue WHERE action IN (\(replacedMarks))\(sameArgument) AND (accountId, remoteId) IN (\(synced))",
                           arguments: replacing + StatementArguments(slice))
            try db.execute(sql: """
                INSERT INTO syncQueue (accountId, action, remoteId, argument, queuedAt)
                SELECT feeds.accountId, ?, entries.remoteId, ?, ? FROM entries JOIN feeds ON feeds.id = entries.feedId
                WHERE entries.id IN (\(marks)) AND entries.remoteId IS NOT NULL AND feeds.accountId IS NOT NULL ORDER BY entries.id
                """, arguments: [action.rawValue, argument, now] + StatementArguments(slice))
        }
    }

    /// Queues one change of an account in the caller's transaction.
    static func queue(_ action: QueuedChange.Action, accountID: Int64, remoteID: RemoteID?, argument: String? = nil, db: Database) throws {
        try db.execute(sql: "INSERT INTO syncQueue (accountId, action, remoteId, argument, queuedAt) VALUES (?, ?, ?, ?, ?)",
                       arguments: [accountID, action.rawValue, remoteID, argument, FeedStore.storageValue(Date())])
    }

    /// The account's queued changes, oldest first.
    func queuedChanges(accountID: Int64) async throws -> [QueuedChange] {
        try await reading { db in
            try Row.fetchAll(db, sql: "SELECT id, action, remoteId, argument, queuedAt FROM syncQueue WHERE accountId = ? ORDER BY id",
                             arguments: [accountID]).compactMap { row in
                QueuedChange.Action(rawValue: row["action"]).map {
                    QueuedChange(id: row["id"], action: $0, remoteID: row["remoteId"], argument: row["argument"], queuedAt: row.utcDate("queuedAt") ?? row["queuedAt"])
                }
            }
        }
    }

    /// Forgets queued changes the server has made.
    func removeQueuedChanges(ids: [Int64]) async throws {
        try await writing { db in
            for start in stride(from: 0, to: ids.count, by: 500) {
                let slice = Array(ids[start..<min(start + 500, ids.count)])
                try db.execute(sql: "DELETE FROM syncQueue WHERE id IN (\(Array(repeating: "?", count: slice.count).joined(separator: ",")))",
                               arguments: StatementArguments(slice))
            }
        }
    }

    /// How many changes wait for the server, of one account or all.
    public func queuedChangeCount(accountID: Int64? = nil) async throws -> Int {
        try await reading { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM syncQueue" + (accountID == nil ? "" : " WHERE accountId = ?"),
                             arguments: accountID.map { [$0] } ?? []) ?? 0
        }
    }
}
