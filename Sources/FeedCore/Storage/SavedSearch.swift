import Foundation
import GRDB

/// A search kept in the sidebar as a row of its own (a smart folder): its query in the syntax
/// of `SearchQuery`, what it is narrowed to, and how many of its entries are unread.
public struct SavedSearch: Sendable, Hashable, Identifiable {
    /// Which of the matching entries it lists, as the list's filter did when it was saved.
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        case all, unread, starred
    }

    /// Where it looks, as the sidebar's selection was when it was saved.
    public enum Scope: Sendable, Hashable {
        case everything
        case feed(Int64)
        case folder(Int64)
        case account(Int64)
        case label(Int64)
    }

    public var id: Int64
    public var name: String
    public var query: String
    public var filter: Filter
    public var scope: Scope
    /// The entries it lists that are not read yet.
    public var unreadCount: Int

    /// What the list asks the store for to show its entries.
    public func entryQuery(unreadOnly: Bool = false, limit: Int = 50, olderThan: EntryCursor? = nil,
                           fields: EntryFields = .all, keeping: Int64? = nil) -> EntryQuery {
        var entries = EntryQuery(unreadOnly: unreadOnly || filter == .unread, starredOnly: filter == .starred,
                                 limit: limit, olderThan: olderThan, fields: fields, keeping: keeping)
        switch scope {
        case .everything: break
        case let .feed(id): entries.feedID = id
        case let .folder(id): entries.folderID = id
        case let .account(id): entries.accountID = id
        case let .label(id): entries.labelID = id
        }
        entries.search = query
        return entries
    }
}

extension FeedStore {
    /// The longest name kept: a name is a sidebar row, not a document.
    public static let savedSearchNameLimit = 200

    /// Keeps `query` as a sidebar row named `name` (trimmed, cut to `savedSearchNameLimit`),
    /// after the others.
    @discardableResult
    public func saveSearch(named name: String, query: String, filter: SavedSearch.Filter = .all,
                           scope: SavedSearch.Scope = .everything) async throws -> SavedSearch {
        let name = Self.savedSearchName(name, else: query)
        let id = try await writing { db in
            let (feedID, folderID, accountID, labelID) = Self.columns(of: scope)
            try db.execute(sql: """
                INSERT INTO savedSearches (name, query, filter, feedId, folderId, accountId, labelId, position)
                VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM savedSearches))
                """, arguments: [name, query, filter.rawValue, feedID, folderID, accountID, labelID])
            return db.lastInsertedRowID
        }
        return try await savedSearches().first { $0.id == id }
            ?? SavedSearch(id: id, name: name, query: query, filter: filter, scope: scope, unreadCount: 0)
    }

    /// Names a saved search anew; an empty name keeps the old one.
    public func renameSavedSearch(id: Int64, to name: String) async throws {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        try await writing { db in
            try db.execute(sql: "UPDATE savedSearches SET name = ? WHERE id = ?",
                           arguments: [String(trimmed.prefix(Self.savedSearchNameLimit)), id])
        }
    }

    /// Forgets a saved search; its entries stay.
    public func removeSavedSearch(id: Int64) async throws {
        try await writing { db in try db.execute(sql: "DELETE FROM savedSearches WHERE id = ?", arguments: [id]) }
    }

    /// Every saved search in the sidebar's order, with its unread count as it is now.
    public func savedSearches() async throws -> [SavedSearch] {
        let searches = try await reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM savedSearches ORDER BY position, id").map(FeedStore.savedSearch)
        }
        guard !searches.isEmpty else { return [] }
        try await indexSearchBacklog()
        return try await reading { db in
            try searches.map { search in
                var counted = search
                counted.unreadCount = try FeedStore.count(search.entryQuery(unreadOnly: true), in: db)
                return counted
            }
        }
    }

    /// A row of `savedSearches`, not counted yet.
    private static func savedSearch(_ row: Row) -> SavedSearch {
        let scope: SavedSearch.Scope = if let id: Int64 = row["feedId"] { .feed(id) }
            else if let id: Int64 = row["folderId"] { .folder(id) }
            else if let id: Int64 = row["accountId"] { .account(id) }
            else if let id: Int64 = row["labelId"] { .label(id) }
            else { .everything }
        return SavedSearch(id: row["id"], name: row["name"], query: row["query"],
                           filter: SavedSearch.Filter(rawValue: row["filter"]) ?? .all, scope: scope, unreadCount: 0)
    }

    /// Marks read the unread entries `search` lists; returns those that changed, for an undo. A
    /// synced entry's server is told, one queued change per entry.
    @discardableResult
    public func markAllRead(in search: SavedSearch) async throws -> [Int64] {
        try await indexSearchBacklog()
        return try await writing { db in
            guard let (conditions, arguments) = try FeedStore.conditions(of: search.entryQuery(unreadOnly: true), in: db) else { return [] }
            let ids = try FeedStore.setRead(true, where: conditions.joined(separator: " AND "), arguments: arguments, db: db)
            try FeedStore.queueArticleState(.read, entryIDs: ids, db: db)
            return ids
        }
    }

    private static func savedSearchName(_ name: String, else query: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return String((trimmed.isEmpty ? query.trimmingCharacters(in: .whitespacesAndNewlines) : trimmed).prefix(savedSearchNameLimit))
    }

    private static func columns(of scope: SavedSearch.Scope) -> (Int64?, Int64?, Int64?, Int64?) {
        switch scope {
        case .everything: (nil, nil, nil, nil)
        case let .feed(id): (id, nil, nil, nil)
        case let .folder(id): (nil, id, nil, nil)
        case let .account(id): (nil, nil, id, nil)
        case let .label(id): (nil, nil, nil, id)
        }
    }

    /// `v24-saved-searches`: the sidebar's saved searches. One scope column a kind, each going
    /// with what it names (after `v23-labels`, whose labels one may name).
    static func createSavedSearches(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE savedSearches (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                query TEXT NOT NULL,
                filter TEXT NOT NULL DEFAULT 'all',
                feedId INTEGER REFERENCES feeds(id) ON DELETE CASCADE,
                folderId INTEGER REFERENCES folders(id) ON DELETE CASCADE,
                accountId INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
                labelId INTEGER REFERENCES labels(id) ON DELETE CASCADE,
                position INTEGER NOT NULL
            )
            """)
    }
}
