import Foundation
import GRDB
import Testing
@testable import FeedCore

/// `v28-contentless-search`: the search index keeps no copy of the text. A v27 store's searches
/// find what they found, and every change to an entry or its full article takes its old words out
/// of the index (SQLite 3.40 removes a contentless row only by the words it was given, so a wrong
/// word would stay behind as a stale match).
@Suite("The contentless search index")
struct ContentlessSearchIndexTests {
    /// A v27 store: an entry with a full article, one with a summary alone, and one stored by a
    /// sync, waiting in the search backlog with a full article saved before it was indexed.
    private static func v27Store() async throws -> FeedStore {
        let path = try await olderGardenStore(upTo: "v27-starred-index") { db in
            try FeedStore.$deferringSearchIndex.withValue(true) {
                try db.execute(sql: """
                    INSERT INTO entries (id, feedId, entryId, title, summary, insertedAt, sortDate)
                        VALUES (3, 1, 'c', 'Rhubarb forcing', 'Under a bucket', '2024-01-03 00:00:00.000', '2024-01-03 00:00:00.000')
                    """)
            }
            try db.execute(sql: """
                INSERT INTO fullArticles (entryId, title, html, pageURL, extractedAt)
                    VALUES (3, 'Rhubarb', '<p>Terracotta pots</p>', 'https://garden.example/rhubarb', '2024-01-03 00:00:00.000')
                """)
        }
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            #expect(try await old.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM searchBacklog") } == 1)
        }
        return try FeedStore(path: path)
    }

    /// Every word the index holds, each with the number of entries holding it.
    private static func indexedWords(_ store: FeedStore) async throws -> [String: Int] {
        try await store.writing { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.indexedWords USING fts5vocab(main, entries_search, row)")
            return try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT term, doc FROM temp.indexedWords").map {
                ($0["term"] as String, $0["doc"] as Int)
            })
        }
    }

    private static func article(_ html: String) -> FullArticle {
        FullArticle(title: "Winter beds", html: html, pageURL: URL(string: "https://garden.example/beds")!)
    }

    @Test func aV27StoreFindsWhatItFoundAndKeepsNoCopyOfTheText() async throws {
        let store = try await Self.v27Store()

        #expect(try await store.appliedMigrations() == FeedStoreLocationTests.allMigrations)
        let tables = try await store.reading { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(!tables.contains("entries_search_content"), "\(tables)")
        #expect(tables.contains("entries_search_docsize"), "kept for the ranking's lengths")
        let searches = gardenSearches + [
            ("terracotta", ["c"], "the backlog's entry with its full article, indexed for the search"),
        ]
        for search in searches {
            #expect(try await store.search(search.query).map(\.entryID).sorted() == search.found, "\(search.what)")
        }
        #expect(try await Self.indexedWords(store)["beds"] == 1)
    }

    @Test func everyChangeTakesItsOldWordsOut() async throws {
        let store = try await Self.v27Store()
        _ = try await store.search("rhubarb")
        let changes: [(what: String, change: @Sendable () async throws -> Void, gone: String, found: (query: String, entries: [String]))] = [
            ("a new title", { try await store.writing { db in try db.execute(sql: "UPDATE entries SET title = 'Spring beds' WHERE id = 1") } },
             "winter", ("spring", ["a"])),
            ("new text", { try await store.writing { db in try db.execute(sql: "UPDATE entries SET content = '<p>Leaf mould</p>' WHERE id = 1") } },
             "cardboard", ("mould earthworms", ["a"])),
            ("the same text again", { try await store.writing { db in try db.execute(sql: "UPDATE entries SET content = content WHERE id = 1") } },
             "cardboard", ("mould", ["a"])),
            ("a full article replaced", { try await store.saveFullArticle(Self.article("<p>Slugs</p>"), forEntry: 1) },
             "earthworms", ("slugs mould", ["a"])),
            ("a full article removed", { try await store.writing { db in try db.execute(sql: "DELETE FROM fullArticles WHERE entryId = 1") } },
             "slugs", ("mould", ["a"])),
            ("a full article added", { try await store.saveFullArticle(Self.article("<p>Hedgehogs</p>"), forEntry: 2) },
             "nothing", ("hedgehogs tomato", ["b"])),
            ("an entry with its full article removed", { try await store.writing { db in try db.execute(sql: "DELETE FROM entries WHERE id = 2") } },
             "hedgehogs", ("rhubarb", ["c"])),
        ]
        for change in changes {
            try await change.change()
            let words = try await Self.indexedWords(store)
            #expect(words[change.gone] == nil, "\(change.what): \(change.gone) left in \(words.keys.sorted())")
            #expect(try await store.search(change.found.query).map(\.entryID) == change.found.entries, "\(change.what)")
        }
        #expect(try await Self.indexedWords(store).values.allSatisfy { $0 == 1 }, "no word counted for an entry twice")

        try await store.removeFeed(id: 1)
        #expect(try await Self.indexedWords(store).isEmpty, "the removed feed's entries leave no word behind")
        let rows = try await store.reading { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries_search_docsize") }
        #expect(rows == 0)
    }
}
