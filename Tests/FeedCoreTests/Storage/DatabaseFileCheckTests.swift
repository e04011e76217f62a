import Foundation
import GRDB
import Testing
@testable import FeedCore

@Suite("Database file check")
struct DatabaseFileCheckTests {
    /// A closed store on disk with two feeds of 300 entries each, enough for many table pages.
    static func populatedStore() async throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        let store = try FeedStore(path: path)
        for feedIndex in 0..<2 {
            let feed = try await store.addFeed(url: URL(string: "https://site\(feedIndex).example/feed")!)
            let entries = (0..<300).map { Entry(id: "\(feedIndex)-\($0)", title: "Entry \($0)", summary: String(repeating: "words ", count: 40)) }
            try await store.apply(fetched(entries), toFeed: feed.id)
        }
        return path
    }

    /// The page numbers of a table's leaf pages, as SQLite's own dbstat table lists them.
    static func leafPages(of table: String, path: String) throws -> [Int] {
        try DatabaseQueue(path: path).read { db in
            try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", arguments: [table])
        }
    }

    static func overwrite(_ path: String, at offset: Int, count: Int) throws {
        var generator = SeededBytes(seed: 7)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data((0..<count).map { _ in generator.next() }))
        try handle.close()
    }

    enum Fault: CaseIterable {
        case halfCut, oneByteCut, garbageFirstPage, garbageEntriesPage, garbageIndexPage, textFile
    }

    /// A start's check (`atStart`) reads a store of this size whole, so it finds what the whole check finds.
    @Test(arguments: Fault.allCases, [DatabaseFileCheck.Extent.whole, .atStart])
    func findsDamage(_ fault: Fault, extent: DatabaseFileCheck.Extent) async throws {
        let path = try await Self.populatedStore()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let expected: (DatabaseFileCheck.Problem) -> Bool
        switch fault {
        case .halfCut:
            try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(size / 2))
            expected = { if case .truncated = $0 { true } else { false } }
        case .oneByteCut:
            try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(size - 1))
            expected = { if case .truncated = $0 { true } else { false } }
        case .garbageFirstPage:
            try Self.overwrite(path, at: 0, count: 4096)
            expected = { $0 == .notADatabase }
        case .garbageEntriesPage:
            let pages = try Self.leafPages(of: "entries", path: path)
            try #require(pages.count > 10)
            let page = pages[pages.count / 2]
            try Self.overwrite(path, at: (page - 1) * 4096, count: 4096)
            expected = { $0 == .damagedPage(page, reason: "not a b-tree page") }
        case .garbageIndexPage:
            let page = try #require(try Self.leafPages(of: "entries_by_feed_and_date", path: path).last)
            // Only the middle of the page: its header and first cell pointers stay as they were.
            try Self.overwrite(path, at: (page - 1) * 4096 + 8, count: 400)
            expected = { if case .damagedPage(page, _) = $0 { true } else { false } }
        case .textFile:
            try Data(String(repeating: "not a database\n", count: 400).utf8).write(to: URL(fileURLWithPath: path))
            expected = { $0 == .notADatabase }
        }

        let problem = try #require(DatabaseFileCheck.check(path: path, extent: extent))

        #expect(expected(problem), "\(fault): \(problem)")
    }

    /// A check of the top reads only so many pages whatever the file's size: the header, the
    /// file's length and the roots are judged; a leaf deep in a tree is left to the whole check.
    @Test(arguments: [
        (Fault.halfCut, true), (.oneByteCut, true), (.garbageFirstPage, true), (.textFile, true),
        (.garbageEntriesPage, false), (.garbageIndexPage, false),
    ])
    func theTopCheckReadsABoundedPartOfTheFile(_ fault: Fault, foundAtTheTop: Bool) async throws {
        let path = try await Self.populatedStore()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        switch fault {
        case .halfCut: try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(size / 2))
        case .oneByteCut: try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(size - 1))
        case .garbageFirstPage: try Self.overwrite(path, at: 0, count: 4096)
        case .garbageEntriesPage:
            let pages = try Self.leafPages(of: "entries", path: path)
            try Self.overwrite(path, at: (pages[pages.count / 2] - 1) * 4096, count: 4096)
        case .garbageIndexPage:
            let page = try #require(try Self.leafPages(of: "entries_by_feed_and_date", path: path).last)
            try Self.overwrite(path, at: (page - 1) * 4096 + 8, count: 400)
        case .textFile: try Data(String(repeating: "not a database\n", count: 400).utf8).write(to: URL(fileURLWithPath: path))
        }

        #expect((DatabaseFileCheck.check(path: path, extent: .top(pages: 4)) != nil) == foundAtTheTop, "\(fault)")
        #expect(DatabaseFileCheck.check(path: path, extent: .whole) != nil, "\(fault)")
    }

    /// Every tree's root is read before any tree's second level.
    @Test func aDamagedRootIsFoundAtTheTop() async throws {
        let path = try await Self.populatedStore()
        let (foundRoot, trees) = try await DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'entries'"),
             try Int.fetchAll(db, sql: "SELECT rootpage FROM sqlite_master WHERE rootpage > 0").count)
        }
        let root = try #require(foundRoot)
        try Self.overwrite(path, at: (root - 1) * 4096, count: 4096)

        #expect(DatabaseFileCheck.check(path: path, extent: .top(pages: trees)) == .damagedPage(root, reason: "not a b-tree page"))
    }

    @Test func aWholeClosedStoreHasNoProblem() async throws {
        let path = try await Self.populatedStore()
        let logSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        try #require(logSize == 0, "a closed store leaves no log")

        #expect(DatabaseFileCheck.check(path: path) == nil)
    }

    @Test func anOpenStoreIsReadThroughItsLog() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        let store = try FeedStore(path: path)
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let entries = (0..<400).map { Entry(id: "\($0)", title: "Entry \($0)", summary: String(repeating: "text ", count: 50)) }
        try await store.apply(fetched(entries), toFeed: feed.id)
        let logSize = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try #require(logSize > fileSize, "the entries are still in the log, not in the file")

        #expect(DatabaseFileCheck.check(path: path) == nil)
        withExtendedLifetime(store) {}
    }

    @Test func noFileAndAnEmptyFileAreNew() throws {
        let directory = try temporaryDirectory()
        let empty = directory.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))

        #expect(DatabaseFileCheck.check(path: directory.appendingPathComponent("none.sqlite").path) == nil)
        #expect(DatabaseFileCheck.check(path: empty) == nil)
    }

    @Test func aFolderInItsPlaceCannotBeRead() throws {
        let directory = try temporaryDirectory()

        let problem = DatabaseFileCheck.check(path: directory.path)

        guard case .unreadable = problem else {
            Issue.record("a folder is \(String(describing: problem))")
            return
        }
    }
}

/// Reproducible bytes for garbage (a 64-bit linear congruential generator).
struct SeededBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}
