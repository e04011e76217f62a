import Foundation
import GRDB
import Testing
@testable import FeedCore

/// `v31-search-words-only`: the search index without indexes of prefixes. A v30 store's entries
/// wait in the search backlog and are found as before once it is taken in, in steps.
@Suite("The search index without prefix indexes")
struct SearchWordsOnlyMigrationTests {
    /// The index's definition and how many entries wait in the backlog.
    private static func index(of store: FeedStore) async throws -> (definition: String?, waiting: Int) {
        try await store.reading { db in
            (try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'entries_search'"),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM searchBacklog") ?? -1)
        }
    }

    @Test func aV30StoreFindsWhatItFoundOnceItsBacklogIsIn() async throws {
        let store = try FeedStore(path: try await olderGardenStore(upTo: "v30-unread-marks"))

        let upgraded = try await Self.index(of: store)
        #expect(upgraded.definition?.contains("prefix") == false, "\(upgraded.definition ?? "no index")")
        #expect(upgraded.waiting == 2)
        let sqliteDefault = try await DatabaseQueue().read { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") }
        #expect(try await store.writing { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") } == sqliteDefault,
                "the upgrade gives SQLite's overwriting of freed pages back")
        let searches = gardenSearches + [
            ("b*", ["a", "b"], "one letter: beds in a title, Bring in a summary"),
            ("be", [], "two letters being typed: that word alone"),
        ]
        for search in searches {
            #expect(try await store.search(search.query).map(\.entryID).sorted() == search.found, "\(search.what)")
        }
        #expect(try await Self.index(of: store).waiting == 0)
        try await store.removeFeed(id: 1)
        #expect(try await store.search("cardboard").isEmpty, "the index follows the entries again")
    }

    /// More entries than one step takes: each is indexed once, the first and the last among them.
    @Test func aBacklogLongerThanAStepIsTakenInWhole() async throws {
        let count = FeedStore.searchBacklogStep + 5
        let path = try await olderGardenStore(upTo: "v30-unread-marks") { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO entries (id, feedId, entryId, title, insertedAt, sortDate)
                    SELECT 100 + i, 1, 'generated' || i, 'Compost heap number' || i, '2024-02-01 00:00:00.000',
                           '2024-02-01 00:00:00.000' FROM n
                """, arguments: [count])
        }
        let store = try FeedStore(path: path)

        try await store.indexSearchBacklog()

        #expect(try await Self.index(of: store).waiting == 0)
        #expect(try await store.search("number1 ").map(\.entryID) == ["generated1"])
        #expect(try await store.search("number\(count) ").map(\.entryID) == ["generated\(count)"])
        let holding = try await store.writing { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.indexedWords USING fts5vocab(main, entries_search, row)")
            return try Int.fetchOne(db, sql: "SELECT doc FROM temp.indexedWords WHERE term = 'compost'")
        }
        #expect(holding == count)
    }
}
