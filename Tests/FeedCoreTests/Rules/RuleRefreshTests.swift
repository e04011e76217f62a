import Foundation
import GRDB
import Testing
@testable import FeedCore

/// The rules judge a refresh's new entries from the entries as fetched, noted while they are
/// stored, and their feeds' names read after: each field a rule reads must be what the stored
/// entry gives, and only the entries the refresh added are judged.
@Suite("Rules on a refresh's new entries")
struct RuleRefreshTests {
    let store: FeedStore

    init() throws {
        store = try FeedStore.inMemory()
    }

    /// Each rule labels what it matches with its own name, so an entry's labels say which matched.
    static let rules: [Rule] = [
        Rule(name: "title", conditions: [RuleCondition(.title, .matches, #"\bbreaking\b"#)], actions: [.hide], label: "title"),
        Rule(name: "content", conditions: [RuleCondition(.content, .contains, "promo code")], actions: [], label: "content"),
        Rule(name: "author", conditions: [RuleCondition(.author, .is, "Ann")], actions: [], label: "author"),
        Rule(name: "link", conditions: [RuleCondition(.link, .matches, #"/video/\d+$"#)], actions: [.star], label: "link"),
        Rule(name: "feed", conditions: [RuleCondition(.feed, .is, "Deals")], actions: [.markRead], label: "feed"),
        Rule(name: "address", conditions: [RuleCondition(.feed, .contains, "deals.example")], actions: [], label: "address"),
        Rule(name: "folder", conditions: [RuleCondition(.folder, .is, "Shopping")], actions: [], label: "folder"),
        Rule(name: "account", conditions: [RuleCondition(.account, .contains, "example")], actions: [], label: "account"),
    ]

    @Test func eachFieldIsJudgedAsTheStoredEntryWouldBe() async throws {
        let deals = try await store.addFeed(url: URL(string: "https://deals.example/feed")!)
        let site = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.moveFeed(deals.id, toFolder: try await store.createFolder(named: "Shopping"))
        // Stored before the rules: not judged again when a fetch brings it back, changed.
        try await store.apply(fetched([Entry(id: "old", title: "Gardening")], title: "Site"), toFeed: site.id)
        for rule in Self.rules { try await store.addRule(rule) }

        try await store.apply(fetched([
            Entry(id: "a1", title: "BREAKING: a storm"),
            Entry(id: "a2", summary: "Use the PROMO CODE now"),
            Entry(id: "a3", summary: "promo code", content: "<p>The content is what rules read</p>"),
            Entry(id: "a4", author: "ann"),
            Entry(id: "a5", link: URL(string: "https://site.example/Video/12")),
            Entry(id: "a6", link: URL(string: "https://site.example/video/12/comments")),
            // Twice in one fetch: stored once, with the texts listed first, which the rules judge.
            Entry(id: "twice", title: "Breaking twice"),
            Entry(id: "twice", title: "Calm"),
            Entry(id: "old", title: "Breaking gardening news"),
        ], title: "Site"), toFeed: site.id)
        // The feed's title is the one this fetch brings.
        try await store.apply(fetched([Entry(id: "d1", title: "A sale")], title: "Deals"), toFeed: deals.id)

        let entries = try await store.entries(EntryQuery(includesHidden: true, limit: 100))
        let names = try await store.labelNames(ofEntries: entries.map(\.id))
        let labels = Dictionary(uniqueKeysWithValues: entries.map { ($0.entryID, Set(names[$0.id] ?? [])) })
        #expect(labels == ["a1": ["title"], "a2": ["content"], "a3": [], "a4": ["author"], "a5": ["link"], "a6": [], "twice": ["title"],
                           "old": [], "d1": ["feed", "address", "folder"]])
        let byID = Dictionary(uniqueKeysWithValues: entries.map { ($0.entryID, $0) })
        #expect(Set(entries.filter { $0.hiddenByRule != nil }.map(\.entryID)) == ["a1", "twice"])
        #expect(byID["twice"]?.title == "Breaking twice")
        #expect(byID["old"]?.title == "Breaking gardening news" && byID["old"]?.hiddenByRule == nil)
        #expect(entries.filter(\.isStarred).map(\.entryID) == ["a5"])
        #expect(entries.filter(\.isRead).map(\.entryID) == ["d1"])
        // Hidden and read as they were inserted: neither counts as unread.
        let unread = Dictionary(uniqueKeysWithValues: try await store.feeds().map { ($0.id, $0.unreadCount) })
        #expect(unread == [site.id: 6, deals.id: 0])
        #expect(try await store.entryCount(unreadOnly: true) == 6)
    }

    /// A feed whose savepoint is rolled back takes its new entries with it, and their ids are given
    /// to the next feed's: what the rules said of the first must not land on the second.
    @Test func aFeedRolledBackInABatchLeavesNoVerdictBehind() async throws {
        let bad = try await store.addFeed(url: URL(string: "https://bad.example/feed")!)
        let good = try await store.addFeed(url: URL(string: "https://good.example/feed")!)
        try await store.addRule(Rule(name: "r", conditions: [RuleCondition(.title, .word, "lighthouse")], actions: [.hide]))
        try await store.database.write { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER fail_midway BEFORE INSERT ON entries WHEN NEW.entryId = 'poison'
                BEGIN SELECT RAISE(ABORT, 'simulated failure'); END
                """)
        }

        let saved = try await store.apply([
            (fetched([Entry(id: "poison", title: "Poison"), Entry(id: "2", title: "Lighthouse keeper")]), bad.id),
            (fetched([Entry(id: "1", title: "Harbour lights")]), good.id),
        ])

        #expect(throws: (any Error).self) { try saved[0].get() }
        #expect(try saved[1].get() == ApplySummary(newEntries: 1, updatedEntries: 0, announcedEntries: 1))
        let entries = try await store.entries(EntryQuery(includesHidden: true, limit: 10))
        #expect(entries.map(\.title) == ["Harbour lights"])
        #expect(entries.first?.hiddenByRule == nil)
    }
}
