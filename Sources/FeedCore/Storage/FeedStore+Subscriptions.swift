import Foundation
import GRDB

/// A folder of feeds in the sidebar, with the unread count of all its feeds.
public struct StoredFolder: Sendable, Hashable, Identifiable, FetchableRecord {
    public var id: Int64
    public var name: String
    /// The folder's place among folders, starting at 0.
    public var position: Int
    public var unreadCount: Int

    public init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        position = row["position"]
        unreadCount = row["unreadCount"] ?? 0
    }
}

/// What adding a list of subscriptions did.
public struct SubscriptionsImport: Sendable, Equatable {
    /// The feeds added, in the list's order.
    public var added: [StoredFeed] = []
    /// Subscriptions left out because the address was in the list already or earlier in the file.
    public var duplicates = 0
}

extension FeedStore {
    /// Every folder in order, each with its feeds' unread entries counted.
    public func folders() async throws -> [StoredFolder] {
        try await reading { db in
            try StoredFolder.fetchAll(db, sql: """
                SELECT folders.*, (SELECT COUNT(*) FROM entries JOIN feeds ON feeds.id = entries.feedId
                                   WHERE feeds.folderId = folders.id AND entries.isRead = 0) AS unreadCount
                FROM folders ORDER BY position, id
                """)
        }
    }

    /// Makes a folder named `name` last in the list, or returns the one of that name.
    @discardableResult
    public func createFolder(named name: String) async throws -> Int64 {
        let id = try await writing { db in try FeedStore.folderID(named: name, in: db) }
        await saveSubscriptionsCopy()
        return id
    }

    /// Renames a folder; a name another folder has is refused.
    public func renameFolder(_ id: Int64, to name: String) async throws {
        try await writing { db in
            if try Int64.fetchOne(db, sql: "SELECT id FROM folders WHERE name = ? AND id != ?", arguments: [name, id]) != nil {
                throw FeedStoreError.folderExists(name)
            }
            try db.execute(sql: "UPDATE folders SET name = ? WHERE id = ?", arguments: [name, id])
        }
        await saveSubscriptionsCopy()
    }

    /// Deletes a folder; its feeds stay subscribed, outside any folder.
    public func deleteFolder(_ id: Int64) async throws {
        try await writing { db in try db.execute(sql: "DELETE FROM folders WHERE id = ?", arguments: [id]) }
        await saveSubscriptionsCopy()
    }

    /// Puts a feed in a folder, or outside any with nil.
    public func moveFeed(_ feedID: Int64, toFolder folderID: Int64?) async throws {
        try await writing { db in
            try db.execute(sql: "UPDATE feeds SET folderId = ? WHERE id = ?", arguments: [folderID, feedID])
            if db.changesCount == 0 { throw FeedStoreError.feedNotFound(id: feedID) }
        }
        await saveSubscriptionsCopy()
    }

    /// Subscribes to every feed of `subscriptions` not in the list yet, in one transaction,
    /// making the folders they name; titles are kept until the first fetch brings the feed's own.
    public func addSubscriptions(_ subscriptions: [OPMLDocument.Subscription]) async throws -> SubscriptionsImport {
        let result = try await writing { db in
            var result = SubscriptionsImport()
            var position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM feeds") ?? 0
            for subscription in subscriptions {
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM feeds WHERE url = ?", arguments: [subscription.url]) == true {
                    result.duplicates += 1
                    continue
                }
                let folderID = try subscription.folder.map { try FeedStore.folderID(named: $0, in: db) }
                try db.execute(sql: "INSERT INTO feeds (url, title, link, folderId, position) VALUES (?, ?, ?, ?, ?)",
                               arguments: [subscription.url, subscription.title, subscription.siteURL, folderID, position])
                position += 1
                result.added.append(try FeedStore.feed(id: db.lastInsertedRowID, in: db))
            }
            return result
        }
        await saveSubscriptionsCopy()
        return result
    }

    /// The subscriptions as an OPML document, with their folders.
    public func subscriptionsDocument() async throws -> OPMLDocument {
        try await reading { db in try FeedStore.subscriptionsDocument(in: db) }
    }

    static func subscriptionsDocument(in db: Database) throws -> OPMLDocument {
        let hasFolders = try db.tableExists("folders")
        let rows = try Row.fetchAll(db, sql: hasFolders ? """
            SELECT feeds.url, feeds.title, feeds.link, folders.name AS folder FROM feeds LEFT JOIN folders ON folders.id = feeds.folderId
            ORDER BY folders.position, feeds.position, feeds.id
            """ : "SELECT url, title, link, NULL AS folder FROM feeds ORDER BY position, id")
        return OPMLDocument(title: "Feed Reader", subscriptions: rows.compactMap { row in
            guard let url = URL(string: row["url"] ?? "") else { return nil }
            return OPMLDocument.Subscription(url: url, title: row["title"], siteURL: (row["link"] as String?).flatMap(URL.init(string:)),
                                             folder: row["folder"])
        })
    }

    /// Rewrites the OPML copy beside the database when the subscriptions changed. A copy that
    /// cannot be written leaves the database as it is: the copy is only the last resort.
    public func saveSubscriptionsCopy() async {
        guard let url = subscriptionsCopyURL, let document = try? await subscriptionsDocument() else { return }
        if let existing = try? Data(contentsOf: url), (try? OPMLDocument(data: existing)) == document { return }
        try? document.data().write(to: url, options: .atomic)
    }

    private static func folderID(named name: String, in db: Database) throws -> Int64 {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM folders WHERE name = ?", arguments: [name]) { return id }
        let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM folders") ?? 0
        try db.execute(sql: "INSERT INTO folders (name, position) VALUES (?, ?)", arguments: [name, position])
        return db.lastInsertedRowID
    }
}
