import Foundation
import GRDB

/// What storing one pull of an account changed here.
public struct SyncMergeSummary: Sendable, Hashable {
    public var newEntries = 0
    /// Entries whose read or starred state the server changed.
    public var changedStates = 0

    public init(newEntries: Int = 0, changedStates: Int = 0) {
        self.newEntries = newEntries
        self.changedStates = changedStates
    }
}

extension FeedStore {
    /// Makes the account's folders and feeds those of the server, in one transaction: categories
    /// become folders, feeds go into theirs, and what the server no longer has goes here too (a
    /// feed with its entries). A feed queued to be unsubscribed is not brought back, and a feed
    /// queued to move stays where it was put here until the server has moved it.
    func applySubscriptions(_ subscriptions: RemoteSubscriptions, accountID: Int64) async throws {
        try await writing { db in
            let pending = try Row.fetchAll(db, sql: "SELECT action, remoteId FROM syncQueue WHERE accountId = ? AND action IN ('unsubscribe', 'move')",
                                           arguments: [accountID])
            let unsubscribing = Set(pending.filter { $0["action"] == "unsubscribe" }.map { $0["remoteId"] as RemoteID })
            let moving = Set(pending.filter { $0["action"] == "move" }.map { $0["remoteId"] as RemoteID })

            // Each statement prepared once for all the rows: preparing cost more than running.
            var folderIDs: [RemoteID: Int64] = [:]
            let upsertFolder = try db.cachedStatement(sql: """
                INSERT INTO folders (accountId, remoteId, name, position) VALUES (?, ?, ?, ?)
                ON CONFLICT (accountId, remoteId) WHERE accountId IS NOT NULL DO UPDATE SET name = excluded.name, position = excluded.position
                """)
            let folderID = try db.cachedStatement(sql: "SELECT id FROM folders WHERE accountId = ? AND remoteId = ?")
            for (position, category) in subscriptions.categories.enumerated() {
                try upsertFolder.execute(arguments: [accountID, category.id, category.title, position])
                folderIDs[category.id] = try Int64.fetchOne(folderID, arguments: [accountID, category.id])
            }
            let keptFolders = Array(folderIDs.values)
            try db.execute(sql: "DELETE FROM folders WHERE accountId = ? AND id NOT IN (\(Self.marks(keptFolders.count)))",
                           arguments: StatementArguments([accountID]) + StatementArguments(keptFolders))

            var keptFeeds: [RemoteID] = []
            let upsertFeed = try db.cachedStatement(sql: """
                INSERT INTO feeds (accountId, remoteId, url, title, link, folderId, position) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (accountId, remoteId) WHERE accountId IS NOT NULL DO UPDATE SET
                    url = excluded.url, title = excluded.title, link = COALESCE(excluded.link, link), position = excluded.position,
                    folderId = CASE WHEN ?8 THEN folderId ELSE excluded.folderId END
                """)
            for (position, feed) in subscriptions.feeds.enumerated() where !unsubscribing.contains(feed.id) {
                keptFeeds.append(feed.id)
                let folderID = feed.categoryID.flatMap { folderIDs[$0] }
                try upsertFeed.execute(arguments: [accountID, feed.id, feed.url.absoluteString, feed.title, feed.link?.absoluteString, folderID,
                                                   position, moving.contains(feed.id)])
            }
            try db.execute(sql: "DELETE FROM feeds WHERE accountId = ? AND remoteId NOT IN (\(Self.marks(keptFeeds.count)))",
                           arguments: StatementArguments([accountID]) + StatementArguments(keptFeeds))
        }
    }

    /// Stores one page of new articles in one transaction, skipping any stored already and those
    /// of feeds the account does not have here; with `cursor`, the account's next sync starts there.
    /// A stored entry's state is the server's unless a change of it waits in the queue.
    ///
    /// The page goes into a temporary table first, then into the entries in one statement, which
    /// cost a quarter of the CPU of one statement per entry (docs/performance.md, Sync). Its
    /// entries wait in the search backlog (`FeedStore.indexSearchBacklog()`), in the same transaction.
    func storeArticles(_ articles: [RemoteArticle], accountID: Int64, cursor: SyncCursor?) async throws -> Int {
        try await writing { db in
            // Columns without types keep the values as bound, as the entries' own columns would.
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS syncArticles (feedRemoteId, remoteId, title, link, author, published, updated, summary,
                                                             content, enclosures, isRead, isStarred, sortDate);
                DELETE FROM syncArticles;
                """)
            let add = try db.cachedStatement(sql: "INSERT INTO syncArticles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            let encoder = JSONEncoder()
            let now = Date()
            for article in articles {
                let enclosures = article.enclosures.isEmpty ? nil : try encoder.encode(article.enclosures)
                let summary = article.content.map { HTMLText.plainTextPrefix(fromHTML: $0, length: Self.syncedSummaryLength) }
                let date = article.published ?? article.updated
                try add.execute(arguments: [
                    article.feedID, article.id, article.title, article.link?.absoluteString, article.author,
                    FeedStore.storageValue(article.published), FeedStore.storageValue(article.updated), summary, article.content, enclosures,
                    article.isRead, article.isStarred, FeedStore.storageValue(date ?? now),
                ])
            }
            // In the page's order, so entry ids grow as before; an article of a feed the account
            // does not have here is left out by the join. The WHERE keeps ON CONFLICT from reading
            // as a join's ON. Prepared once: preparing it cost more than running it for a page.
            let insert = try db.cachedStatement(sql: """
                INSERT INTO entries (feedId, entryId, remoteId, title, link, author, published, updated, summary, content,
                                     enclosures, readOnArrival, isStarred, insertedAt, sortDate)
                SELECT feeds.id, page.remoteId, page.remoteId, page.title, page.link, author, published, updated, summary, content,
                       enclosures,
                       COALESCE((SELECT action = 'read' FROM syncQueue
                                 WHERE accountId = ?1 AND remoteId = page.remoteId AND action IN ('read', 'unread')), isRead),
                       COALESCE((SELECT action = 'star' FROM syncQueue
                                 WHERE accountId = ?1 AND remoteId = page.remoteId AND action IN ('star', 'unstar')), isStarred),
                       ?2, sortDate
                FROM syncArticles AS page JOIN feeds ON feeds.accountId = ?1 AND feeds.remoteId = page.feedRemoteId
                WHERE NOT EXISTS (SELECT 1 FROM expiredEntries WHERE feedId = feeds.id AND entryId = page.remoteId)
                ORDER BY page.rowid
                ON CONFLICT (feedId, entryId) DO NOTHING
                """)
            // Rules mark read and star through the queue, as a person would, so the server agrees.
            let stored = try FeedStore.applyingRules(to: articles, accountID: accountID, in: db) {
                // The entries wait in the search backlog, which the index takes before the next search.
                try FeedStore.$deferringSearchIndex.withValue(true) {
                    try insert.execute(arguments: [accountID, FeedStore.storageValue(now)])
                }
                return db.changesCount
            }
            try db.execute(sql: "DELETE FROM syncArticles")
            if let cursor {
                try db.execute(sql: "UPDATE accounts SET cursor = ? WHERE id = ?", arguments: [cursor, accountID])
            }
            return stored
        }
    }

    /// Gives the account's stored entries the server's read and starred state, in one transaction:
    /// read unless in `unread`, starred if in `starred`. An entry with a change of that state
    /// waiting in the queue (its own, or a "mark all as read" covering it) keeps the state given here.
    func applyArticleState(unread: Set<RemoteID>, starred: Set<RemoteID>, accountID: Int64) async throws -> Int {
        try await writing { db in
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS syncUnread (remoteId TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TEMP TABLE IF NOT EXISTS syncStarred (remoteId TEXT PRIMARY KEY) WITHOUT ROWID;
                DELETE FROM syncUnread; DELETE FROM syncStarred;
                """)
            let addUnread = try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncUnread (remoteId) VALUES (?)")
            for id in unread { try addUnread.execute(arguments: [id]) }
            let addStarred = try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncStarred (remoteId) VALUES (?)")
            for id in starred { try addStarred.execute(arguments: [id]) }
            // The account's feeds whose entries a queued "mark all as read" covers.
            let caughtUp = """
                SELECT feeds.id FROM feeds LEFT JOIN folders ON folders.id = feeds.folderId
                JOIN syncQueue ON syncQueue.accountId = feeds.accountId
                WHERE feeds.accountId = ?1 AND (syncQueue.action = 'catchupAccount'
                    OR (syncQueue.action = 'catchupFeed' AND syncQueue.remoteId = feeds.remoteId)
                    OR (syncQueue.action = 'catchupCategory' AND syncQueue.remoteId = folders.remoteId))
                """
            // Each change of state is looked for from its smaller side, through an index: the
            // unread and starred entries here, and the server's unread and starred ids (the `+`
            // keeps SQLite from scanning every read or unstarred entry instead). Reading every
            // entry of the account, as one UPDATE for each state did, read the whole table.
            let account = "feedId IN (SELECT id FROM feeds WHERE accountId = ?1)"
            let readKept = "NOT EXISTS (SELECT 1 FROM syncQueue WHERE accountId = ?1 AND remoteId = entries.remoteId AND action IN ('read', 'unread'))"
            let starKept = "NOT EXISTS (SELECT 1 FROM syncQueue WHERE accountId = ?1 AND remoteId = entries.remoteId AND action IN ('star', 'unstar'))"
            var changed = try FeedStore.changeUnread(read: true, sql: """
                DELETE FROM unreadEntries WHERE \(account) AND feedId NOT IN (\(caughtUp)) AND EXISTS (
                    SELECT 1 FROM entries WHERE entries.id = unreadEntries.id AND entries.remoteId IS NOT NULL
                      AND entries.remoteId NOT IN (SELECT remoteId FROM syncUnread) AND \(readKept))
                RETURNING id, feedId
                """, arguments: [accountID], db: db).count
            changed += try FeedStore.changeUnread(read: false, sql: """
                INSERT INTO unreadEntries (id, feedId)
                SELECT id, feedId FROM entries WHERE remoteId IN (SELECT remoteId FROM syncUnread) AND NOT \(FeedStore.isUnread)
                  AND +\(account) AND \(readKept) AND feedId NOT IN (\(caughtUp))
                RETURNING id, feedId
                """, arguments: [accountID], db: db).count
            for change in [
                """
                UPDATE entries SET isStarred = 0 WHERE isStarred = 1 AND \(account) AND remoteId IS NOT NULL
                  AND remoteId NOT IN (SELECT remoteId FROM syncStarred) AND \(starKept)
                """,
                """
                UPDATE entries SET isStarred = 1 WHERE remoteId IN (SELECT remoteId FROM syncStarred) AND +isStarred = 0 AND +\(account)
                  AND \(starKept)
                """,
            ] {
                try db.execute(sql: change, arguments: [accountID])
                changed += db.changesCount
            }
            try db.execute(sql: "DELETE FROM syncUnread; DELETE FROM syncStarred")
            return changed
        }
    }

    /// How much of a synced article's text the entry list's summary keeps.
    static let syncedSummaryLength = 400

    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }
}
