import Foundation
import GRDB
import TestSupport
import Testing
@testable import FeedCore

/// A refresh killed with SIGKILL in the middle of storing leaves a whole database: every feed's
/// entries all there or all missing, the search index in step, and the next refresh completes.
///
/// The refresh runs in a child process: `feedcore-refresh`, built beside this bundle.
@Suite struct RefreshCrashSafetyTests {
    static let feeds = 60
    static let itemsPerFeed = 50

    @Test(.timeLimit(.minutes(5)))
    func aRefreshKilledWhileStoringLeavesAWholeDatabase() async throws {
        let program = RefreshBenchQuickTests.binaryFolder.appendingPathComponent("feedcore-refresh")
        try #require(FileManager.default.isExecutableFile(atPath: program.path), "no feedcore-refresh at \(program.path)")
        let server = try TestHTTPServer { request in
            let feed = request.path.split(separator: "/").last.map(String.init) ?? ""
            return .init(status: 200, body: Self.rss(feed: feed), delay: 0.1)
        }
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let urls = folder.appendingPathComponent("urls.txt")
        try (0..<Self.feeds).map { server.url("/\($0).xml").absoluteString + "\n" }.joined()
            .write(to: urls, atomically: true, encoding: .utf8)
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path]).path

        let child = try Subprocess(program.path, [folder.path, urls.path])
        // Killed once some feeds are stored and before all are: the database is being written.
        var stored = 0
        let deadline = Date() + 120
        while !child.hasEnded, Date() < deadline, stored < Self.itemsPerFeed * 3 {
            stored = Self.storedEntries(at: path)
            usleep(10_000)
        }
        kill(child.pid, SIGKILL)
        #expect(child.wait().status == 128 + SIGKILL, "the refresh ended before it could be killed (\(stored) entries stored)")

        #expect(DatabaseFileCheck.check(path: path) == nil, "the page check finds the file whole")
        let store = try FeedStore(path: path)
        let (integrity, perFeed) = try await store.database.read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             try Int.fetchAll(db, sql: "SELECT (SELECT COUNT(*) FROM entries WHERE feedId = feeds.id) FROM feeds"))
        }
        #expect(integrity == ["ok"])
        #expect(perFeed.count == Self.feeds)
        #expect(perFeed.allSatisfy { $0 == 0 || $0 == Self.itemsPerFeed }, "each feed was saved whole or not at all: \(perFeed)")
        try await store.database.write { db in
            try db.execute(sql: "INSERT INTO entries_search (entries_search, rank) VALUES ('integrity-check', 1)")
        }

        let report = await FeedLibrary(store: store).refresh()
        #expect(report.failures.isEmpty)
        #expect(try await store.entryCount() == Self.feeds * Self.itemsPerFeed)
        #expect(report.newEntries == perFeed.filter { $0 == 0 }.count * Self.itemsPerFeed)
        #expect(try await store.search("harbour \(Self.feeds - 1)x").count == Self.itemsPerFeed)
    }

    /// Entries stored so far, read without writing; 0 while the database is not there yet.
    private static func storedEntries(at path: String) -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        var configuration = Configuration()
        configuration.readonly = true
        guard let database = try? DatabaseQueue(path: path, configuration: configuration) else { return 0 }
        return (try? database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") }) ?? 0
    }

    /// Feed `feed`'s RSS: its own GUIDs, each item's text naming the feed.
    private static func rss(feed: String) -> Data {
        let name = feed.replacingOccurrences(of: ".xml", with: "x")
        let items = (0..<itemsPerFeed).map { number in
            "<item><title>Item \(number) of \(name)</title><guid>\(name)-\(number)</guid>"
                + "<description>&lt;p&gt;Lights over the harbour \(name), entry \(number)&lt;/p&gt;</description></item>"
        }
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Feed \(name)</title><link>https://example.org/</link>
            <description>d</description>\(items.joined())</channel></rss>
            """.utf8)
    }
}
