import Foundation
import GRDB
import TestSupport
import Testing
@testable import FeedCore

@Suite("Retention: old entries go, unread and starred ones stay unless told, the file shrinks", .serialized)
struct RetentionTests {
    /// One entry per combination of age, read and starred, stored `age` days ago and published then.
    private static let entries: [(id: String, age: Double, read: Bool, starred: Bool)] = [
        ("fresh-read", 10, true, false),
        ("old-read", 100, true, false),
        ("old-unread", 100, false, false),
        ("old-starred", 100, true, true),
        ("old-unread-starred", 100, false, true),
    ]

    @Test("which entries a policy keeps", arguments: [
        (Retention(), ["fresh-read", "old-unread", "old-starred", "old-unread-starred"]),
        (Retention(days: 90, keepsUnread: false), ["fresh-read", "old-starred", "old-unread-starred"]),
        (Retention(days: 90, keepsStarred: false), ["fresh-read", "old-unread", "old-unread-starred"]),
        (Retention(days: 90, keepsUnread: false, keepsStarred: false), ["fresh-read"]),
        (Retention(days: 7, keepsUnread: false, keepsStarred: false), []),
        (Retention(days: nil, keepsUnread: false, keepsStarred: false), ["fresh-read", "old-read", "old-unread", "old-starred", "old-unread-starred"]),
    ] as [(Retention, [String])])
    func policyKeeps(retention: Retention, kept: [String]) async throws {
        let (store, now) = try await Self.storeWithEntries()
        let removed = try await store.expireEntries(retention, at: now)
        let remaining = try await store.entries().map(\.entryID).sorted()
        #expect(remaining == kept.sorted())
        #expect(removed == Self.entries.count - kept.count)
    }

    @Test("an entry published long ago but stored today stays until it has been stored as long")
    func newlyStoredOldEntriesStay() async throws {
        let store = try FeedStore.inMemory()
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let now = utc("2026-06-01T00:00:00Z")
        try await store.apply(fetched([Entry(id: "archive", title: "Old post", published: now - 400 * 86400)]), toFeed: feed.id, at: now)
        try await store.markAllRead()
        #expect(try await store.expireEntries(Retention(), at: now + 89 * 86400) == 0)
        #expect(try await store.expireEntries(Retention(), at: now + 91 * 86400) == 1)
    }

    @Test("a removed entry the feed still lists does not come back as new")
    func expiredEntriesStayGone() async throws {
        let (store, now) = try await Self.storeWithEntries()
        try await store.expireEntries(Retention(days: 90, keepsUnread: false, keepsStarred: false), at: now)
        let feedID = try #require(try await store.feeds().first?.id)
        let again = try await store.apply(fetched(Self.entries.map { Entry(id: $0.id, title: $0.id) } + [Entry(id: "brand-new", title: "New")]),
                                          toFeed: feedID, at: now)
        #expect(again.newEntries == 1, "only the entry never seen before is new")
        #expect(try await store.entries().map(\.entryID).sorted() == ["brand-new", "fresh-read"])
    }

    @Test("a new database vacuums incrementally; compacting after a cleanup frees its pages and shrinks the file")
    func compactionShrinksTheFile() async throws {
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
        #expect(try await store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 2)
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let start = utc("2026-01-01T00:00:00Z")
        let text = String(repeating: "Retention keeps the database small. ", count: 60)
        try await store.apply(fetched((0..<1500).map { Entry(id: "e\($0)", title: "Entry \($0)", content: text) }), toFeed: feed.id, at: start)
        try await store.markAllRead()
        let before = try await Self.pages(store)

        #expect(try await store.expireEntries(Retention(days: 30), at: start + 31 * 86400) == 1500)
        #expect(try await Self.pages(store).free > before.total / 2, "the deleted entries' pages are free, not yet returned")
        try await store.compact()
        let after = try await Self.pages(store)
        #expect(after.free == 0)
        #expect(after.total < before.total / 2, "pages \(before.total) -> \(after.total)")
    }

    @Test("a database made before incremental vacuum switches to it at its first compaction")
    func olderDatabaseSwitches() async throws {
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("feeds.sqlite").path
        let old = try DatabaseQueue(path: path)
        try await old.write { db in try db.execute(sql: "CREATE TABLE leftover (x)") }
        try old.close()
        let store = try FeedStore(path: path)
        #expect(try await store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 0)
        try await store.compact()
        #expect(try await store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 2)
    }

    @Test("the library's cleanup removes by its own clock")
    func libraryCleanUp() async throws {
        let clock = ManualClock(utc("2026-01-01T00:00:00Z"))
        let library = FeedLibrary(store: try FeedStore.inMemory(), now: clock.reader)
        let feed = try await library.store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await library.store.apply(fetched([Entry(id: "a", title: "A")]), toFeed: feed.id, at: clock.now)
        try await library.store.markAllRead()
        clock.advance(by: 89 * 86400)
        #expect(try await library.cleanUp(Retention()) == 0)
        clock.advance(by: 2 * 86400)
        #expect(try await library.cleanUp(Retention()) == 1)
    }

    /// A store holding `entries`, each stored and published its age in days before the returned now.
    private static func storeWithEntries() async throws -> (FeedStore, Date) {
        let store = try FeedStore.inMemory()
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let now = utc("2026-06-01T00:00:00Z")
        for entry in entries {
            let date = now - entry.age * 86400
            try await store.apply(fetched([Entry(id: entry.id, title: entry.id, published: date)]), toFeed: feed.id, at: date)
        }
        for stored in try await store.entries() {
            let entry = try #require(entries.first { $0.id == stored.entryID })
            try await store.markRead(entryID: stored.id, isRead: entry.read)
            try await store.setStarred(entryID: stored.id, isStarred: entry.starred)
        }
        return (store, now)
    }

    private static func pages(_ store: FeedStore) async throws -> (total: Int, free: Int) {
        try await store.database.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0, try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
        }
    }
}
