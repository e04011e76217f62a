import Foundation
import GRDB

extension FeedStore {
    private static let feedsWithUnreadCounts = "SELECT feeds.*, \(unreadCountOfFeed) AS unreadCount FROM feeds"

    /// Subscribes to the feed at `url`, placing it last in the list.
    ///
    /// - Throws: `FeedStoreError.alreadySubscribed` when the address is already in the list.
    @discardableResult
    public func addFeed(url: URL) async throws -> StoredFeed {
        let feed = try await writing { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM feeds WHERE url = ? AND accountId IS NULL", arguments: [url]) == true {
                throw FeedStoreError.alreadySubscribed(url)
            }
            let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM feeds") ?? 0
            try db.execute(sql: "INSERT INTO feeds (url, position) VALUES (?, ?)", arguments: [url, position])
            return try FeedStore.feed(id: db.lastInsertedRowID, in: db)
        }
        await saveSubscriptionsCopy()
        return feed
    }

    /// Unsubscribes from a feed, deleting its entries with it.
    public func removeFeed(id: Int64) async throws {
        try await writing { db in
            try db.execute(sql: "DELETE FROM feeds WHERE id = ?", arguments: [id])
            if db.changesCount == 0 {
                throw FeedStoreError.feedNotFound(id: id)
            }
        }
        await saveSubscriptionsCopy()
    }

    /// Gives a feed the title a person chose, kept over the titles its fetches bring; nil gives
    /// it back its own, from its next fetch on.
    public func renameFeed(_ id: Int64, to title: String?) async throws {
        try await updateFeed(id, sql: "UPDATE feeds SET title = COALESCE(?1, title), titleIsCustom = ?2 WHERE id = ?3",
                             arguments: [title, title != nil, id])
        await saveSubscriptionsCopy()
    }

    /// Moves a feed to another address, keeping its entries, title, folder and place; the next
    /// refresh fetches it from there, unconditionally and at once.
    ///
    /// - Throws: `FeedStoreError.alreadySubscribed` when another feed has that address.
    public func changeAddress(ofFeed id: Int64, to url: URL) async throws {
        try await writing { db in
            // Addresses are unique among the reader's own subscriptions; an account's feeds are the server's to move.
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM feeds WHERE url = ? AND id != ? AND accountId IS NULL", arguments: [url, id]) == true {
                throw FeedStoreError.alreadySubscribed(url)
            }
            try db.execute(sql: """
                UPDATE feeds SET url = ?, etag = NULL, lastModified = NULL, nextFetch = NULL, lastErrorCode = NULL, lastErrorDetails = NULL
                WHERE id = ? AND accountId IS NULL
                """, arguments: [url, id])
            if db.changesCount == 0 { throw FeedStoreError.feedNotFound(id: id) }
        }
        await saveSubscriptionsCopy()
    }

    /// The reader's own subscriptions in list order, each with its unread count; an account's
    /// feeds are its own (`feeds(accountID:)`).
    public func feeds() async throws -> [StoredFeed] {
        try await reading { db in
            try StoredFeed.fetchAll(db, sql: FeedStore.feedsWithUnreadCounts + " WHERE accountId IS NULL ORDER BY position, id")
        }
    }

    /// The reader's own subscriptions to local files (`file:` addresses), in list order: what a
    /// start looks through for samples moved, without reading every feed for it.
    public func fileFeeds() async throws -> [StoredFeed] {
        try await reading { db in
            try StoredFeed.fetchAll(db, sql: FeedStore.feedsWithUnreadCounts + " WHERE accountId IS NULL AND url LIKE 'file:%' ORDER BY position, id")
        }
    }

    /// Whether there is any subscription, an account's included, without counting any feed's unread entries.
    public func hasFeeds() async throws -> Bool {
        try await reading { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM feeds)") ?? false }
    }

    /// One feed with its unread count, or nil if there is no such feed.
    public func feed(id: Int64) async throws -> StoredFeed? {
        try await reading { db in
            try StoredFeed.fetchOne(db, sql: FeedStore.feedsWithUnreadCounts + " WHERE feeds.id = ?", arguments: [id])
        }
    }

    /// Records why a fetch failed, or clears it with nil; entries are left alone.
    public func setError(_ reason: ErrorReason?, feedID: Int64) async throws {
        try await updateFeed(feedID, sql: "UPDATE feeds SET lastErrorCode = ?, lastErrorDetails = ? WHERE id = ?",
                             arguments: [reason?.code.rawValue, reason?.storedDetails, feedID])
    }

    /// Stores the validators to send with the feed's next fetch.
    public func setValidators(_ validators: CacheValidators, feedID: Int64) async throws {
        try await updateFeed(
            feedID,
            sql: "UPDATE feeds SET etag = ?, lastModified = ? WHERE id = ?",
            arguments: [validators.etag, validators.lastModified, feedID]
        )
    }

    private func updateFeed(_ id: Int64, sql: String, arguments: StatementArguments) async throws {
        try await writing { db in
            try db.execute(sql: sql, arguments: arguments)
            if db.changesCount == 0 {
                throw FeedStoreError.feedNotFound(id: id)
            }
        }
    }

    static func feed(id: Int64, in db: Database) throws -> StoredFeed {
        guard let feed = try StoredFeed.fetchOne(db, sql: feedsWithUnreadCounts + " WHERE feeds.id = ?", arguments: [id]) else {
            throw FeedStoreError.feedNotFound(id: id)
        }
        return feed
    }
}
