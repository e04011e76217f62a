import Foundation
import Testing
@testable import FeedCore
import class TestSupport.SQLiteLockHolder

/// GNOME Shell's search reads the index on a read-only connection of its own: the best results,
/// and nothing, quickly, from a database it cannot read.
@Suite("GNOME Shell's search of the index")
struct ShellSearchTests {
    let folder: URL
    let path: String

    init() throws {
        folder = try temporaryDirectory()
        path = folder.appendingPathComponent("feeds.sqlite").path
    }

    /// A store with `entries` in the feed "Garden" and one in a feed with no title; its id by entry id.
    @discardableResult
    private func store(_ entries: [Entry]) async throws -> (FeedStore, [String: Int64]) {
        let store = try FeedStore(path: path)
        let feed = try await store.addFeed(url: URL(string: "https://garden.example/feed")!)
        try await store.apply(fetched(entries, title: "Garden"), toFeed: feed.id)
        let stored = try await store.entries(EntryQuery(feedID: feed.id, limit: 100))
        return (store, Dictionary(uniqueKeysWithValues: stored.map { ($0.entryID, $0.id) }))
    }

    @Test func theBestFiveComeFirstWithTheirFeedAndDate() async throws {
        let published = utc("2024-05-01T10:00:00Z")
        var entries = (1...8).map { Entry(id: "body\($0)", title: "Notes \($0)", summary: "tomatoes") }
        entries.append(Entry(id: "title", title: "Tomatoes in May", published: published))
        entries.append(Entry(id: "other", title: "Beans"))
        let (_, ids) = try await store(entries)

        let hits = ShellSearch(databasePath: path).hits(for: "tomat")

        #expect(hits.count == 5)
        #expect(hits.first?.id == ids["title"], "the title's match ranks first")
        #expect(hits.first?.title == "Tomatoes in May")
        #expect(hits.first?.feedTitle == "Garden")
        #expect(hits.first?.feedURL == URL(string: "https://garden.example/feed"))
        #expect(hits.first?.date == published)
        #expect(!hits.contains { $0.id == ids["other"] })
    }

    /// The words typed are matched as in the window: one or two letters as that word alone, where
    /// reading every match of the words they begin would keep the Shell waiting; three as the
    /// words they begin.
    @Test func prefixesAreTheWordsTheyBegin() async throws {
        let many = (1...FeedStore.prefixExpansionLimit + 1).map { "Be\($0)" }.joined(separator: " ")
        let (_, ids) = try await store([Entry(id: "many", title: many), Entry(id: "be", title: "Let it be"),
                                        Entry(id: "beans", title: "Beans")])

        #expect(ShellSearch(databasePath: path).hits(for: "be").map(\.id) == [ids["be"]])
        #expect(ShellSearch(databasePath: path).hits(for: "bea").map(\.id) == [ids["beans"]])
    }

    @Test func resultsAreReadByIdInTheOrderAsked() async throws {
        let (_, ids) = try await store([Entry(id: "a", title: "Apples"), Entry(id: "b", title: "Pears")])
        let asked: [Int64] = [try #require(ids["b"]), 987_654, try #require(ids["a"])]

        #expect(ShellSearch(databasePath: path).hits(ids: asked).map(\.title) == ["Pears", "Apples"], "an id no longer stored is left out")
    }

    /// The window writing (a refresh, a sync) holds the write lock: the search, which takes no
    /// write lock, answers meanwhile.
    @Test func itAnswersWhileAnotherProgramHoldsTheWriteLock() async throws {
        try await store([Entry(id: "a", title: "Tomatoes")])
        let holder = try SQLiteLockHolder(path: path)
        defer { holder.release() }

        #expect(ShellSearch(databasePath: path).hits(for: "tomatoes").map(\.title) == ["Tomatoes"])
    }

    @Test(arguments: [StoreHealingTests.Fault.garbageFirstPage, .truncated])
    func aDamagedDatabaseAnswersNothing(_ fault: StoreHealingTests.Fault) async throws {
        let url = try await StoreHealingTests.closedStore(in: folder)
        #expect(!ShellSearch(databasePath: url.path).hits(for: "entry").isEmpty)

        try StoreHealingTests.damage(url, by: fault)

        #expect(ShellSearch(databasePath: url.path).hits(for: "entry").isEmpty)
        #expect(ShellSearch(databasePath: url.path).hits(ids: [1, 2]).isEmpty)
    }

    @Test func aMissingDatabaseAnswersNothingAndIsNotMade() {
        #expect(ShellSearch(databasePath: path).hits(for: "entry").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A program keeping every lock (SQLite's exclusive locking mode) lets no reader in: the
    /// search gives up after its short wait instead of keeping the Shell waiting.
    @Test func aDatabaseLockedEvenToReadersAnswersNothingAtOnce() async throws {
        try await store([Entry(id: "a", title: "Tomatoes")])
        let holder = try SQLiteLockHolder(path: path, exclusive: true)
        defer { holder.release() }
        let started = ContinuousClock.now

        #expect(ShellSearch(databasePath: path).hits(for: "tomatoes").isEmpty)
        // Half the store's own busy timeout (10 s): a bound that a loaded machine does not reach.
        #expect(ContinuousClock.now - started < .seconds(5), "it waited only its short busy timeout")
    }
}
