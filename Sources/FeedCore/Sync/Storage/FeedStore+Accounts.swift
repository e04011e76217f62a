import Foundation
import GRDB

extension FeedStore {
    /// Adds an account, last among the accounts; its password goes to the secret store, not here.
    ///
    /// - Throws: `FeedStoreError.accountExists` when the same user on the same server is already added.
    public func addAccount(kind: SyncServiceKind, server: URL, user: String) async throws -> SyncAccount {
        try await writing { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM accounts WHERE service = ? AND server = ? AND user = ?",
                                 arguments: [kind.rawValue, server.absoluteString, user]) == true {
                throw FeedStoreError.accountExists(user: user, server: server)
            }
            let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM accounts") ?? 0
            try db.execute(sql: "INSERT INTO accounts (service, server, user, position) VALUES (?, ?, ?, ?)",
                           arguments: [kind.rawValue, server.absoluteString, user, position])
            return try FeedStore.account(id: db.lastInsertedRowID, in: db)
        }
    }

    /// Every account in list order.
    public func accounts() async throws -> [SyncAccount] {
        try await reading { db in try SyncAccount.fetchAll(db, sql: "SELECT * FROM accounts ORDER BY position, id") }
    }

    /// One account, or nil when there is no such account.
    public func account(id: Int64) async throws -> SyncAccount? {
        try await reading { db in try SyncAccount.fetchOne(db, sql: "SELECT * FROM accounts WHERE id = ?", arguments: [id]) }
    }

    /// Forgets an account here with its folders, feeds, entries and queued changes; the server
    /// is not told (the engine removes the password).
    public func removeAccount(id: Int64) async throws {
        try await writing { db in
            // Feeds first: their entries' search index rows go with them through the triggers.
            try db.execute(sql: "DELETE FROM feeds WHERE accountId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw FeedStoreError.accountNotFound(id: id) }
        }
    }

    /// An account's feeds in the server's order, each with its unread count.
    public func feeds(accountID: Int64) async throws -> [StoredFeed] {
        try await reading { db in
            try StoredFeed.fetchAll(db, sql: """
                SELECT feeds.*, \(FeedStore.unreadCountOfFeed) AS unreadCount FROM feeds WHERE accountId = ? ORDER BY position, id
                """, arguments: [accountID])
        }
    }

    /// An account's categories as folders, in the server's order, with their unread counts.
    public func folders(accountID: Int64) async throws -> [StoredFolder] {
        try await folders(where: "accountId = ?", arguments: [accountID])
    }

    /// The feeds, local or of any account, whose address is `address`.
    public func feedsWithAddress(_ address: String) async throws -> [Int64] {
        try await reading { db in try Int64.fetchAll(db, sql: "SELECT id FROM feeds WHERE url = ? ORDER BY id", arguments: [address]) }
    }

    /// The address of each of the account's feeds, by the server's id for it.
    func remoteFeedAddresses(accountID: Int64) async throws -> [RemoteID: URL] {
        try await reading { db in
            var addresses: [RemoteID: URL] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT remoteId, url FROM feeds WHERE accountId = ?", arguments: [accountID]) {
                if let id = row["remoteId"] as RemoteID?, let url = URL(string: row["url"]) { addresses[id] = url }
            }
            return addresses
        }
    }

    /// The server's id of a feed of an account, with the account; nil for a local feed.
    public func remoteFeed(id: Int64) async throws -> (accountID: Int64, remoteID: RemoteID)? {
        try await reading { db in
            try Row.fetchOne(db, sql: "SELECT accountId, remoteId FROM feeds WHERE id = ? AND accountId IS NOT NULL", arguments: [id])
                .map { ($0["accountId"], $0["remoteId"]) }
        }
    }

    /// How many unread entries of the account were stored at `since` or later, and in how many
    /// feeds, those of feeds whose notifications are off left out.
    func unreadNews(accountID: Int64, since: Date) async throws -> (entries: Int, feeds: Int) {
        try await reading { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS entries, COUNT(DISTINCT feedId) AS feeds FROM entries
                WHERE \(FeedStore.isUnread) AND hiddenByRule IS NULL AND insertedAt >= ?
                  AND feedId IN (SELECT id FROM feeds WHERE accountId = ? AND notifiesNewEntries = 1)
                """, arguments: [FeedStore.storageValue(since), accountID])
            return (row?["entries"] ?? 0, row?["feeds"] ?? 0)
        }
    }

    /// Records how an account's sync ended: completed (no error, `lastSync` moves on) or failed.
    public func recordSync(accountID: Int64, at date: Date, error: SyncError?) async throws {
        try await writing { db in
            if let error {
                try db.execute(sql: "UPDATE accounts SET lastErrorCode = ?, lastErrorDetail = ? WHERE id = ?",
                               arguments: [error.code.rawValue, error.detail, accountID])
            } else {
                try db.execute(sql: "UPDATE accounts SET lastSync = ?, lastErrorCode = NULL, lastErrorDetail = NULL WHERE id = ?",
                               arguments: [FeedStore.storageValue(date), accountID])
            }
        }
    }

    static func account(id: Int64, in db: Database) throws -> SyncAccount {
        guard let account = try SyncAccount.fetchOne(db, sql: "SELECT * FROM accounts WHERE id = ?", arguments: [id]) else {
            throw FeedStoreError.accountNotFound(id: id)
        }
        return account
    }
}
