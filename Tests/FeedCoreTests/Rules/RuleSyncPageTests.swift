import Foundation
import GRDB
import TestSupport
import Testing
@testable import FeedCore

/// The rules judge a sync's page from the articles as fetched, before they are stored, and act on
/// the entries stored: each field a rule reads must be what the stored entry would give it.
@Suite("Rules on a sync's page")
struct RuleSyncPageTests {
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
        Rule(name: "feed", conditions: [RuleCondition(.feed, .is, "Deals")], actions: [], label: "feed"),
        Rule(name: "address", conditions: [RuleCondition(.feed, .contains, "deals.example")], actions: [], label: "address"),
        Rule(name: "folder", conditions: [RuleCondition(.folder, .is, "Shopping")], actions: [], label: "folder"),
        Rule(name: "account", conditions: [RuleCondition(.account, .is, "ann"), RuleCondition(.title, .word, "hello")], actions: [.markRead],
             label: "account"),
    ]

    private static func article(_ id: String, feed: String = "4", title: String = "plain", link: String? = nil, author: String? = nil,
                                content: String? = nil) -> RemoteArticle {
        RemoteArticle(id: id, feedID: feed, title: title, link: link.flatMap(URL.init(string:)), author: author, published: nil, updated: nil,
                      content: content, isRead: false, isStarred: false)
    }

    @Test func eachFieldIsJudgedAsTheStoredEntryWouldBe() async throws {
        let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [RemoteCategory(id: "c1", title: "Shopping")],
            feeds: [RemoteFeed(id: "3", url: URL(string: "https://deals.example/feed")!, title: "Deals", categoryID: "c1"),
                    RemoteFeed(id: "4", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: nil)]),
            accountID: account.id)
        // Stored before the rules: not judged again when a page brings it back.
        _ = try await store.storeArticles([Self.article("old", title: "Breaking old news")], accountID: account.id, cursor: nil)
        for rule in Self.rules { try await store.addRule(rule) }

        let page = [
            Self.article("a1", title: "BREAKING: a storm"),
            Self.article("a2", content: "<p>Use the PROMO CODE now</p>"),
            Self.article("a3", author: "ann"),
            Self.article("a4", link: "https://site.example/Video/12"),
            Self.article("a5", feed: "3"),
            Self.article("a6", title: "Hello there"),
            Self.article("a7", feed: "99", title: "Breaking, in a feed not here"),
            Self.article("a8", link: "https://site.example/video/12/comments"),
            Self.article("old", title: "Breaking old news"),
            // Twice in one page: one entry, labelled and queued once.
            Self.article("a1", title: "BREAKING: a storm"),
        ]
        let stored = try await store.storeArticles(page, accountID: account.id, cursor: nil)

        #expect(stored == 7, "a1 to a6 and a8: not the one stored before, the one of a feed not here, nor a1 again")
        let entries = try await store.entries(EntryQuery(includesHidden: true, limit: 100))
        let names = try await store.labelNames(ofEntries: entries.map(\.id))
        let labels = Dictionary(uniqueKeysWithValues: entries.map { ($0.entryID, Set(names[$0.id] ?? [])) })
        #expect(labels == ["a1": ["title"], "a2": ["content"], "a3": ["author"], "a4": ["link"], "a5": ["feed", "address", "folder"],
                           "a6": ["account"], "a8": [], "old": []])
        let byID = Dictionary(uniqueKeysWithValues: entries.map { ($0.entryID, $0) })
        #expect(entries.filter { $0.hiddenByRule != nil }.map(\.entryID) == ["a1"])
        #expect(byID["a4"]?.isStarred == true && byID["a6"]?.isRead == true)
        let queued = try await store.queuedChanges(accountID: account.id).map { "\($0.action.rawValue) \($0.remoteID ?? "-") \($0.argument ?? "")" }
        #expect(queued.sorted() == ["label a1 title", "label a2 content", "label a3 author", "label a4 link", "label a5 address",
                                    "label a5 feed", "label a5 folder", "label a6 account", "read a6 ", "star a4 "])
    }

    /// The rules are compiled once and kept while nothing says they changed: a rule another
    /// process changes (here a connection of its own, which this process's count of rule writes
    /// does not see) applies from the next page on.
    @Test func aRuleChangedByAnotherProcessAppliesToTheNextPage() async throws {
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("feeds.sqlite").path
        let store = try FeedStore(path: path)
        let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [], feeds: [RemoteFeed(id: "4", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: nil)]),
            accountID: account.id)
        let rule = try await store.addRule(Rule(name: "r", conditions: [RuleCondition(.title, .contains, "alpha")], actions: [.hide]))
        _ = try await store.storeArticles([Self.article("1", title: "alpha"), Self.article("2", title: "beta")], accountID: account.id, cursor: nil)

        var changed = rule
        changed.id = nil
        changed.conditions = [RuleCondition(.title, .contains, "beta")]
        let definition = String(decoding: try JSONEncoder().encode(changed), as: UTF8.self)
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE rules SET definition = ? WHERE id = ?", arguments: [definition, rule.id])
        }
        _ = try await store.storeArticles([Self.article("3", title: "alpha"), Self.article("4", title: "beta")], accountID: account.id, cursor: nil)

        let hidden = try await store.entries(EntryQuery(includesHidden: true, limit: 10)).filter { $0.hiddenByRule != nil }.map(\.entryID)
        #expect(hidden.sorted() == ["1", "4"])
    }

    @Test func aRuleThatGivesUpOnAnArticleSaysSoOnlyWhenItWasStored() async throws {
        let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [], feeds: [RemoteFeed(id: "4", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: nil)]),
            accountID: account.id)
        // Passes validation's probes, but runs away on a long run of x.
        let rule = try await store.addRule(Rule(name: "r", conditions: [RuleCondition(.title, .matches, "^(x+x+)+[yz]$")], actions: [.hide]))
        let runaway = String(repeating: "x", count: 3_000)

        _ = try await store.storeArticles([Self.article("1", feed: "99", title: runaway)], accountID: account.id, cursor: nil)
        #expect(try await store.rules().first?.problem == nil, "an article of a feed not here is not stored, nor judged")

        _ = try await store.storeArticles([Self.article("2", title: runaway)], accountID: account.id, cursor: nil)
        #expect(try await store.rules().first { $0.rule.id == rule.id }?.problem?.code == .rulePatternTooComplex)
        #expect(try await store.entryCount() == 1, "an entry a rule gave up on is shown")
    }
}
