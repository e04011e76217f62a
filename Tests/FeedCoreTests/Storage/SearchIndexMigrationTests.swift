import Foundation
import GRDB
import Testing
@testable import FeedCore

/// A v16 database's search index, made again by `v17-search-index` and later without prefix
/// indexes (`v31-search-words-only`): what its search found, it still finds, and the index keeps
/// following the entries.
@Suite("The search index of a v16 database")
struct SearchIndexMigrationTests {
    /// A v16 database holding a local entry, a synced one and a full article of the first.
    private static func v16Store() async throws -> FeedStore {
        try FeedStore(path: try await olderGardenStore(upTo: "v16-media-positions"))
    }

    @Test func findsWhatItFoundBeforeByWordsAndTheirFirstLetters() async throws {
        let store = try await Self.v16Store()

        #expect(try await store.appliedMigrations() == FeedStoreLocationTests.allMigrations)
        #expect(try await store.search("cardboard").map(\.entryID) == ["a"], "the entry's text")
        #expect(try await store.search("earthworms").map(\.entryID) == ["a"], "its full article's")
        #expect(try await store.search("tomas").map(\.entryID) == ["a"], "the author, without accents")
        #expect(try await store.search("b*").map(\.entryID) == ["a", "b"], "one letter: beds in a title, Bring in a summary")
        #expect(try await store.search("be*").map(\.entryID) == ["a"], "two letters")
        #expect(try await store.search("see").map(\.entryID) == ["b"], "three letters")
        #expect(try await store.search("toma").map(\.entryID).sorted() == ["a", "b"], "Tomás and tomato")
    }

    @Test func keepsFollowingTheEntries() async throws {
        let store = try await Self.v16Store()
        let feed = try await store.addFeed(url: URL(string: "https://b.example/feed")!)
        try await store.apply(fetched([Entry(id: "c", title: "Compost notes", summary: "Turn it weekly")]), toFeed: feed.id)

        #expect(try await store.search("comp").map(\.entryID) == ["c"])
        try await store.removeFeed(id: feed.id)
        #expect(try await store.search("comp").isEmpty)
        #expect(try await store.search("w*").map(\.entryID) == ["a"], "Winter beds, untouched")
    }
}
