import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

extension FeedStore {
    /// Whether the entry of a query of `entries` is unread: its id is in `unreadEntries`. A
    /// filter only (the `+`): driven by it, SQLite read every unread entry's wide row and sorted
    /// them all for a page of the unread list, where the date index yields the page in order.
    static let isUnread = "+entries.id IN (SELECT id FROM unreadEntries)"
    /// The read mark as the `isRead` column `StoredEntry(row:)` reads.
    static let isReadColumn = "(NOT \(isUnread)) AS isRead"

    /// Marks read those of `entryIDs` still unread, in one transaction that also queues each
    /// synced one for its server; returns those it changed, for an undo.
    public func markRead(entryIDs: [Int64]) async throws -> [Int64] {
        guard !entryIDs.isEmpty else { return [] }
        return try await writing { db in
            let changed = try FeedStore.markRead(entryIDs, db: db)
            try FeedStore.queueArticleState(.read, entryIDs: changed, db: db)
            return changed
        }
    }

    /// Marks read those of `entryIDs` still unread; returns them, in order.
    static func markRead(_ entryIDs: [Int64], db: Database) throws -> [Int64] {
        try changeUnread(read: true, sql: "DELETE FROM unreadEntries WHERE id IN \(idsIn()) RETURNING id, feedId",
                         arguments: [idList(entryIDs)], db: db)
    }

    /// For `id IN \(idsIn())`, the ids bound as one argument, `idList(_:)`, at `parameter`: one
    /// statement, prepared once a connection however many ids it is given, where a list of `?`
    /// was a statement of its own for each count.
    static func idsIn(_ parameter: String = "?") -> String { "(SELECT value FROM json_each(\(parameter)))" }

    /// `ids` as the JSON array `idsIn` reads.
    static func idList(_ ids: some Sequence<Int64>) -> String {
        "[" + ids.lazy.map(String.init).joined(separator: ",") + "]"
    }

    /// `feed_marking_in_bulk()`: whether the current statement hides many entries at once; the
    /// unread counts' trigger then leaves them to the statement's caller.
    static let markingInBulkFunction = DatabaseFunction("feed_marking_in_bulk", argumentCount: 0, pure: false) { _ in
        markingInBulk
    }

    /// Set around a statement hiding many entries (a rule's): their feeds' unread counts change
    /// once a feed rather than once an entry. Bound around that statement; the function runs on its thread.
    @TaskLocal static var markingInBulk = false

    /// Sets the read mark of the entries meeting `condition` (a condition on `entries`; nil for
    /// every entry) whose mark differs, and changes their feeds' unread counts by as many;
    /// returns the ids changed, in order. Only the narrow `unreadEntries` is written.
    static func setRead(_ isRead: Bool, where condition: String?, arguments: StatementArguments = [], db: Database) throws -> [Int64] {
        switch (isRead, condition) {
        case (true, nil):
            // Every entry read: no feed has an unread one left, and the table is emptied at
            // once (SQLite frees its pages rather than deleting row by row).
            let changed = try Int64.fetchAll(db, sql: "SELECT id FROM unreadEntries ORDER BY id")
            try db.execute(sql: "DELETE FROM unreadEntries; UPDATE feedUnreadCounts SET unread = 0 WHERE unread != 0")
            return changed
        case let (true, condition?):
            return try changeUnread(read: true, sql: """
                DELETE FROM unreadEntries WHERE id IN (SELECT id FROM entries WHERE \(condition)) RETURNING id, feedId
                """, arguments: arguments, db: db)
        case (false, _):
            return try changeUnread(read: false, sql: """
                INSERT INTO unreadEntries (id, feedId) SELECT id, feedId FROM entries
                WHERE (\(condition ?? "1")) AND NOT \(isUnread) ORDER BY id RETURNING id, feedId
                """, arguments: arguments, db: db)
        }
    }

    /// Marks unread those of `entryIDs` still stored and read; returns them, in order. Many (an
    /// undone Mark All as Read) are matched against the feeds' date index, read in one pass,
    /// rather than looked up one by one in the entries' wide rows, whose pages that read
    /// whole (a gigabyte at a million entries); see `markUnreadInBulk`.
    static func markUnread(_ entryIDs: [Int64], db: Database) throws -> [Int64] {
        guard entryIDs.count > 10_000 else {
            var changed: [Int64] = []
            for start in stride(from: 0, to: entryIDs.count, by: 500) {
                let slice = Array(entryIDs[start..<min(start + 500, entryIDs.count)])
                changed += try setRead(false, where: "id IN (\(Array(repeating: "?", count: slice.count).joined(separator: ",")))",
                                       arguments: StatementArguments(slice), db: db)
            }
            return changed.sorted()
        }
        return try markUnreadInBulk(entryIDs, db: db)
    }

    /// `markUnread` of many ids, in a few passes over integers: each id's feed found in one
    /// read of the date index and those already unread left out, then the rows added in order,
    /// a thousand to a statement. A statement a row sought the table's end from its root each
    /// time: that was most of the Undo of Mark All as Read (1.39 s at a million,
    /// docs/performance.md).
    private static func markUnreadInBulk(_ entryIDs: [Int64], db: Database) throws -> [Int64] {
        let ids = IDPositions(entryIDs)
        // The feed of the id at each position; 0 for one not stored or already unread.
        var feedOf = [Int64](repeating: 0, count: ids.sorted.count)
        try eachRow(of: "SELECT id, feedId FROM entries INDEXED BY entries_by_feed_and_date", db: db) { statement in
            if let position = ids.position(of: sqlite3_column_int64(statement, 0)) {
                feedOf[position] = sqlite3_column_int64(statement, 1)
            }
        }
        try eachRow(of: "SELECT id FROM unreadEntries WHERE id BETWEEN \(ids.sorted.first!) AND \(ids.sorted.last!)", db: db) { statement in
            if let position = ids.position(of: sqlite3_column_int64(statement, 0)) { feedOf[position] = 0 }
        }
        let hidden = try hiddenEntries(db)
        var changed: [Int64] = []
        var rows: [(id: Int64, feedID: Int64)] = []
        var countChanges: [Int64: Int] = [:]
        for (id, feedID) in zip(ids.sorted, feedOf) where feedID != 0 {
            rows.append((id, feedID))
            changed.append(id)
            if !hidden.contains(id) { countChanges[feedID, default: 0] += 1 }
        }
        for start in stride(from: 0, to: rows.count, by: 1_000) {
            try insertUnread(rows[start..<min(start + 1_000, rows.count)], db: db)
        }
        try changeCounts(countChanges, db: db)
        return changed
    }

    /// Adds `rows` to `unreadEntries` in one statement, bound directly: a million rows through
    /// `StatementArguments` cost more than their inserting. None is there yet (a plain INSERT:
    /// one that were would undo the whole transaction rather than count twice).
    private static func insertUnread(_ rows: ArraySlice<(id: Int64, feedID: Int64)>, db: Database) throws {
        let values = Array(repeating: "(?,?)", count: rows.count).joined(separator: ",")
        let insert = try db.cachedStatement(sql: "INSERT INTO unreadEntries (id, feedId) VALUES \(values)")
        let code = withExtendedLifetime(insert) {
            let statement = insert.sqliteStatement
            for (offset, row) in rows.enumerated() {
                sqlite3_bind_int64(statement, Int32(2 * offset + 1), row.id)
                sqlite3_bind_int64(statement, Int32(2 * offset + 2), row.feedID)
            }
            defer { sqlite3_reset(statement) }
            return sqlite3_step(statement)
        }
        guard code == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection))) }
    }

    /// Steps through the rows of `sql`, handing each to `body` as SQLite's statement: for a
    /// million rows of integers, reading columns through GRDB's rows cost more than the reading.
    private static func eachRow(of sql: String, db: Database, _ body: (OpaquePointer) -> Void) throws {
        let rows = try db.makeStatement(sql: sql)
        let code = withExtendedLifetime(rows) {
            let statement = rows.sqliteStatement
            var code = sqlite3_step(statement)
            while code == SQLITE_ROW {
                body(statement)
                code = sqlite3_step(statement)
            }
            return code
        }
        guard code == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection))) }
    }

    /// Runs `sql`, a statement deleting (`read`) or inserting rows of `unreadEntries` and
    /// returning their `id, feedId`, and changes each feed's kept count once by as many, leaving
    /// out the entries a rule hides; returns the ids, in order.
    static func changeUnread(read: Bool, sql: String, arguments: StatementArguments, db: Database) throws -> [Int64] {
        var changed: [(id: Int64, feedID: Int64)] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try rows.next() {
            changed.append((row[0], row[1]))
        }
        let hidden = try hiddenEntries(among: changed.map(\.id), db: db)
        var countChanges: [Int64: Int] = [:]
        for (id, feedID) in changed where !hidden.contains(id) {
            countChanges[feedID, default: 0] += read ? -1 : 1
        }
        try changeCounts(countChanges, db: db)
        return changed.map(\.id).sorted()
    }

    /// Those of `ids` a rule hides, which count for no feed. A few are looked up one by one: the
    /// list of every hidden entry grows with each one a rule hides, and reading it whole for
    /// each mark made a refresh whose rules mark a few entries a transaction slower at every feed.
    private static func hiddenEntries(among ids: [Int64], db: Database) throws -> Set<Int64> {
        guard ids.count > hiddenLookupsAtMost else {
            let isHidden = try db.cachedStatement(sql: "SELECT 1 FROM entries WHERE id = ? AND hiddenByRule IS NOT NULL")
            return try Set(ids.filter { try Int.fetchOne(isHidden, arguments: [$0]) != nil })
        }
        return try hiddenEntries(db)
    }

    /// Every entry a rule hides, read from their partial index.
    private static func hiddenEntries(_ db: Database) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT id FROM entries WHERE hiddenByRule IS NOT NULL"))
    }

    /// The most entries whose hidden marks are looked up one by one rather than read from the
    /// hidden entries' partial index whole.
    private static let hiddenLookupsAtMost = 500

    private static func changeCounts(_ changes: [Int64: Int], db: Database) throws {
        let count = try db.cachedStatement(sql: "UPDATE feedUnreadCounts SET unread = unread + ? WHERE feedId = ?")
        for (feedID, change) in changes where change != 0 {
            try count.execute(arguments: [change, feedID])
        }
    }

    /// `v29-bulk-read-marks`: the unread counts' trigger skips statements marking in bulk, and
    /// the index of every entry by feed and read mark goes. Nothing read it but counts of a
    /// feed's unread entries, which `feedUnreadCounts` keeps, and a feed's own entries are found
    /// by `entries_by_feed_and_date`; every mark changed moved a row in it (another third of Mark
    /// All as Read's CPU) and it was 13 bytes an entry.
    static func markInBulk(in db: Database) throws {
        try db.execute(sql: """
            DROP INDEX entries_by_feed_and_read;
            DROP TRIGGER entries_unread_update;
            CREATE TRIGGER entries_unread_update AFTER UPDATE OF isRead, hiddenByRule, feedId ON entries
            WHEN NOT feed_marking_in_bulk()
                AND ((old.isRead = 0 AND old.hiddenByRule IS NULL) != (new.isRead = 0 AND new.hiddenByRule IS NULL) OR old.feedId != new.feedId) BEGIN
                UPDATE feedUnreadCounts SET unread = unread - 1 WHERE feedId = old.feedId AND old.isRead = 0 AND old.hiddenByRule IS NULL;
                UPDATE feedUnreadCounts SET unread = unread + 1 WHERE feedId = new.feedId AND new.isRead = 0 AND new.hiddenByRule IS NULL;
            END;
            """)
    }

    /// `v30-unread-marks`: the read mark moves out of the entries' wide rows into
    /// `unreadEntries`, two integers for each unread entry. Marking a million entries rewrote
    /// every page of the entries (their summaries sit in the rows, some 500 MB through the
    /// write-ahead log, docs/performance.md); now it deletes or inserts the narrow rows, and
    /// their writers keep the unread counts (`changeUnread`): the table has no trigger, so
    /// emptying it is one step. The column `isRead` stays as `readOnArrival`, whether an entry
    /// is stored read (a synced article may come so): dropping it would rewrite every row too.
    /// The entries' triggers file a new entry, take a removed one out and follow a hidden or moved one.
    static func moveReadMarksOut(in db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER entries_unread_insert;
            DROP TRIGGER entries_unread_delete;
            DROP TRIGGER entries_unread_update;
            CREATE TABLE unreadEntries (id INTEGER PRIMARY KEY, feedId INTEGER NOT NULL);
            INSERT INTO unreadEntries (id, feedId) SELECT id, feedId FROM entries WHERE isRead = 0 ORDER BY id;
            ALTER TABLE entries RENAME COLUMN isRead TO readOnArrival;
            CREATE INDEX entries_hidden ON entries (hiddenByRule) WHERE hiddenByRule IS NOT NULL;
            CREATE TRIGGER entries_unread_insert AFTER INSERT ON entries WHEN new.readOnArrival = 0 BEGIN
                INSERT INTO unreadEntries (id, feedId) VALUES (new.id, new.feedId);
                UPDATE feedUnreadCounts SET unread = unread + 1 WHERE feedId = new.feedId AND new.hiddenByRule IS NULL;
            END;
            CREATE TRIGGER entries_unread_delete BEFORE DELETE ON entries WHEN old.id IN (SELECT id FROM unreadEntries) BEGIN
                UPDATE feedUnreadCounts SET unread = unread - 1 WHERE feedId = old.feedId AND old.hiddenByRule IS NULL;
                DELETE FROM unreadEntries WHERE id = old.id;
            END;
            CREATE TRIGGER entries_unread_move AFTER UPDATE OF feedId ON entries WHEN old.feedId != new.feedId BEGIN
                UPDATE unreadEntries SET feedId = new.feedId WHERE id = new.id;
            END;
            CREATE TRIGGER entries_unread_update AFTER UPDATE OF hiddenByRule, feedId ON entries
            WHEN NOT feed_marking_in_bulk() AND new.id IN (SELECT id FROM unreadEntries)
                AND ((old.hiddenByRule IS NULL) != (new.hiddenByRule IS NULL) OR old.feedId != new.feedId) BEGIN
                UPDATE feedUnreadCounts SET unread = unread - 1 WHERE feedId = old.feedId AND old.hiddenByRule IS NULL;
                UPDATE feedUnreadCounts SET unread = unread + 1 WHERE feedId = new.feedId AND new.hiddenByRule IS NULL;
            END;
            """)
    }
}
