import Foundation
import GRDB
import TestSupport
import Testing
@testable import FeedCore

/// The store's write-ahead log (`feeds.sqlite-wal`), which a start reads whole before its first
/// frame: a program that ends normally leaves it empty, a big write empties it as it goes, and a
/// program killed with SIGKILL after a commit, before the log was copied into the database, loses
/// nothing of it. The built `feed-reader --mark-read all` is the program (the window's marking).
@Suite(.serialized) struct StoreLogTests {
    typealias Faults = StoreFaultsAtScaleTests

    @Test(.timeLimit(.minutes(5)))
    func aCommandThatEndsLeavesTheLogEmpty() async throws {
        let folder = try Faults.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path]).path
        var marked = try await Faults.makeStore(at: path)
        (marked.unread, marked.keptUnread) = (0, 0)

        let finished = await (try Subprocess(Faults.program.path, ["--mark-read", "all"],
                                             environment: Faults.environment(dataHome: folder))).finish()
        #expect(finished.status == 0, "\(finished.errors)")
        #expect(Faults.fileSize(path + "-wal") == 0, "the log was copied into the database and emptied at the end")
        #expect(try await Faults.contents(at: path) == marked)
    }

    /// Killed as soon as its marking is committed (seen from another connection), the program
    /// has not yet copied its log into the database: the next opening finds every mark there.
    @Test(.timeLimit(.minutes(5)))
    func killedAfterTheCommitLosesNothing() async throws {
        let folder = try Faults.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path]).path
        let before = try await Faults.makeStore(at: path)
        var marked = before
        (marked.unread, marked.keptUnread) = (0, 0)

        var killedWithItsLog = 0
        for _ in 0..<3 {
            let store = try FeedStore(path: path)
            try await store.setRead(false, entryIDs: try await store.reading { db in try Int64.fetchAll(db, sql: "SELECT id FROM entries") })
            try store.close()
            let watcher = try DatabaseQueue(path: path, configuration: { var readOnly = Configuration(); readOnly.readonly = true; return readOnly }())
            let child = try Subprocess(Faults.program.path, ["--mark-read", "all"], environment: Faults.environment(dataHome: folder))
            let deadline = Date() + 60
            func unread() throws -> Int? { try watcher.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM unreadEntries") } }
            while Date() < deadline, try unread() != 0 {
                usleep(100)
            }
            let log = Faults.fileSize(path + "-wal")
            kill(child.pid, SIGKILL)
            let ended = child.wait()
            try watcher.close()
            if ended.status == 128 + SIGKILL, log > 0 { killedWithItsLog += 1 }
            #expect(DatabaseFileCheck.check(path: path) == nil, "the page check finds the file whole")
            #expect(try await Faults.contents(at: path) == marked, "every committed mark is there")
        }
        #expect(killedWithItsLog > 0, "a kill landed while the commit was only in the log")
    }

    /// One write of more than `logSizeLimit` (a feed's 6,000 long entries and their search index)
    /// leaves an empty log behind it, with the store still open, and everything it wrote there.
    @Test(.timeLimit(.minutes(5)))
    func aBigWriteEmptiesTheLogAsItGoes() async throws {
        let folder = try Faults.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("feeds.sqlite").path
        let store = try FeedStore(path: path)
        let stored = try await store.addFeed(url: URL(string: "https://feed.example/feed.xml")!)
        let text = (0..<600).map { "word\($0) " }.joined()
        let entries = (0..<6_000).map { Entry(id: "entry-\($0)", title: "Entry \($0)", published: Date() - Double($0), content: text + "\($0)") }
        try await store.apply(FetchResult(request: stored.request, outcome: .fetched(
            ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Feed"), entries: entries), validators: CacheValidators())), toFeed: stored.id)
        // All of it went through the log in one transaction: the database grew by more than the limit.
        #expect(Faults.fileSize(path) > FeedStore.logSizeLimit, "the write was bigger than the limit")
        #expect(Faults.fileSize(path + "-wal") == 0, "and left the log empty")
        #expect(try await store.entryCount(unreadOnly: false) == entries.count)
        try store.close()
        #expect(try await FeedStore(path: path).entryCount(unreadOnly: false) == entries.count)
    }
}
