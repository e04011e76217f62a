import Foundation
import GRDB

extension FeedStore {
    /// Queues a subscription of the account to `url`, into the category that is `folderID`
    /// (outside any for nil); the feed arrives here with the sync that makes it.
    func queueSubscription(accountID: Int64, url: URL, folderID: Int64?) async throws {
        try await writing { db in
            let category = try folderID.map { try FeedStore.remoteID(ofFolder: $0, accountID: accountID, db: db) }
            try FeedStore.queue(.subscribe, accountID: accountID, remoteID: category, argument: url.absoluteString, db: db)
        }
    }

    /// Removes a synced feed here with its entries and queues its unsubscription, in one
    /// transaction; returns the account, or nil for a local feed (left alone).
    func unsubscribeSynced(feedID: Int64) async throws -> Int64? {
        try await writing { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT accountId, remoteId FROM feeds WHERE id = ? AND accountId IS NOT NULL",
                                             arguments: [feedID]) else { return nil }
            let accountID: Int64 = row["accountId"]
            try db.execute(sql: "DELETE FROM feeds WHERE id = ?", arguments: [feedID])
            try FeedStore.queue(.unsubscribe, accountID: accountID, remoteID: row["remoteId"], db: db)
            return accountID
        }
    }

    /// Puts a synced feed into another of its account's folders (out of any for nil) and queues
    /// the move, in one transaction; returns the account, or nil for a local feed (left alone).
    func moveSynced(feedID: Int64, toFolder folderID: Int64?) async throws -> Int64? {
        try await writing { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT accountId, remoteId FROM feeds WHERE id = ? AND accountId IS NOT NULL",
                                             arguments: [feedID]) else { return nil }
            let accountID: Int64 = row["accountId"]
            let category = try folderID.map { try FeedStore.remoteID(ofFolder: $0, accountID: accountID, db: db) }
            try db.execute(sql: "UPDATE feeds SET folderId = ? WHERE id = ?", arguments: [folderID, feedID])
            try db.execute(sql: "DELETE FROM syncQueue WHERE accountId = ? AND action = 'move' AND remoteId = ?",
                           arguments: [accountID, row["remoteId"]])
            try FeedStore.queue(.move, accountID: accountID, remoteID: row["remoteId"], argument: category, db: db)
            return accountID
        }
    }

    /// Marks read every entry of an account, or of one of its folders, and queues the server's
    /// "mark all as read" in the same transaction; returns the entries that changed, for an undo.
    @discardableResult
    public func markAllRead(accountID: Int64, folderID: Int64? = nil) async throws -> [Int64] {
        try await writing { db in
            var filter = "feedId IN (SELECT id FROM feeds WHERE accountId = ?)"
            var arguments: StatementArguments = [accountID]
            let category = try folderID.map { try FeedStore.remoteID(ofFolder: $0, accountID: accountID, db: db) }
            if let folderID {
                filter = "feedId IN (SELECT id FROM feeds WHERE accountId = ? AND folderId = ?)"
                arguments += [folderID]
            }
            let ids = try FeedStore.setRead(true, where: filter, arguments: arguments, db: db)
            if let category {
                try FeedStore.queue(.catchupCategory, accountID: accountID, remoteID: category, db: db)
            } else {
                try FeedStore.queue(.catchupAccount, accountID: accountID, remoteID: nil, db: db)
            }
            return ids
        }
    }

    /// The server's id of an account's folder.
    private static func remoteID(ofFolder folderID: Int64, accountID: Int64, db: Database) throws -> RemoteID {
        guard let id = try RemoteID.fetchOne(db, sql: "SELECT remoteId FROM folders WHERE id = ? AND accountId = ?",
                                             arguments: [folderID, accountID]) else {
            throw FeedStoreError.folderNotInAccount(id: folderID)
        }
        return id
    }
}
