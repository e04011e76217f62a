import Foundation
import GRDB
import Testing
@testable import FeedCore

/// The unread counts the store keeps (`feedUnreadCounts`, v26) stay what counting the entries
/// gives, through every way an entry is stored, marked, hidden, removed or a feed goes.
@Suite("Unread counts kept by the store follow every change")
struct UnreadCountTests {
    /// A change to the two feeds' entries, with the unread counts it leaves (first feed, second feed).
    struct Step: CustomStringConvertible, Sendable {
        var description: String
        var change: @Sendable (FeedStore, _ first: Int64, _ second: Int64) async throws -> Void
        var unread: [Int]
    }

    static let steps: [Step] = [
        Step(description: "entries stored by fetches", change: { store, first, second in
            try await store.apply(fetched((1...5).map { Entry(id: "a\($0)", title: "Alpha \($0)") }), toFeed: first)
            try await store.apply(fetched((1...3).map { Entry(id: "b\($0)", title: "Beta \($0)") }), toFeed: second)
        }, unread: [5, 3]),
        Step(description: "the same fetch again adds nothing", change: { store, first, _ in
            try await store.apply(fetched((1...5).map { Entry(id: "a\($0)", title: "Alpha \($0), edited") }), toFeed: first)
        }, unread: [5, 3]),
        Step(description: "one entry read, then read again", change: { store, first, _ in
            let id = try await store.entries(EntryQuery(feedID: first)).first!.id
            try await store.markRead(entryID: id)
            try await store.markRead(entryID: id)
        }, unread: [4, 3]),
        Step(description: "a rule hides the second feed's entries", change: { store, _, _ in
            _ = try await store.addRule(Rule(name: "Beta", conditions: [RuleCondition(.title, .contains, "Beta")], actions: [.hide]))
            _ = try await store.applyRules()
        }, unread: [4, 0]),
        Step(description: "the rule removed shows them again", change: { store, _, _ in
            let rule = try await store.rules().first!
            try await store.removeRule(id: try #require(rule.rule.id))
        }, unread: [4, 3]),
        Step(description: "Mark All as Read on one feed", change: { store, first, _ in
            try await store.markAllRead(feedID: first)
        }, unread: [0, 3]),
        Step(description: "Mark All as Read, then its Undo", change: { store, _, _ in
            let marked = try await store.markAllRead()
            try await store.setRead(false, entryIDs: marked)
        }, unread: [0, 3]),
        // Marking in bulk counts each feed's change once, leaving out the entries a rule hides.
        Step(description: "Mark All as Read while a rule hides the second feed's entries", change: { store, _, _ in
            _ = try await store.addRule(Rule(name: "Beta", conditions: [RuleCondition(.title, .contains, "Beta")], actions: [.hide]))
            _ = try await store.applyRules()
            #expect(try await store.markAllRead().count == 3)
        }, unread: [0, 0]),
        Step(description: "the rule removed shows them read", change: { store, _, _ in
            let rule = try await store.rules().first!
            try await store.removeRule(id: try #require(rule.rule.id))
        }, unread: [0, 0]),
        Step(description: "a folder's Undo, given its entries and one already unread", change: { store, first, second in
            let ids = try await store.entries(EntryQuery(feedID: second)).map(\.id)
            try await store.markRead(entryID: ids[0], isRead: false)
            try await store.setRead(false, entryIDs: ids)
            #expect(try await store.markAllRead(inFeeds: [first, second]).sorted() == ids.sorted())
            try await store.setRead(false, entryIDs: ids)
        }, unread: [0, 3]),
        Step(description: "unread entries removed by the clean-up", change: { store, _, _ in
            try await store.expireEntries(Retention(days: 0, keepsUnread: false, keepsStarred: false), at: Date() + 86400)
        }, unread: [0, 0]),
        Step(description: "new entries after the clean-up", change: { store, first, second in
            try await store.apply(fetched([Entry(id: "a-new", title: "Alpha new")]), toFeed: first)
            try await store.apply(fetched([Entry(id: "b-new", title: "Beta new")]), toFeed: second)
        }, unread: [1, 1]),
        Step(description: "a rule hiding and marking read applied", change: { store, _, _ in
            _ = try await store.addRule(Rule(name: "New", conditions: [RuleCondition(.title, .contains, "new")], actions: [.hide, .markRead]))
            _ = try await store.applyRules()
        }, unread: [0, 0]),
        Step(description: "the rule removed shows them read", change: { store, _, _ in
            try await store.removeRule(id: try #require(try await store.rules().first?.rule.id))
            try await store.setRead(false, entryIDs: try await store.entries().map(\.id))
        }, unread: [1, 1]),
        // An entry hidden again by the first hiding rule in the list: its feed's count stays.
        Step(description: "two rules hide an entry, the later one first, then the earlier", change: { store, _, _ in
            let new = try await store.addRule(Rule(name: "New", conditions: [RuleCondition(.title, .contains, "new")], actions: [.hide]))
            _ = try await store.applyRules()
            let alpha = try await store.addRule(Rule(name: "Alpha", conditions: [RuleCondition(.title, .contains, "alpha")], actions: [.hide]))
            try await store.moveRule(id: try #require(alpha.id), to: 0)
            _ = try await store.applyRules()
            try await store.removeRule(id: try #require(new.id))
        }, unread: [0, 1]),
        // A few marks look each entry's hidden mark up, many read the hidden entries' list: neither counts a hidden one.
        Step(description: "the hidden entry marked read, then unread", change: { store, _, _ in
            let hidden = try #require(try await store.reading { db in try Int64.fetchOne(db, sql: "SELECT id FROM entries WHERE hiddenByRule IS NOT NULL") })
            try await store.markRead(entryID: hidden)
            try await store.markRead(entryID: hidden, isRead: false)
        }, unread: [0, 1]),
        Step(description: "600 new entries, then every entry read and unread again at once", change: { store, first, _ in
            try await store.apply(fetched((1...600).map { Entry(id: "g\($0)", title: "Gamma \($0)") }), toFeed: first)
            let every = try await store.reading { db in try Int64.fetchAll(db, sql: "SELECT id FROM entries") }
            #expect(every.count == 602)
            try await store.setRead(true, entryIDs: every)
            try await store.setRead(false, entryIDs: every)
        }, unread: [600, 1]),
    ]

    @Test("after each step, every feed's kept count is its unread entries' count")
    func countsFollowEveryChange() async throws {
        let store = try FeedStore.inMemory()
        let first = try await store.addFeed(url: URL(string: "https://alpha.example/feed")!).id
        let second = try await store.addFeed(url: URL(string: "https://beta.example/feed")!).id
        for step in Self.steps {
            try await step.change(store, first, second)
            let shown = Dictionary(uniqueKeysWithValues: try await store.feeds().map { ($0.id, $0.unreadCount) })
            #expect([shown[first], shown[second]] == step.unread, "\(step)")
            let (kept, counted) = try await store.reading { db in
                (try Int.fetchAll(db, sql: "SELECT unread FROM feedUnreadCounts ORDER BY feedId"),
                 try Int.fetchAll(db, sql: """
                     SELECT (SELECT COUNT(*) FROM entries WHERE feedId = feeds.id AND id IN (SELECT id FROM unreadEntries) AND hiddenByRule IS NULL)
                     FROM feeds ORDER BY id
                     """))
            }
            #expect(kept == counted, "\(step)")
            #expect(try await store.entryCount(unreadOnly: true) == step.unread.reduce(0, +), "\(step)")
            #expect(try await store.entryCount(feedID: second, unreadOnly: true) == step.unread[1], "\(step)")
        }
        try await store.removeFeed(id: second)
        #expect(try await store.reading { db in try Int.fetchAll(db, sql: "SELECT feedId FROM feedUnreadCounts") } == [Int(first)])
        #expect(try await store.entryCount(unreadOnly: true) == Self.steps.last!.unread[0])
    }

    /// Nothing reads an index of every entry by feed and read mark: the counts are kept, and a
    /// feed's entries are found by its date index; every mark changed had to move its row.
    @Test func noIndexByReadMark() async throws {
        let store = try FeedStore.inMemory()
        let indexes = try await store.reading { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'entries'") }
        #expect(!indexes.contains("entries_by_feed_and_read"), "\(indexes)")
        let plan = try await store.reading { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM entries WHERE feedId = 1 AND \(FeedStore.isUnread)")
                .map { $0["detail"] as String }.joined(separator: " ")
        }
        #expect(plan.contains("entries_by_feed_and_date"), "\(plan)")
    }

    @Test("a store from before keeps the counts its entries give once migrated")
    func migrationCountsTheStoredEntries() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v25-feed-fetch-settings")
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO feeds (id, url, position) VALUES (1, 'https://alpha.example/feed', 0), (2, 'https://beta.example/feed', 1);
                    INSERT INTO entries (feedId, entryId, title, isRead, insertedAt, sortDate) VALUES
                        (1, 'a1', 'One', 0, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000'),
                        (1, 'a2', 'Two', 1, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000'),
                        (2, 'b1', 'Three', 0, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                    """)
            }
        }
        let store = try FeedStore(path: path)
        #expect(try await store.feeds().map(\.unreadCount) == [1, 1])
        #expect(try await store.entryCount(unreadOnly: true) == 2)
    }
}
