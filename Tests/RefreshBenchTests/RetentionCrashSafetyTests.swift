import Foundation
import GRDB
import TestSupport
import Testing
@testable import FeedCore

/// Pruning killed with SIGKILL while it removes entries or gives their space back leaves a whole
/// database: every entry that should stay (starred, unread, recent) is there, the old read ones
/// are all there or all gone, and a pruning run to its end then removes them and shrinks the file.
///
/// The pruning runs in a child process: `StorePruner`, built beside this bundle.
@Suite(.serialized) struct RetentionCrashSafetyTests {
    static let feeds = 8
    static let oldPerFeed = 2_000
    static let recentPerFeed = 50

    /// What a store holds of each kind of entry.
    struct Counts: Equatable {
        var staying = 0
        var oldRead = 0
    }

    @Test(.timeLimit(.minutes(5)))
    func pruningKilledMidwayLosesNothingThatShouldStay() async throws {
        let program = RefreshBenchQuickTests.binaryFolder.appendingPathComponent("StorePruner")
        try #require(FileManager.default.isExecutableFile(atPath: program.path), "no StorePruner at \(program.path)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path]).path
        let before = try await Self.makeStore(at: path)
        let sizeBefore = try Self.fileSize(path)

        // Killed at different depths of the work: as soon as it writes, and further on.
        for walBytes in [1 << 16, 1 << 20, 4 << 20] {
            let child = try Subprocess(program.path, [folder.path, "30"])
            // The store is open and the pruning starts once the child says so.
            let deadline = Date() + 60
            #expect(child.waitForFirstLine(timeout: 60).hasPrefix("pruning"))
            let wal = path + "-wal"
            while !child.hasEnded, Date() < deadline, (try? Self.fileSize(wal)) ?? 0 < walBytes {
                usleep(500)
            }
            kill(child.pid, SIGKILL)
            #expect(child.wait().status == 128 + SIGKILL, "the pruning ended before it could be killed (WAL past \(walBytes) bytes)")

            #expect(DatabaseFileCheck.check(path: path) == nil, "the page check finds the file whole")
            let counts = try await Self.counts(at: path)
            #expect(counts.staying == before.staying, "nothing that should stay is lost (killed past \(walBytes) WAL bytes)")
            #expect(counts.oldRead == before.oldRead || counts.oldRead == 0, "removed all at once or not at all: \(counts.oldRead)")
        }

        #expect(try Subprocess(program.path, [folder.path, "30"]).wait().status == 0)
        let after = try await Self.counts(at: path)
        #expect(after == Counts(staying: before.staying, oldRead: 0))
        let store = try FeedStore(path: path)
        // Opening the store again may free a page of its own; the pruned entries' thousands went back.
        let (free, total) = try await store.database.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? -1, try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0)
        }
        #expect((0...total / 100).contains(free), "the space went back: \(free) of \(total) pages free")
        try await store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let sizeAfter = try Self.fileSize(path)
        #expect(sizeAfter < sizeBefore / 2, "the file shrank: \(sizeBefore) -> \(sizeAfter)")
    }

    /// A store of `feeds` feeds, each with old entries (read, starred or unread) stored 200 days
    /// ago and recent ones; returns what it holds.
    private static func makeStore(at path: String) async throws -> Counts {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let store = try FeedStore(path: path)
        let now = Date()
        let old = now - 200 * 86400
        let text = String(repeating: "An old entry that retention lets go once read. ", count: 12)
        for feed in 0..<feeds {
            let stored = try await store.addFeed(url: URL(string: "https://feed\(feed).example/feed.xml")!)
            let oldEntries = (0..<oldPerFeed).map { Entry(id: "old-\($0)", title: "Old \(feed)-\($0)", published: old, content: text) }
            try await store.apply(fetched(oldEntries), toFeed: stored.id, at: old)
            let recent = (0..<recentPerFeed).map { Entry(id: "new-\($0)", title: "New \(feed)-\($0)", published: now, content: text) }
            try await store.apply(fetched(recent), toFeed: stored.id, at: now)
        }
        try await store.database.write { db in
            // Old ones: one in ten starred, one in ten unread, the rest read; recent ones read.
            try db.execute(sql: "DELETE FROM unreadEntries")
            try db.execute(sql: "UPDATE entries SET isStarred = 1 WHERE entryId LIKE 'old-%' AND CAST(SUBSTR(entryId, 5) AS INTEGER) % 10 = 0")
            try db.execute(sql: """
                INSERT INTO unreadEntries (id, feedId) SELECT id, feedId FROM entries
                WHERE entryId LIKE 'old-%' AND CAST(SUBSTR(entryId, 5) AS INTEGER) % 10 = 1
                """)
        }
        let counts = try await counts(in: store)
        #expect(counts == Counts(staying: feeds * (oldPerFeed / 5 + recentPerFeed), oldRead: feeds * oldPerFeed * 4 / 5))
        return counts
    }

    private static func counts(at path: String) async throws -> Counts {
        let store = try FeedStore(path: path)
        let integrity = try await store.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        return try await counts(in: store)
    }

    private static func counts(in store: FeedStore) async throws -> Counts {
        try await store.database.read { db in
            let staying = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries WHERE entryId LIKE 'new-%' OR isStarred = 1 OR id IN (SELECT id FROM unreadEntries)") ?? -1
            let oldRead = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries WHERE entryId LIKE 'old-%' AND isStarred = 0 AND NOT id IN (SELECT id FROM unreadEntries)") ?? -1
            return Counts(staying: staying, oldRead: oldRead)
        }
    }

    private static func fileSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    /// What a fetch of `entries` brings.
    private static func fetched(_ entries: [Entry]) -> FetchResult {
        FetchResult(request: FeedRequest(url: URL(string: "https://feed.example/feed.xml")!),
                    outcome: .fetched(ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Feed"), entries: entries), validators: CacheValidators()))
    }
}
