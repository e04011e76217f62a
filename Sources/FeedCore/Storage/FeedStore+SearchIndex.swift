import GRDB

extension FeedStore {
    /// `v28-contentless-search`: the search index keeps its words alone, no copy of the text
    /// (FTS5's `content = ''`). Its own copy of every entry's title, author and plain text was
    /// 15% of the store (docs/performance.md, Scale), and nothing reads it: a search asks for
    /// rowids and ranks by the words' positions, which the index keeps. SQLite 3.40 (Debian 12)
    /// removes a row of such an index only when given the words it was indexed with, so the
    /// triggers give the old title, author and text, made as the index made them
    /// (`indexedBody`); `feed_plain_text` must therefore give what it gave when the entry was
    /// indexed, and a change to it needs a migration filling the index again. An entry waiting
    /// in the search backlog has no row yet, and its triggers leave the index alone.
    static func makeSearchIndexContentless(in db: Database) throws {
        let entryText = { (row: String) in "COALESCE(feed_plain_text(COALESCE(\(row)content, \(row)summaryHTML)), \(row)summary, '')" }
        let articleText = { (entry: String) in
            "COALESCE(' ' || (SELECT feed_plain_text(html) FROM fullArticles WHERE entryId = \(entry)), '')"
        }
        let indexed = { (entry: String) in "NOT EXISTS (SELECT 1 FROM searchBacklog WHERE entryId = \(entry))" }
        let remove = "INSERT INTO entries_search (entries_search, rowid, title, author, body)"
        try db.execute(sql: """
            DROP TRIGGER entries_search_update;
            DROP TRIGGER entries_search_delete;
            DROP TRIGGER fullArticles_search_insert;
            DROP TRIGGER fullArticles_search_update;
            DROP TRIGGER fullArticles_search_delete;
            DROP TABLE entries_search;
            CREATE VIRTUAL TABLE entries_search USING fts5(title, author, body, content = '',
                                                           tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2');
            INSERT INTO entries_search (rowid, title, author, body)
                SELECT entries.id, entries.title, author, \(indexedBody) FROM entries
                LEFT JOIN fullArticles ON fullArticles.entryId = entries.id
                WHERE \(indexed("entries.id"));
            CREATE TRIGGER entries_search_update AFTER UPDATE OF title, author, content, summaryHTML, summary ON entries
            WHEN (old.title IS NOT new.title OR old.author IS NOT new.author OR old.content IS NOT new.content
                  OR old.summaryHTML IS NOT new.summaryHTML OR old.summary IS NOT new.summary) AND \(indexed("new.id")) BEGIN
                \(remove) VALUES ('delete', old.id, old.title, old.author, \(entryText("old.")) || \(articleText("old.id")));
                INSERT INTO entries_search (rowid, title, author, body)
                    VALUES (new.id, new.title, new.author, \(entryText("new.")) || \(articleText("new.id")));
            END;
            -- Before the row goes, while its full article, which goes with it, is there to give its words.
            CREATE TRIGGER entries_search_delete BEFORE DELETE ON entries WHEN \(indexed("old.id")) BEGIN
                \(remove) VALUES ('delete', old.id, old.title, old.author, \(entryText("old.")) || \(articleText("old.id")));
            END;
            CREATE TRIGGER fullArticles_search_insert AFTER INSERT ON fullArticles WHEN \(indexed("new.entryId")) BEGIN
                \(remove) SELECT 'delete', id, title, author, \(entryText("")) FROM entries WHERE id = new.entryId;
                INSERT INTO entries_search (rowid, title, author, body)
                    SELECT id, title, author, \(entryText("")) || ' ' || feed_plain_text(new.html) FROM entries WHERE id = new.entryId;
            END;
            CREATE TRIGGER fullArticles_search_update AFTER UPDATE OF html ON fullArticles
            WHEN old.html IS NOT new.html AND \(indexed("new.entryId")) BEGIN
                \(remove) SELECT 'delete', id, title, author, \(entryText("")) || ' ' || feed_plain_text(old.html)
                    FROM entries WHERE id = old.entryId;
                INSERT INTO entries_search (rowid, title, author, body)
                    SELECT id, title, author, \(entryText("")) || ' ' || feed_plain_text(new.html) FROM entries WHERE id = new.entryId;
            END;
            -- Gone with its entry, whose own trigger has taken the row out already: the entry is no longer there.
            CREATE TRIGGER fullArticles_search_delete AFTER DELETE ON fullArticles WHEN \(indexed("old.entryId")) BEGIN
                \(remove) SELECT 'delete', id, title, author, \(entryText("")) || ' ' || feed_plain_text(old.html)
                    FROM entries WHERE id = old.entryId;
                INSERT INTO entries_search (rowid, title, author, body)
                    SELECT id, title, author, \(entryText("")) FROM entries WHERE id = old.entryId;
            END;
            """)
    }

    /// `v31-search-words-only`: the index without its indexes of one- and two-letter prefixes,
    /// which were 60% of it, a fifth of the store (docs/performance.md, Scale). A prefix being
    /// typed is looked up as the few words it begins, or while shorter than three letters as the
    /// word itself (`prefixExpansions`). Every entry waits in the search backlog, as after a
    /// repair: the window takes it in once opened, in steps that let other writes through, where
    /// filling the index here would hold the upgrade up some 25 s at a million entries.
    static func dropSearchPrefixIndexes(in db: Database) throws {
        // Debian's SQLite overwrites every freed page (SECURE_DELETE), here the old index's
        // 300 MB at a million entries, each page also copied into the statement's journal in
        // memory; the index holds the feeds' words, no secret, and its pages are reused.
        let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 1
        try db.execute(sql: "PRAGMA secure_delete = FAST")
        defer { try? db.execute(sql: "PRAGMA secure_delete = \(secureDelete)") }
        try db.execute(sql: """
            DROP TABLE entries_search;
            CREATE VIRTUAL TABLE entries_search USING fts5(title, author, body, content = '',
                                                           tokenize = 'unicode61 remove_diacritics 2');
            INSERT OR IGNORE INTO searchBacklog (entryId) SELECT id FROM entries;
            """)
    }
}
