import Foundation
import GRDB

extension FeedStore {
    /// Saves what a fetch brought, in one transaction.
    ///
    /// New entries are added and changed ones updated (keeping their read state); entries missing
    /// from the fetch are kept. A failed fetch only records its error, so stored entries are never
    /// lost to a bad response. A permanent redirect moves the feed to its new address unless
    /// another subscription already uses it. When the feed and its host may be fetched next is
    /// recorded as `policy` decides from the server's answer.
    @discardableResult
    public func apply(_ result: FetchResult, toFeed feedID: Int64, at now: Date = Date(),
                      policy: PollingPolicy = PollingPolicy()) async throws -> ApplySummary {
        try await writing { db in try FeedStore.apply(result, toFeed: feedID, at: now, policy: policy, in: db) }
    }

    /// Saves several fetches in one transaction, each as `apply(_:toFeed:at:policy:)` would, in a
    /// savepoint of its own: a feed that cannot be saved is rolled back alone and its error is its
    /// result. Throws, saving none, only when the transaction itself fails (a damaged database).
    public func apply(_ batch: [(result: FetchResult, feedID: Int64)], at now: Date = Date(),
                      policy: PollingPolicy = PollingPolicy()) async throws -> [Result<ApplySummary, any Error>] {
        try await writing { db in
            try batch.map { result, feedID in
                do {
                    var summary = ApplySummary()
                    try db.inSavepoint {
                        summary = try FeedStore.apply(result, toFeed: feedID, at: now, policy: policy, in: db)
                        return .commit
                    }
                    return .success(summary)
                } catch let error as DatabaseError where FeedStore.damages(error) {
                    throw error
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    private static func apply(_ result: FetchResult, toFeed feedID: Int64, at now: Date, policy: PollingPolicy,
                              in db: Database) throws -> ApplySummary {
        let feed = try FeedStore.feed(id: feedID, in: db)
        try db.execute(sql: "UPDATE feeds SET nextFetch = ?, lastAttempt = ? WHERE id = ?",
                       arguments: [policy.nextFetch(after: result, at: now), now, feedID])
        if let host = PollingPolicy.hostKey(for: feed.url) {
            let previous = try FeedStore.hostBackoff(host: host, in: db)
            try FeedStore.setHostBackoff(policy.hostBackoff(after: result, previous: previous, at: now), host: host, in: db)
        }
        if let newURL = result.permanentRedirect {
            try db.execute(
                sql: "UPDATE feeds SET url = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM feeds WHERE url = ?)",
                arguments: [newURL, feedID, newURL]
            )
        }
        switch result.outcome {
        case let .fetched(parsed, validators):
            try db.execute(
                sql: """
                    UPDATE feeds SET title = COALESCE(?, title), link = COALESCE(?, link), iconURL = COALESCE(?, iconURL),
                        etag = ?, lastModified = ?, lastFetched = ?, lastError = NULL, lastWarnings = ?
                    WHERE id = ?
                    """,
                arguments: [parsed.feed.title, parsed.feed.link, parsed.feed.iconURL, validators.etag, validators.lastModified, now,
                            parsed.warnings.isEmpty ? nil : parsed.warnings.joined(separator: "\n"), feedID]
            )
            return try FeedStore.save(parsed.entries, feedID: feedID, now: now, in: db)
        case .notModified:
            try db.execute(sql: "UPDATE feeds SET lastFetched = ?, lastError = NULL WHERE id = ?", arguments: [now, feedID])
            return ApplySummary()
        case let .failed(error):
            try db.execute(sql: "UPDATE feeds SET lastError = ? WHERE id = ?", arguments: [error.description, feedID])
            return ApplySummary()
        }
    }

    /// The hosts that asked to be left alone and are not yet past their pause at `now`, by `PollingPolicy.hostKey`.
    public func hostBackoffs(at now: Date) async throws -> [String: HostBackoff] {
        try await reading { db in
            let rows = try Row.fetchAll(db, sql: "SELECT host, until, strikes FROM hostBackoff WHERE until > ?", arguments: [now])
            return Dictionary(rows.map { ($0["host"], HostBackoff(until: $0["until"], strikes: $0["strikes"])) },
                              uniquingKeysWith: { first, _ in first })
        }
    }

    private static func hostBackoff(host: String, in db: Database) throws -> HostBackoff? {
        try Row.fetchOne(db, sql: "SELECT until, strikes FROM hostBackoff WHERE host = ?", arguments: [host])
            .map { HostBackoff(until: $0["until"], strikes: $0["strikes"]) }
    }

    private static func setHostBackoff(_ backoff: HostBackoff?, host: String, in db: Database) throws {
        if let backoff {
            try db.execute(sql: "INSERT OR REPLACE INTO hostBackoff (host, until, strikes) VALUES (?, ?, ?)",
                           arguments: [host, backoff.until, backoff.strikes])
        } else {
            try db.execute(sql: "DELETE FROM hostBackoff WHERE host = ?", arguments: [host])
        }
    }

    /// Inserts or updates entries. Feeds list newest first, so they are stored in reverse:
    /// entries without dates then sort in the feed's own order.
    private static func save(_ entries: [Entry], feedID: Int64, now: Date, in db: Database) throws -> ApplySummary {
        let insert = try db.cachedStatement(sql: """
            INSERT INTO entries (feedId, entryId, title, link, author, published, updated, summary, summaryHTML, content,
                                 enclosures, isRead, insertedAt, sortDate)
            SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, ?12, ?13
            WHERE NOT EXISTS (SELECT 1 FROM expiredEntries WHERE feedId = ?1 AND entryId = ?2)
            ON CONFLICT (feedId, entryId) DO NOTHING
            """)
        let update = try db.cachedStatement(sql: """
            UPDATE entries SET title = ?1, link = ?2, author = ?3, published = ?4, updated = ?5, summary = ?6,
                               content = ?7, enclosures = ?8, summaryHTML = ?11, sortDate = COALESCE(?4, ?5, insertedAt)
            WHERE feedId = ?9 AND entryId = ?10
              AND (title IS NOT ?1 OR link IS NOT ?2 OR author IS NOT ?3 OR published IS NOT ?4 OR updated IS NOT ?5
                   OR summary IS NOT ?6 OR content IS NOT ?7 OR enclosures IS NOT ?8 OR summaryHTML IS NOT ?11)
            """)
        let encoder = JSONEncoder()
        var summary = ApplySummary()
        for entry in entries.reversed() {
            let enclosures = entry.enclosures.isEmpty ? nil : try encoder.encode(entry.enclosures)
            try insert.execute(arguments: [
                feedID, entry.id, entry.title, entry.link, entry.author, entry.published, entry.updated,
                entry.summary, entry.summaryHTML, entry.content, enclosures, now, entry.published ?? entry.updated ?? now,
            ])
            if db.changesCount > 0 {
                summary.newEntries += 1
                continue
            }
            try update.execute(arguments: [
                entry.title, entry.link, entry.author, entry.published, entry.updated,
                entry.summary, entry.content, enclosures, feedID, entry.id, entry.summaryHTML,
            ])
            if db.changesCount > 0 {
                summary.updatedEntries += 1
            }
        }
        return summary
    }
}
