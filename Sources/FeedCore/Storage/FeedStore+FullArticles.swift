import Foundation
import GRDB

extension FeedStore {
    /// `v15-full-articles`: the per-feed choice to always show the full article, and the articles
    /// extracted from entries' pages, one per entry, gone with their entry. The search index's
    /// body holds an entry's text followed by its full article's.
    static func createFullArticles(in db: Database) throws {
        try db.alter(table: "feeds") { table in
            table.add(column: "alwaysShowsFullArticle", .boolean).notNull().defaults(to: false)
        }
        try db.create(table: "fullArticles") { table in
            table.primaryKey("entryId", .integer).references("entries", onDelete: .cascade)
            table.column("title", .text)
            table.column("html", .text).notNull()
            table.column("pageURL", .text).notNull()
            table.column("extractedAt", .datetime).notNull()
        }
        let entryBody = "COALESCE(feed_plain_text(COALESCE(content, summaryHTML)), summary, '')"
        let newEntryBody = "COALESCE(feed_plain_text(COALESCE(new.content, new.summaryHTML)), new.summary, '')"
        try db.execute(sql: """
            DROP TRIGGER entries_search_update;
            CREATE TRIGGER entries_search_update AFTER UPDATE OF title, author, content, summaryHTML, summary ON entries BEGIN
                UPDATE entries_search SET title = new.title, author = new.author,
                    body = \(newEntryBody) || COALESCE(' ' || (SELECT feed_plain_text(html) FROM fullArticles WHERE entryId = new.id), '')
                WHERE rowid = new.id;
            END;
            CREATE TRIGGER fullArticles_search_insert AFTER INSERT ON fullArticles BEGIN
                UPDATE entries_search SET body = (SELECT \(entryBody) FROM entries WHERE id = new.entryId) || ' ' || feed_plain_text(new.html)
                WHERE rowid = new.entryId;
            END;
            CREATE TRIGGER fullArticles_search_update AFTER UPDATE OF html ON fullArticles BEGIN
                UPDATE entries_search SET body = (SELECT \(entryBody) FROM entries WHERE id = new.entryId) || ' ' || feed_plain_text(new.html)
                WHERE rowid = new.entryId;
            END;
            CREATE TRIGGER fullArticles_search_delete AFTER DELETE ON fullArticles BEGIN
                UPDATE entries_search SET body = (SELECT \(entryBody) FROM entries WHERE id = old.entryId)
                WHERE rowid = old.entryId AND EXISTS (SELECT 1 FROM entries WHERE id = old.entryId);
            END;
            """)
    }

    /// Keeps `article` as the full article of entry `entryID`, replacing any earlier one.
    ///
    /// - Throws: `FeedStoreError.entryNotFound` when the entry is gone (its feed was removed meanwhile).
    public func saveFullArticle(_ article: FullArticle, forEntry entryID: Int64) async throws {
        try await writing { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM entries WHERE id = ?", arguments: [entryID]) == true else {
                throw FeedStoreError.entryNotFound(id: entryID)
            }
            try db.execute(sql: """
                INSERT INTO fullArticles (entryId, title, html, pageURL, extractedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (entryId) DO UPDATE SET title = excluded.title, html = excluded.html,
                    pageURL = excluded.pageURL, extractedAt = excluded.extractedAt
                """, arguments: [entryID, article.title, article.html, article.pageURL.absoluteString, article.extractedAt])
        }
    }

    /// The full article kept for entry `entryID`, or nil when none was extracted.
    public func fullArticle(forEntry entryID: Int64) async throws -> FullArticle? {
        try await reading { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM fullArticles WHERE entryId = ?", arguments: [entryID]),
                  let pageURL = row.url("pageURL") else { return nil }
            return FullArticle(title: row["title"], html: row["html"], pageURL: pageURL, extractedAt: row["extractedAt"])
        }
    }

    /// Sets whether every entry of feed `feedID` shows its full article, extracted from its page.
    public func setAlwaysShowsFullArticle(_ always: Bool, forFeed feedID: Int64) async throws {
        try await writing { db in
            try db.execute(sql: "UPDATE feeds SET alwaysShowsFullArticle = ? WHERE id = ?", arguments: [always, feedID])
            if db.changesCount == 0 { throw FeedStoreError.feedNotFound(id: feedID) }
        }
    }
}
