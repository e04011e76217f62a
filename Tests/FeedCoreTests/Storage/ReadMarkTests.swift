import Foundation
import GRDB
import Testing
@testable import FeedCore

/// The read marks kept apart from the entries' rows (`unreadEntries`, v30): every Mark All as
/// Read and its Undo change exactly the marks they say and write no entry's row, and a store
/// from before keeps every mark.
@Suite("Read marks in their own table")
struct ReadMarkTests {
    /// A marking the window offers, given the store and its two feeds; returns the ids it changed.
    struct Marking: CustomStringConvertible, Sendable {
        var description: String
        var mark: @Sendable (FeedStore, _ first: Int64, _ second: Int64) async throws -> [Int64]
    }

    static let markings: [Marking] = [
        Marking(description: "Mark All as Read") { store, _, _ in try await store.markAllRead() },
        Marking(description: "one feed's") { store, first, _ in try await store.markAllRead(feedID: first) },
        Marking(description: "a folder's feeds'") { store, first, second in try await store.markAllRead(inFeeds: [first, second]) },
        Marking(description: "Starred's") { store, _, _ in try await store.markAllRead(inFeeds: nil) },
        Marking(description: "the entries selected") { store, first, _ in
            try await store.markRead(entryIDs: try await store.entries(EntryQuery(feedID: first)).map(\.id).filter { $0 % 2 == 0 })
        },
    ]

    /// Two feeds of five entries each: every third read, every other starred, one hidden by a rule.
    static func store() async throws -> (store: FeedStore, first: Int64, second: Int64) {
        let store = try FeedStore.inMemory()
        let first = try await store.addFeed(url: URL(string: "https://alpha.example/feed")!).id
        let second = try await store.addFeed(url: URL(string: "https://beta.example/feed")!).id
        try await store.apply(fetched((1...5).map { Entry(id: "a\($0)", title: "Alpha \($0)") }), toFeed: first)
        try await store.apply(fetched((1...5).map { Entry(id: "b\($0)", title: "Beta \($0)") }), toFeed: second)
        let ids = try await store.entries(EntryQuery(limit: 100)).map(\.id)
        for id in ids where id % 3 == 0 { try await store.markRead(entryID: id) }
        try await store.setStarred(true, entryIDs: ids.filter { $0 % 2 == 1 })
        _ = try await store.addRule(Rule(name: "Hide", conditions: [RuleCondition(.title, .contains, "Beta 2")], actions: [.hide]))
        _ = try await store.applyRules()
        return (store, first, second)
    }

    /// Every entry's read mark, the hidden one's too, and each feed's unread count.
    struct Marks: Equatable {
        var read: [Int64: Bool]
        var unreadCounts: [Int]
    }

    static func marks(of store: FeedStore) async throws -> Marks {
        let entries = try await store.entries(EntryQuery(includesHidden: true, limit: 100_000))
        return Marks(read: Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0.isRead) }),
                     unreadCounts: try await store.feeds().map(\.unreadCount))
    }

    @Test("the Undo puts back exactly the marks the marking changed", arguments: markings)
    func undoPutsBackExactlyWhatChanged(_ marking: Marking) async throws {
        let (store, first, second) = try await Self.store()
        let before = try await Self.marks(of: store)
        let changed = try await marking.mark(store, first, second)
        let marked = try await Self.marks(of: store)
        let madeRead = Set(before.read.filter { !$0.value && marked.read[$0.key] == true }.keys)
        #expect(!madeRead.isEmpty, "\(marking) marked some entries")
        #expect(Set(changed) == madeRead, "\(marking) returns the ids it marked, none already read")
        let unmarked = before.read.filter { $0.value && marked.read[$0.key] != true }
        #expect(unmarked.isEmpty, "\(marking) unmarked nothing")

        try await store.setRead(false, entryIDs: changed)
        #expect(try await Self.marks(of: store) == before, "\(marking), undone")
    }

    /// Before v30 each marking rewrote the entries' rows, summaries and all; a trigger of this
    /// connection refuses any write of one.
    @Test("a marking and its Undo write no entry's row", arguments: markings)
    func markingWritesNoEntryRow(_ marking: Marking) async throws {
        let (store, first, second) = try await Self.store()
        try await store.writing { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER entries_written BEFORE UPDATE ON main.entries BEGIN SELECT RAISE(ABORT, 'an entry row was written'); END
                """)
        }
        let changed = try await marking.mark(store, first, second)
        try await store.setRead(false, entryIDs: changed)
        try await store.markRead(entryID: changed[0])
        try await store.markRead(entryID: changed[0], isRead: false)
    }

    /// An Undo of more than 10,000 entries is matched against the feeds' index in one pass
    /// rather than looked up entry by entry; an id no longer stored is skipped, one given twice or
    /// out of order changes once, one marked unread since is left so, with ids close together
    /// (found by a table) or an unknown one far off (found by halving).
    @Test(arguments: [Int64(1), 1 << 40])
    func aLargeUndoPutsBackExactlyWhatChanged(unknownIDAfterTheLast offset: Int64) async throws {
        let store = try FeedStore.inMemory()
        for (index, address) in ["https://alpha.example/feed", "https://beta.example/feed"].enumerated() {
            let feed = try await store.addFeed(url: URL(string: address)!).id
            try await store.apply(fetched((0..<6_000).map { Entry(id: "e\($0)", title: "Entry \(index)-\($0)") }), toFeed: feed)
        }
        let ids = try await store.reading { db in try Int64.fetchAll(db, sql: "SELECT id FROM entries ORDER BY id") }
        _ = try await store.markRead(entryIDs: ids.filter { $0 % 7 == 0 })
        _ = try await store.addRule(Rule(name: "Hide", conditions: [RuleCondition(.title, .contains, "Entry 1-5")], actions: [.hide]))
        _ = try await store.applyRules()
        let before = try await Self.marks(of: store)
        try await store.writing { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER entries_written BEFORE UPDATE ON main.entries BEGIN SELECT RAISE(ABORT, 'an entry row was written'); END
                """)
        }

        let changed = try await store.markAllRead()
        #expect(changed.count == ids.filter { $0 % 7 != 0 }.count)
        #expect(try await store.feeds().map(\.unreadCount) == [0, 0])
        try await store.markRead(entryID: changed[5], isRead: false)
        try await store.setRead(false, entryIDs: changed.reversed() + [ids.last! + offset] + changed.prefix(10))
        #expect(try await Self.marks(of: store) == before)
    }

    @Test func aRemovedFeedPutBackKeepsItsReadMarks() async throws {
        let (store, first, _) = try await Self.store()
        let before = try await Self.marks(of: store)
        try await store.restore(try await store.removeFeedKeepingCopy(id: first))
        #expect(try await Self.marks(of: store) == before)
    }

    @Test("a store from before keeps every read mark and count once migrated")
    func migrationKeepsEveryReadMark() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        // (feed, entry, read, hidden by a rule)
        let stored: [(Int64, String, Bool, Bool)] = [
            (1, "a1", false, false), (1, "a2", true, false), (1, "a3", false, true), (1, "a4", true, true),
            (2, "b1", true, false), (2, "b2", false, false), (2, "b3", false, false),
        ]
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v29-bulk-read-marks")
            try await old.write { db in
                try db.execute(sql: "INSERT INTO feeds (id, url, position) VALUES (1, 'https://alpha.example/feed', 0), (2, 'https://beta.example/feed', 1)")
                for (feed, entry, isRead, hidden) in stored {
                    try db.execute(sql: """
                        INSERT INTO entries (feedId, entryId, title, isRead, hiddenByRule, insertedAt, sortDate)
                        VALUES (?, ?, ?, ?, ?, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')
                        """, arguments: [feed, entry, entry, isRead, hidden ? 7 : nil])
                }
            }
        }
        let store = try FeedStore(path: path)
        let entries = try await store.entries(EntryQuery(includesHidden: true, limit: 100))
        #expect(Dictionary(uniqueKeysWithValues: entries.map { ($0.entryID, $0.isRead) })
            == Dictionary(uniqueKeysWithValues: stored.map { ($0.1, $0.2) }))
        #expect(try await store.feeds().map(\.unreadCount) == [1, 2])
        #expect(try await store.entryCount(unreadOnly: true, includingHidden: true) == 4)
        // The marks are the table's now: a change shows whatever the old column held.
        let read = try #require(entries.first { $0.entryID == "b1" })
        try await store.markRead(entryID: read.id, isRead: false)
        #expect(try await store.entry(id: read.id)?.isRead == false)
        #expect(try await store.feeds().map(\.unreadCount) == [1, 3])
    }
}
