import Foundation
import GRDB

/// A folder of feeds in the sidebar, maybe inside another, with the unread count of all the
/// feeds in it and in the folders below it.
public struct StoredFolder: Sendable, Hashable, Identifiable, FetchableRecord {
    public var id: Int64
    public var name: String
    /// The folder it is in, or nil at the top of the list (or of its account).
    public var parentID: Int64?
    /// The sync account whose category this is, or nil for a folder of this reader's own.
    public var accountID: Int64?
    /// The folder's place among its siblings.
    public var position: Int
    public var unreadCount: Int

    public init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        parentID = row["parentId"]
        accountID = row["accountId"]
        position = row["position"]
        unreadCount = row["unreadCount"] ?? 0
    }
}

extension Array where Element == StoredFolder {
    /// `folderID` and every folder below it.
    public func subtree(of folderID: Int64) -> Set<Int64> {
        var found: Set<Int64> = [folderID]
        var added = true
        while added {
            added = false
            for folder in self where folder.parentID.map(found.contains) == true && found.insert(folder.id).inserted { added = true }
        }
        return found
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
    /// Every folder of the reader's own, parents before their children and siblings in order, each
    /// counting the unread entries of the feeds in it and in the folders below it; an account's
    /// categories are its own (`folders(accountID:)`).
    public func folders() async throws -> [StoredFolder] {
        try await folders(where: "accountId IS NULL")
    }

    /// The folders matching `condition`, in tree order, with their unread counts.
    func folders(where condition: String, arguments: StatementArguments = []) async throws -> [StoredFolder] {
        try await reading { db in
            let folders = try StoredFolder.fetchAll(db, sql: FeedStore.foldersBelow + """
                 SELECT folders.*, \(FeedStore.unreadCountOfFolder) AS unreadCount FROM folders WHERE \(condition) ORDER BY position, id
                """, arguments: arguments)
            return FeedStore.treeOrder(folders, parent: \.parentID, id: \.id)
        }
    }

    /// `items` with each one's children right after it, depth first, keeping their order otherwise;
    /// items whose parent is missing (or in a loop) are left out.
    static func treeOrder<Item>(_ items: [Item], parent: (Item) -> Int64?, id: (Item) -> Int64) -> [Item] {
        let children = Dictionary(grouping: items, by: parent)
        var ordered: [Item] = []
        var visited = Set<Int64>()
        func visit(_ parentID: Int64?) {
            for item in children[parentID] ?? [] where visited.insert(id(item)).inserted {
                ordered.append(item)
                visit(id(item))
            }
        }
        visit(nil)
        return ordered
    }

    /// Makes a folder named `name` last in `parentID` (the top of the list for nil), or returns
    /// the one of that name there.
    @discardableResult
    public func createFolder(named name: String, in parentID: Int64? = nil) async throws -> Int64 {
        let id = try await writing { db in try FeedStore.folderID(named: name, in: parentID, db: db) }
        await saveSubscriptionsCopy()
        return id
    }

    /// Renames a folder; a name another folder beside it has is refused.
    public func renameFolder(_ id: Int64, to name: String) async throws {
        try await writing { db in
            let parentID = try Int64.fetchOne(db, sql: "SELECT parentId FROM folders WHERE id = ?", arguments: [id])
            if let other = try FeedStore.existingFolder(named: name, in: parentID, db: db), other != id {
                throw FeedStoreError.folderExists(name)
            }
            try db.execute(sql: "UPDATE folders SET name = ? WHERE id = ?", arguments: [name, id])
        }
        await saveSubscriptionsCopy()
    }

    /// Puts a folder, with all it holds, last in `parentID` (the top of the list for nil). A
    /// folder cannot go into itself or a folder below it, nor beside a folder of the same name.
    public func moveFolder(_ id: Int64, into parentID: Int64?) async throws {
        try await writing { db in
            if let parentID, try FeedStore.subtree(of: id, db: db).contains(parentID) { throw FeedStoreError.folderInsideItself }
            let name = try String.fetchOne(db, sql: "SELECT name FROM folders WHERE id = ?", arguments: [id]) ?? ""
            if let other = try FeedStore.existingFolder(named: name, in: parentID, db: db), other != id {
                throw FeedStoreError.folderExists(name)
            }
            try db.execute(sql: "UPDATE folders SET parentId = ?, position = (SELECT COALESCE(MAX(position) + 1, 0) FROM folders) WHERE id = ?",
                           arguments: [parentID, id])
        }
        await saveSubscriptionsCopy()
    }

    /// Deletes a folder; what it holds moves up into the folder it was in (the top of the list
    /// when none), feeds staying subscribed, and a folder meeting one of its name there merges into it.
    public func deleteFolder(_ id: Int64) async throws {
        try await writing { db in
            let parentID = try Int64.fetchOne(db, sql: "SELECT parentId FROM folders WHERE id = ?", arguments: [id])
            try FeedStore.empty(id, into: parentID, db: db)
            try db.execute(sql: "DELETE FROM folders WHERE id = ?", arguments: [id])
        }
        await saveSubscriptionsCopy()
    }

    /// Moves the feeds and folders of `id` into `targetID`, merging folders of the same name.
    private static func empty(_ id: Int64, into targetID: Int64?, db: Database) throws {
        try db.execute(sql: "UPDATE feeds SET folderId = ? WHERE folderId = ?", arguments: [targetID, id])
        let children = try Row.fetchAll(db, sql: "SELECT id, name FROM folders WHERE parentId = ? ORDER BY position, id", arguments: [id])
        for child in children {
            let (childID, name): (Int64, String) = (child["id"], child["name"])
            if let same = try existingFolder(named: name, in: targetID, db: db), same != id {
                try empty(childID, into: same, db: db)
                try db.execute(sql: "DELETE FROM folders WHERE id = ?", arguments: [childID])
            } else {
                try db.execute(sql: "UPDATE folders SET parentId = ? WHERE id = ?", arguments: [targetID, childID])
            }
        }
    }

    /// A query for the folder given as its one argument and the ids of every folder below it.
    static let subtreeSQL = """
        WITH RECURSIVE below(id) AS (SELECT ? UNION SELECT folders.id FROM folders JOIN below ON folders.parentId = below.id)
        SELECT id FROM below
        """

    /// `id` and the ids of every folder below it.
    private static func subtree(of id: Int64, db: Database) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: subtreeSQL, arguments: [id]))
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
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM feeds WHERE url = ? AND accountId IS NULL", arguments: [subscription.url]) == true {
                    result.duplicates += 1
                    continue
                }
                let folderID = try subscription.folderPath.reduce(Int64?.none) { parentID, name in
                    try FeedStore.folderID(named: name, in: parentID, db: db)
                }
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

    /// Read from a database of any version (a damaged one being recovered too): folders may not
    /// exist, nor nest, and a loop of damaged parents is cut.
    static func subscriptionsDocument(in db: Database) throws -> OPMLDocument {
        let hasFolders = try db.tableExists("folders")
        let nests = try hasFolders && db.columns(in: "folders").contains { $0.name == "parentId" }
        // Accounts' feeds and categories are the servers' to keep, not this list's.
        let local = try db.columns(in: "feeds").contains { $0.name == "accountId" } ? " WHERE accountId IS NULL" : ""
        var paths: [Int64: [String]] = [:]
        // Where each folder is in the tree, so the file lists feeds by their folders in order.
        var order: [Int64: Int] = [:]
        if hasFolders {
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, \(nests ? "parentId" : "NULL AS parentId") FROM folders\(local) ORDER BY position, id")
            let folders = rows.map { (id: $0["id"] as Int64, name: $0["name"] as String? ?? "", parentID: $0["parentId"] as Int64?) }
            for (index, folder) in treeOrder(folders, parent: \.parentID, id: \.id).enumerated() {
                paths[folder.id] = (folder.parentID.flatMap { paths[$0] } ?? []) + [folder.name]
                order[folder.id] = index
            }
        }
        let rows = try Row.fetchAll(db, sql: hasFolders ? "SELECT url, title, link, folderId FROM feeds\(local) ORDER BY position, id"
                                                        : "SELECT url, title, link, NULL AS folderId FROM feeds\(local) ORDER BY position, id")
        let sorted = rows.enumerated().sorted { first, second in
            let (a, b) = ((first.element["folderId"] as Int64?).flatMap { order[$0] } ?? -1, (second.element["folderId"] as Int64?).flatMap { order[$0] } ?? -1)
            return a == b ? first.offset < second.offset : a < b
        }
        return OPMLDocument(title: "Feed Reader", subscriptions: sorted.compactMap { _, row in
            guard let url = URL(string: row["url"] ?? "") else { return nil }
            return OPMLDocument.Subscription(url: url, title: row["title"], siteURL: (row["link"] as String?).flatMap(URL.init(string:)),
                                             folderPath: (row["folderId"] as Int64?).flatMap { paths[$0] } ?? [])
        })
    }

    /// Rewrites the OPML copy beside the database when the subscriptions changed. A copy that
    /// cannot be written leaves the database as it is: the copy is only the last resort.
    public func saveSubscriptionsCopy() async {
        guard let url = subscriptionsCopyURL, let document = try? await subscriptionsDocument() else { return }
        if let existing = try? Data(contentsOf: url), (try? OPMLDocument(data: existing, allowingLocalFiles: true)) == document { return }
        try? document.data().write(to: url, options: .atomic)
    }

    /// The folder named `name` in `parentID`, made last there when there is none.
    private static func folderID(named name: String, in parentID: Int64?, db: Database) throws -> Int64 {
        if let id = try existingFolder(named: name, in: parentID, db: db) { return id }
        let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM folders") ?? 0
        try db.execute(sql: "INSERT INTO folders (name, parentId, position) VALUES (?, ?, ?)", arguments: [name, parentID, position])
        return db.lastInsertedRowID
    }

    private static func existingFolder(named name: String, in parentID: Int64?, db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM folders WHERE parentId IS ? AND name = ? AND accountId IS NULL ORDER BY id", arguments: [parentID, name])
    }
}
