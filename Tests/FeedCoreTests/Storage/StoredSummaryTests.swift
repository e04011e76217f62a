import Foundation
import GRDB
import Testing
@testable import FeedCore

/// A plain summary that is the text of the HTML summary beside it is kept once, as HTML, and
/// made again when read: the list, the whole entry, rules and search see what they saw.
@Suite("Summaries kept once")
struct StoredSummaryTests {
    let store: FeedStore
    let feedID: Int64

    init() async throws {
        store = try FeedStore.inMemory()
        feedID = try await store.addFeed(url: URL(string: "https://a.example/feed")!).id
    }

    /// The `summary` column of each stored entry, by entry id.
    private func storedSummaries() async throws -> [String: String?] {
        try await store.reading { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT entryId, summary FROM entries").map {
                ($0["entryId"] as String, $0["summary"] as String?)
            })
        }
    }

    static let entries = [
        Entry(id: "derived", title: "Soil", summary: "Mulch & compost in autumn", summaryHTML: "<p>Mulch &amp; <b>compost</b> in autumn</p>"),
        Entry(id: "own", title: "Own", summary: "A summary of its own", summaryHTML: "<p>The HTML says more</p>"),
        Entry(id: "htmlOnly", title: "Picture", summaryHTML: "<p>Words in HTML alone</p>"),
        Entry(id: "plainOnly", title: "Plain", summary: "Plain text alone"),
        Entry(id: "none", title: "Nothing"),
    ]

    @Test func aSummaryThatIsItsHTMLsTextIsKeptOnceAndReadWhole() async throws {
        try await store.apply(fetched(Self.entries), toFeed: feedID)

        #expect(try await storedSummaries() == ["derived": nil, "own": "A summary of its own", "htmlOnly": "",
                                                "plainOnly": "Plain text alone", "none": nil])
        let expected: [String: String?] = ["derived": "Mulch & compost in autumn", "own": "A summary of its own", "htmlOnly": nil,
                                           "plainOnly": "Plain text alone", "none": nil]
        for fields in [EntryFields.all, .listing] {
            let read = try await store.entries(EntryQuery(fields: fields))
            #expect(Dictionary(uniqueKeysWithValues: read.map { ($0.entryID, $0.summary) }) == expected, "\(fields)")
        }
        let derived = try #require(try await store.entries().first { $0.entryID == "derived" })
        #expect(try await store.entry(id: derived.id)?.summary == "Mulch & compost in autumn")
    }

    @Test func aListingReadsTheFirstCharactersOnly() async throws {
        let words = String(repeating: "compost ", count: 100)
        try await store.apply(fetched([Entry(id: "long", summary: words.trimmingCharacters(in: .whitespaces),
                                             summaryHTML: "<p>\(words)</p>")]), toFeed: feedID)

        #expect(try await storedSummaries() == ["long": nil])
        let listed = try #require(try await store.entries(EntryQuery(fields: .listing)).first)
        #expect(listed.summary == String(words.prefix(EntryFields.listingSummaryLength)))
    }

    @Test func fetchedAgainUnchangedItIsNotAnUpdate() async throws {
        try await store.apply(fetched(Self.entries), toFeed: feedID)
        let again = try await store.apply(fetched(Self.entries), toFeed: feedID)

        #expect(again.updatedEntries == 0 && again.newEntries == 0)
    }

    /// A row stored before keeps its summary; fetched again, it is kept once and reads the same.
    @Test func aRowStoredBeforeReadsTheSameAndShrinksWhenFetchedAgain() async throws {
        try await store.apply(fetched([Self.entries[0]]), toFeed: feedID)
        try await store.writing { db in try db.execute(sql: "UPDATE entries SET summary = 'Mulch & compost in autumn'") }
        #expect(try await store.entries().first?.summary == "Mulch & compost in autumn")

        let again = try await store.apply(fetched([Self.entries[0]]), toFeed: feedID)

        #expect(again.updatedEntries == 1)
        #expect(try await storedSummaries() == ["derived": nil])
        #expect(try await store.entries().first?.summary == "Mulch & compost in autumn")
        #expect(try await store.search("compost").map(\.entryID) == ["derived"])
    }

    @Test func rulesAndSearchReadTheSummaryMadeAgain() async throws {
        try await store.apply(fetched(Self.entries), toFeed: feedID)

        let rule = Rule(name: "Compost", conditions: [RuleCondition(.content, .contains, "& compost")], actions: [.hide])
        #expect(try await store.matchCount(of: rule) == 1)
        #expect(try await store.search("mulch").map(\.entryID) == ["derived"])
        #expect(try await store.search("alone").map(\.entryID).sorted() == ["htmlOnly", "plainOnly"])
    }
}
