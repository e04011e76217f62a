import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

extension FeedStore {
    /// `feed_plain_text(html)`: the words of an entry's HTML, for the search index's triggers.
    static let plainTextFunction = DatabaseFunction("feed_plain_text", argumentCount: 1, pure: true) { values in
        guard let html = String.fromDatabaseValue(values[0]) else { return nil }
        return HTMLText.plainText(fromHTML: html)
    }

    /// `feed_search_deferred()`: whether the entries the current statement stores go to the
    /// search backlog instead of the index, which `v18-search-backlog`'s triggers ask.
    static let searchDeferredFunction = DatabaseFunction("feed_search_deferred", argumentCount: 0, pure: false) { _ in
        deferringSearchIndex
    }

    /// Set around a statement storing synced articles: they go to `searchBacklog`, and the index
    /// takes them before the next search (`indexSearchBacklog()`). Filling the index was half a
    /// sync's CPU, on the path each page waits on (docs/performance.md, Sync). Bound around that
    /// statement; the function runs on its thread.
    @TaskLocal static var deferringSearchIndex = false

    /// Puts the entries waiting in the search backlog into the index, up to
    /// ``searchBacklogStep`` in each statement and transaction (FTS5 writes one segment for
    /// them instead of one a page, and other writes wait at most one step). A search calls it
    /// first, so whatever was stored is found; the window calls it once opened and after a
    /// sync, so that search need not wait.
    public func indexSearchBacklog() async throws {
        guard try await reading({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM searchBacklog)") ?? false }) else { return }
        while try await writing({ db in
            let batch = "SELECT entryId FROM searchBacklog ORDER BY entryId LIMIT \(Self.searchBacklogStep)"
            try db.execute(sql: """
                INSERT INTO entries_search (rowid, title, author, body)
                    SELECT entries.id, entries.title, author, \(Self.indexedBody) FROM (\(batch)) AS batch
                    JOIN entries ON entries.id = batch.entryId LEFT JOIN fullArticles ON fullArticles.entryId = entries.id;
                DELETE FROM searchBacklog WHERE entryId IN (\(batch));
                """)
            return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM searchBacklog)") ?? false
        }) {}
    }

    /// How many entries of the search backlog one transaction indexes: about a tenth of a
    /// second's work, as long as a write such as a read mark may wait behind it.
    static let searchBacklogStep = 10_000

    /// What the index holds as an entry's text: its own text, then its full article's.
    static let indexedBody = "COALESCE(feed_plain_text(COALESCE(content, summaryHTML)), summary, '') || COALESCE(' ' || feed_plain_text(fullArticles.html), '')"

    /// Adds `search_rank(entries_search, weights...)` to `db`: how well the current row of an
    /// `entries_search MATCH` fits, higher is better. It is FTS5's bm25 with every word weighing
    /// the same: bm25 weighs a word by how few entries hold it, which it learns by reading every
    /// match of every word once more on each keystroke, while this reads only the rows it ranks.
    /// A word's matches in a column count the column's weight (the function's arguments, in
    /// column order; 1 when left out), with bm25's saturation and length terms.
    static func addSearchRanking(to db: Database) throws {
        let api = FTS5.api(db)
        let code = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), "search_rank", nil, { functions, context, result, argumentCount, arguments in
            guard let functions = functions?.pointee else { return }
            var score = 0.0
            let code = FeedStore.searchRank(functions, context, argumentCount, arguments, score: &score)
            if code == SQLITE_OK { sqlite3_result_double(result, score) } else { sqlite3_result_error_code(result, code) }
        }, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "search_rank") }
    }

    /// BM25's term-frequency constants, as FTS5's bm25 sets them.
    private static let saturation = 1.2, lengthWeight = 0.75

    /// Sets `score` to the score of the row `context` stands on; returns SQLITE_OK, or the code of what failed.
    private static func searchRank(_ functions: Fts5ExtensionApi, _ context: OpaquePointer?, _ argumentCount: Int32,
                                   _ arguments: UnsafeMutablePointer<OpaquePointer?>?, score: inout Double) -> Int32 {
        var averageTokens = 0.0
        var code = averageRowTokens(functions, context, &averageTokens)
        var instanceCount: Int32 = 0, rowTokens: Int32 = 0
        if code == SQLITE_OK { code = functions.xInstCount(context, &instanceCount) }
        if code == SQLITE_OK { code = functions.xColumnSize(context, -1, &rowTokens) }
        guard code == SQLITE_OK else { return code }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: Int(functions.xPhraseCount(context))) { frequencies in
            frequencies.initialize(repeating: 0)
            for instance in 0..<instanceCount {
                var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
                let code = functions.xInst(context, instance, &phrase, &column, &offset)
                guard code == SQLITE_OK else { return code }
                frequencies[Int(phrase)] += column < argumentCount ? sqlite3_value_double(arguments?[Int(column)]) : 1
            }
            let lengthTerm = saturation * (1 - lengthWeight + lengthWeight * Double(rowTokens) / averageTokens)
            score = frequencies.reduce(0) { $0 + $1 * (saturation + 1) / ($1 + lengthTerm) }
            return SQLITE_OK
        }
    }

    /// The tokens an indexed entry holds on average (at least 1), read once per query: FTS5 reads
    /// its totals again on every call.
    private static func averageRowTokens(_ functions: Fts5ExtensionApi, _ context: OpaquePointer?, _ average: inout Double) -> Int32 {
        if let kept = functions.xGetAuxdata(context, 0) {
            average = kept.load(as: Double.self)
            return SQLITE_OK
        }
        var rows: Int64 = 0, tokens: Int64 = 0
        var code = functions.xRowCount(context, &rows)
        if code == SQLITE_OK { code = functions.xColumnTotalSize(context, -1, &tokens) }
        guard code == SQLITE_OK else { return code }
        average = rows > 0 ? max(Double(tokens) / Double(rows), 1) : 1
        guard let kept = sqlite3_malloc(Int32(MemoryLayout<Double>.size)) else { return SQLITE_NOMEM }
        kept.storeBytes(of: average, as: Double.self)
        // FTS5 frees it with the query, or at once when it cannot keep it.
        return functions.xSetAuxdata(context, kept, sqlite3_free)
    }

    /// The entries matching `text` (`SearchQuery`: every word in the title, author or text, the
    /// last one also as the start of a longer word so results follow typing, phrases, prefixes,
    /// words left out, `title:`, `author:`, `feed:`), best matches first: a word in the title
    /// counts most, then the author, then the text. The view's feed and filter do not narrow it.
    ///
    /// Only the newest `candidates` matches are ranked: a word nearly every entry holds would
    /// otherwise have every entry scored on each keystroke. One statement finds and ranks them:
    /// the index is walked in rowid order and stops (rowids grow as entries arrive), and the
    /// ranking (`search_rank`) needs nothing beyond the rows it scores. `fields` says how much
    /// of each entry to read (a list shows `.listing`); entries a rule hid are found only
    /// `includingHidden`.
    public func search(_ text: String, limit: Int = 50, offset: Int = 0, candidates: Int = searchCandidates,
                       fields: EntryFields = .all, includingHidden: Bool = false) async throws -> [StoredEntry] {
        let query = SearchQuery(text)
        guard query.matchExpression != nil else { return [] }
        try await indexSearchBacklog()
        let columns = FeedStore.columns(fields)
        return try await reading { db in
            guard let match = try FeedStore.matchExpression(of: query, in: db),
                  let within = try FeedStore.condition(of: query, in: db) else { return [] }
            // Kept prepared: parsing it again cost up to a tenth of a keystroke's query.
            return try StoredEntry.fetchAll(db.cachedStatement(sql: """
                SELECT \(columns) FROM (\(FeedStore.rankedMatches(within: within))) AS hits
                JOIN entries ON entries.id = hits.rowid\(includingHidden ? "" : " WHERE entries.hiddenByRule IS NULL")
                ORDER BY hits.score DESC, entries.id DESC
                """), arguments: [match, max(candidates, limit + offset), limit, offset])
        }
    }

    /// How many of the newest matches a search ranks.
    public static let searchCandidates = 2_000

    /// The shortest word being typed that also matches as the start of longer words: one or two
    /// letters match that word alone (`go`, `AI`). The index has no index of prefixes
    /// (`v31-search-words-only`), and the words one or two letters begin are most of a store's
    /// words: looking them up cost 2 ms a word at a million entries, and reading their matches
    /// as one prefix 100 ms.
    static let shortestTypedPrefix = 3

    /// The most words a prefix is looked up as; one beginning more is matched as a prefix.
    static let prefixExpansionLimit = 16

    /// The FTS5 expression `query` is matched by in `db`: its prefixes as their words in the
    /// index (`prefixExpansions`); nil when it can match nothing.
    static func matchExpression(of query: SearchQuery, in db: Database) throws -> String? {
        try query.matchExpression(expanding: prefixExpansions(of: query, in: db))
    }

    /// The indexed words each of `query`'s prefixes begins, by the prefix as typed; a word being
    /// typed shorter than ``shortestTypedPrefix`` as itself. FTS5 matches a prefix by reading
    /// every match of every word it begins into one list before the first result (16 to 20 ms
    /// for "ref" at a million entries, the word in half of them), where a few words matched as
    /// any of them are read lazily, newest first, and stop with the candidates (under 1 ms).
    /// Left out, and so matched as a prefix: a prefix of other than ASCII letters and digits (the
    /// index folds case and accents its own way, which only for those is lowercasing) and one
    /// beginning more than ``prefixExpansionLimit`` words.
    static func prefixExpansions(of query: SearchQuery, in db: Database) throws -> [String: [String]] {
        var expansions: [String: [String]] = [:]
        for term in query.terms where term.isPrefix {
            guard let prefix = term.words.last, expansions[prefix] == nil else { continue }
            if term.isBeingTyped, prefix.count < shortestTypedPrefix {
                expansions[prefix] = [prefix]
            } else if prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
                      let words = try indexedWords(beginning: prefix.lowercased(), in: db) {
                expansions[prefix] = words
            }
        }
        return expansions
    }

    /// The indexed words `prefix` (lowercase ASCII letters and digits) begins, in order; nil when
    /// it begins more than ``prefixExpansionLimit``. Each is one step of `entries_search_words`
    /// (an fts5vocab table of the index's instances, which stops at the first instance of the word
    /// after the last one found, where its table of rows would count every match of each).
    static func indexedWords(beginning prefix: String, in db: Database) throws -> [String]? {
        guard let last = prefix.unicodeScalars.last, let next = UnicodeScalar(last.value + 1) else { return nil }
        // Every word the prefix begins sorts before it with its last letter the next one.
        let end = String(prefix.dropLast()) + String(Character(next))
        let step = try db.cachedStatement(sql: "SELECT term FROM temp.entries_search_words WHERE term >= ? AND term < ? LIMIT 1")
        var words: [String] = [], from = prefix
        while let word = try String.fetchOne(step, arguments: [from, end]) {
            guard words.count < prefixExpansionLimit else { return nil }
            words.append(word)
            // The words are letters and digits: nothing sorts between a word and itself followed by U+0001.
            from = word + "\u{1}"
        }
        return words
    }

    /// `entries_search_words`: the search index's words, an fts5vocab table in the connection's
    /// temporary schema (so no migration), made as each connection opens.
    static func addIndexedWords(to db: Database) throws {
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.entries_search_words USING fts5vocab(main, entries_search, instance)")
    }

    /// The index's rows (`rowid`, `score`) matching the first argument, of the entries meeting
    /// `within` (a condition on `entries`, or none when empty), the newest of them (as many as
    /// the second) ranked, best first, with the third and fourth as limit and offset.
    static func rankedMatches(within: String) -> String {
        """
        SELECT rowid, score FROM (
            SELECT rowid, search_rank(entries_search, 10.0, 4.0, 1.0) AS score FROM entries_search
            WHERE entries_search MATCH ?\(within.isEmpty ? "" : " AND rowid IN (SELECT id FROM entries WHERE \(within))")
            ORDER BY rowid DESC LIMIT ?
        ) ORDER BY score DESC, rowid DESC LIMIT ? OFFSET ?
        """
    }

    /// What entries `query` is limited to besides its words, as a condition on `entries`: empty
    /// for every entry, nil when none can match (no feed's name holds what `feed:` asked).
    static func condition(of query: SearchQuery, in db: Database) throws -> String? {
        guard !query.feedNames.isEmpty else { return "" }
        // Compared here rather than in SQL, whose lower() and LIKE fold only ASCII letters.
        let feeds = try Row.fetchAll(db, sql: "SELECT id, COALESCE(title, url) AS name FROM feeds")
        let ids = feeds.compactMap { row -> Int64? in
            let name: String = row["name"]
            return query.feedNames.contains { name.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) != nil } ? row["id"] : nil
        }
        guard !ids.isEmpty else { return nil }
        return "feedId IN (\(ids.map(String.init).joined(separator: ",")))"
    }

    /// The words a search for `text` finds in what it lists, to mark them.
    public static func searchTerms(in text: String) -> [String] {
        SearchQuery(text).highlightedWords
    }

    /// `v4-search` and `v6-search-prefixes`: the index with its prefix indexes of `prefixes`, filled
    /// from the entries, and the triggers keeping it in step with them.
    static func createSearchIndex(in db: Database, prefixes: String) throws {
        // The summary column is plain text already; only HTML goes through feed_plain_text.
        let body = "COALESCE(feed_plain_text(COALESCE(new.content, new.summaryHTML)), new.summary)"
        try db.execute(sql: """
            CREATE VIRTUAL TABLE entries_search USING fts5(title, author, body, tokenize = 'unicode61 remove_diacritics 2',
                                                           prefix = '\(prefixes)');
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

    /// `v17-search-index`: the index made again with prefix indexes of the first one and two
    /// letters, no longer three. Each prefix index costs about what the words' own index does at
    /// every insert, and a prefix of three letters or more matches few enough words for FTS5 to
    /// merge their lists within a keystroke's time (docs/performance.md, Sync). The triggers
    /// stay; the body is filled as they fill it, the entry's text then its full article's.
    static func rebuildSearchIndexWithoutThreeLetterPrefixes(in db: Database) throws {
        let body = indexedBody
        try db.execute(sql: """
            DROP TABLE entries_search;
            CREATE VIRTUAL TABLE entries_search USING fts5(title, author, body, tokenize = 'unicode61 remove_diacritics 2',
                                                           prefix = '1 2');
            INSERT INTO entries_search (rowid, title, author, body)
                SELECT id, entries.title, author, \(body) FROM entries LEFT JOIN fullArticles ON fullArticles.entryId = entries.id;
            """)
    }

    /// `v18-search-backlog`: entries stored while `deferringSearchIndex` is set wait in
    /// `searchBacklog` (left with their entry) instead of entering the index one by one; every
    /// other entry is indexed as it is stored, as before. The index's update and delete triggers
    /// stay: an entry not indexed yet has no row for them, and the backlog takes its current text.
    static func addSearchBacklog(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE searchBacklog (entryId INTEGER PRIMARY KEY REFERENCES entries(id) ON DELETE CASCADE);
            DROP TRIGGER entries_search_insert;
            CREATE TRIGGER entries_search_insert AFTER INSERT ON entries WHEN NOT feed_search_deferred() BEGIN
                INSERT INTO entries_search (rowid, title, author, body)
                    VALUES (new.id, new.title, new.author, COALESCE(feed_plain_text(COALESCE(new.content, new.summaryHTML)), new.summary));
            END;
            CREATE TRIGGER entries_search_defer AFTER INSERT ON entries WHEN feed_search_deferred() BEGIN
                INSERT INTO searchBacklog (entryId) VALUES (new.id);
            END;
            """)
    }
}
