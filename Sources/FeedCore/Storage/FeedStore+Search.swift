import Foundation
import GRDB

extension FeedStore {
    /// `feed_plain_text(html)`: the words of an entry's HTML, for the search index's triggers.
    static let plainTextFunction = DatabaseFunction("feed_plain_text", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(HTMLText.plainText(fromHTML:))
    }

    /// The entries whose title, author or text hold every word of `text` (the last one also as
    /// the start of a longer word, so results follow typing), best matches first: a word in the
    /// title counts most, then the author, then the text. Feeds and filters do not narrow it.
    ///
    /// Only the newest `candidates` matches are ranked: a word nearly every entry holds would
    /// otherwise have every entry scored on each keystroke. Finding them walks the index in
    /// rowid order and stops, and rowids grow as entries arrive.
    public func search(_ text: String, limit: Int = 50, offset: Int = 0, candidates: Int = 2_000) async throws -> [StoredEntry] {
        guard let match = FeedStore.matchExpression(for: text) else { return [] }
        return try await reading { db in
            let oldest = try Int64.fetchOne(db, sql: """
                SELECT rowid FROM entries_search WHERE entries_search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?
                """, arguments: [match, max(candidates, limit + offset) - 1]) ?? 0
            return try StoredEntry.fetchAll(db, sql: """
                SELECT entries.* FROM (
                    SELECT rowid, bm25(entries_search, 10.0, 4.0, 1.0) AS score FROM entries_search
                    WHERE entries_search MATCH ? AND rowid >= ? ORDER BY score, rowid DESC LIMIT ? OFFSET ?
                ) AS hits JOIN entries ON entries.id = hits.rowid
                ORDER BY hits.score, entries.id DESC
                """, arguments: [match, oldest, limit, offset])
        }
    }

    /// The words a search looks for, as typed (quotes and FTS5 operators have no meaning).
    public static func searchTerms(in text: String) -> [String] {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// An FTS5 query matching every term, the last also as a prefix; nil when there is no term.
    static func matchExpression(for text: String) -> String? {
        let terms = searchTerms(in: text)
        guard !terms.isEmpty else { return nil }
        // Terms hold only letters and digits, so quoting them makes each a plain string.
        return terms.enumerated().map { index, term in
            "\"\(term)\"" + (index == terms.count - 1 ? "*" : "")
        }.joined(separator: " ")
    }

    static func createSearchIndex(in db: Database) throws {
        // The summary column is plain text already; only HTML goes through feed_plain_text.
        let body = "COALESCE(feed_plain_text(COALESCE(new.content, new.summaryHTML)), new.summary)"
        try db.execute(sql: """
            CREATE VIRTUAL TABLE entries_search USING fts5(title, author, body, tokenize = 'unicode61 remove_diacritics 2',
                                                           prefix = '1 2 3');
            INSERT INTO entries_search (rowid, title, author, body)
                SELECT id, title, author, \(body.replacingOccurrences(of: "new.", with: "")) FROM entries;
            CREATE TRIGGER entries_search_insert AFTER INSERT ON entries BEGIN
                INSERT INTO entries_search (rowid, title, author, body) VALUES (new.id, new.title, new.author, \(body));
            END;
            CREATE TRIGGER entries_search_update AFTER UPDATE OF title, author, content, summaryHTML, summary ON entries BEGIN
                UPDATE entries_search SET title = new.title, author = new.author, body = \(body) WHERE rowid = new.id;
            END;
            CREATE TRIGGER entries_search_delete AFTER DELETE ON entries BEGIN
                DELETE FROM entries_search WHERE rowid = old.id;
            END;
            """)
    }
}
