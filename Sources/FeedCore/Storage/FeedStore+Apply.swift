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
        try await writing { db in
            let (summary, rules) = try FeedStore.applyingRulesSaying(in: db) { arrivals in
                try FeedStore.apply(result, toFeed: feedID, at: now, policy: policy, arrivals: arrivals, in: db)
            }
            return try FeedStore.announcing(summary, ofFeed: feedID, rules: rules, in: db)
        }
    }

    /// Saves several fetches in one transaction, each as `apply(_:toFeed:at:policy:)` would, in a
    /// savepoint of its own: a feed that cannot be saved is rolled back alone and its error is its
    /// result. Throws, saving none, only when the transaction itself fails (a damaged database).
    /// The rules apply to the new entries in the same transaction.
    public func apply(_ batch: [(result: FetchResult, feedID: Int64)], at now: Date = Date(),
                      policy: PollingPolicy = PollingPolicy()) async throws -> [Result<ApplySummary, any Error>] {
        try await writing { db in
            let (saved, rules) = try FeedStore.applyingRulesSaying(in: db) { arrivals in
                try batch.map { result, feedID -> Result<ApplySummary, any Error> in
                    let arrived = arrivals?.position
                    do {
                        var summary = ApplySummary()
                        try db.inSavepoint {
                            summary = try FeedStore.apply(result, toFeed: feedID, at: now, policy: policy, arrivals: arrivals, in: db)
                            return .commit
                        }
                        return .success(summary)
                    } catch let error as DatabaseError where FeedStore.damages(error) {
                        throw error
                    } catch {
                        if let arrived { arrivals?.rollBack(to: arrived) }
                        return .failure(error)
                    }
                }
            }
            return try zip(batch, saved).map { item, result in
                guard case let .success(summary) = result else { return result }
                return .success(try FeedStore.announcing(summary, ofFeed: item.feedID, rules: rules, in: db))
            }
        }
    }

    /// `summary` with the count of its new entries that the new-entries notification tells of:
    /// not hidden by a rule, and announced by the feed's setting or a rule's "notify".
    private static func announcing(_ summary: ApplySummary, ofFeed feedID: Int64, rules: RuleApplication, in db: Database) throws -> ApplySummary {
        guard !summary.newEntryIDs.isEmpty else { return summary }
        let feedAnnounces = try Bool.fetchOne(db.cachedStatement(sql: "SELECT notifiesNewEntries FROM feeds WHERE id = ?"),
                                              arguments: [feedID]) ?? true
        var announced = summary
        announced.announcedEntries = summary.newEntryIDs.count { id in
            !rules.hidden.contains(id) && (feedAnnounces || rules.announced.contains(id))
        }
        return announced
    }

    /// Saves one fetch as `apply(_:toFeed:at:policy:)` says, noting the entries it adds in `arrivals` for the rules.
    private static func apply(_ result: FetchResult, toFeed feedID: Int64, at now: Date, policy: PollingPolicy,
                              arrivals: RuleArrivals?, in db: Database) throws -> ApplySummary {
        guard let url = try URL.fetchOne(db.cachedStatement(sql: "SELECT url FROM feeds WHERE id = ?"), arguments: [feedID]) else {
            throw FeedStoreError.feedNotFound(id: feedID)
        }
        let storedNow = storageValue(now)
        try db.cachedStatement(sql: "UPDATE feeds SET nextFetch = ?, lastAttempt = ? WHERE id = ?")
            .execute(arguments: [storageValue(policy.nextFetch(after: result, at: now)), storedNow, feedID])
        if let host = PollingPolicy.hostKey(for: url) {
            let previous = try FeedStore.hostBackoff(host: host, in: db)
            try FeedStore.setHostBackoff(policy.hostBackoff(after: result, previous: previous, at: now), host: host, in: db)
        }
        if let newURL = result.permanentRedirect {
            try db.execute(
                sql: "UPDATE feeds SET url = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM feeds WHERE url = ? AND accountId IS NULL)",
                arguments: [newURL, feedID, newURL]
            )
        }
        switch result.outcome {
        case let .fetched(parsed, validators):
            try db.cachedStatement(sql: """
                UPDATE feeds SET title = CASE WHEN titleIsCustom THEN title ELSE COALESCE(?, title) END, link = COALESCE(?, link), iconURL = COALESCE(?, iconURL),
                    etag = ?, lastModified = ?, lastFetched = ?, lastErrorCode = NULL, lastErrorDetails = NULL, lastWarnings = ?,
                    declaredInterval = ?
                WHERE id = ?
                """).execute(arguments: [
                    parsed.feed.title, parsed.feed.link, parsed.feed.iconURL, validators.etag, validators.lastModified, storedNow,
                    ErrorReason.storedWarnings(parsed.warnings), parsed.feed.updateInterval, feedID,
                ])
            return try FeedStore.save(parsed.entries, feedID: feedID, now: storedNow, arrivals: arrivals, in: db)
        case .notModified:
            try db.cachedStatement(sql: "UPDATE feeds SET lastFetched = ?, lastErrorCode = NULL, lastErrorDetails = NULL WHERE id = ?")
                .execute(arguments: [storedNow, feedID])
            return ApplySummary()
        case let .failed(error):
            let reason = error.reason
            try db.cachedStatement(sql: "UPDATE feeds SET lastErrorCode = ?, lastErrorDetails = ? WHERE id = ?")
                .execute(arguments: [reason.code.rawValue, reason.storedDetails, feedID])
            return ApplySummary()
        }
    }

    /// `date` as GRDB stores it, written without GRDB's DateFormatter (see `UTCDateText`).
    static func storageValue(_ date: Date?) -> DatabaseValue {
        guard let date else { return .null }
        return UTCDateText.storage(date)?.databaseValue ?? date.databaseValue
    }

    /// The hosts that asked to be left alone and are not yet past their pause at `now`, by `PollingPolicy.hostKey`.
    public func hostBackoffs(at now: Date) async throws -> [String: HostBackoff] {
        try await reading { db in
            let rows = try Row.fetchAll(db, sql: "SELECT host, until, strikes FROM hostBackoff WHERE until > ?",
                                        arguments: [FeedStore.storageValue(now)])
            return Dictionary(rows.map { ($0["host"], HostBackoff(until: $0["until"], strikes: $0["strikes"])) },
                              uniquingKeysWith: { first, _ in first })
        }
    }

    private static func hostBackoff(host: String, in db: Database) throws -> HostBackoff? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT until, strikes FROM hostBackoff WHERE host = ?"), arguments: [host])
            .map { HostBackoff(until: $0["until"], strikes: $0["strikes"]) }
    }

    private static func setHostBackoff(_ backoff: HostBackoff?, host: String, in db: Database) throws {
        if let backoff {
            try db.execute(sql: "INSERT OR REPLACE INTO hostBackoff (host, until, strikes) VALUES (?, ?, ?)",
                           arguments: [host, storageValue(backoff.until), backoff.strikes])
        } else {
            try db.cachedStatement(sql: "DELETE FROM hostBackoff WHERE host = ?").execute(arguments: [host])
        }
    }

    /// Inserts or updates entries, those it adds hidden, read and starred as `arrivals` judges
    /// them, and noted there. Feeds list newest first, so they are stored in reverse: entries
    /// without dates then sort in the feed's own order.
    private static func save(_ entries: [Entry], feedID: Int64, now: DatabaseValue, arrivals: RuleArrivals?,
                             in db: Database) throws -> ApplySummary {
        let insert = try db.cachedStatement(sql: """
            INSERT INTO entries (feedId, entryId, title, link, author, published, updated, summary, summaryHTML, content,
                                 enclosures, readOnArrival, insertedAt, sortDate, hiddenByRule, isStarred)
            SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?14, ?12, ?13, ?15, ?16
            WHERE NOT EXISTS (SELECT 1 FROM expiredEntries WHERE feedId = ?1 AND entryId = ?2)
            ON CONFLICT (feedId, entryId) DO NOTHING
            """)
        let verdicts = try arrivals?.verdicts(on: entries, ofFeed: feedID, in: db)
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
            let summaryColumn = storedSummary(of: entry)
            let enclosures = entry.enclosures.isEmpty ? nil : try encoder.encode(entry.enclosures)
            let link = entry.linkString
            let (published, updated) = (storageValue(entry.published), storageValue(entry.updated))
            let verdict = verdicts?[entry.id]
            try insert.execute(arguments: [
                feedID, entry.id, entry.title, link, entry.author, published, updated,
                summaryColumn, entry.summaryHTML, entry.content, enclosures, now, entry.date.map { storageValue($0) } ?? now,
                verdict?.actions.contains(.markRead) ?? false, verdict?.hiddenBy, verdict?.actions.contains(.star) ?? false,
            ])
            if db.changesCount > 0 {
                summary.newEntries += 1
                summary.newEntryIDs.append(db.lastInsertedRowID)
                arrivals?.inserted(db.lastInsertedRowID, verdict: verdict)
                continue
            }
            try update.execute(arguments: [
                entry.title, link, entry.author, published, updated,
                summaryColumn, entry.content, enclosures, feedID, entry.id, entry.summaryHTML,
            ])
            if db.changesCount > 0 { summary.updatedEntries += 1 }
        }
        return summary
    }
}
