import Foundation
import GRDB
import TestSupport
import Testing
@testable import FeedCore

/// A second program writing to the same database: its lock is waited for, never taken for
/// damage, and a write that still fails says so and reports what the database kept.
@Suite("Two writers on one database")
final class TwoWritersTests {
    let folder: URL
    var path: String { folder.appendingPathComponent("feeds.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("two-writers-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A database with one feed of three entries, the second starred; returns that entry's id.
    private func libraryWithAStar() async throws -> Int64 {
        let store = try FeedStore(path: path)
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.apply(fetched((1...3).map { Entry(id: "\($0)", title: "Entry \($0)", published: utc("2024-01-0\($0)T00:00:00Z")) }),
                              toFeed: feed.id)
        let starred = try #require(try await store.entries().first { $0.entryID == "2" })
        try await store.setStarred(entryID: starred.id)
        return starred.id
    }

    private var setAside: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains("damaged") }
    }

    @Test func openingWhileAnotherProgramWritesWaitsAndSetsNothingAside() async throws {
        let starred = try await libraryWithAStar()
        let holder = try SQLiteLockHolder(path: path, seconds: 1.5)
        let (store, notice) = try await FeedStore.openHealing(at: URL(fileURLWithPath: path))
        holder.waitUntilReleased()
        #expect(notice == nil)
        #expect(setAside.isEmpty)
        #expect(try await store.entry(id: starred)?.isStarred == true, "the star made earlier is kept")
        _ = try await store.addFeed(url: URL(string: "https://other.example/feed")!)
    }

    @Test func aWriteWaitsForTheOtherProgramsLock() async throws {
        let starred = try await libraryWithAStar()
        let store = try FeedStore(path: path)
        let holder = try SQLiteLockHolder(path: path, seconds: 1.5)
        try await store.setStarred(entryID: starred, isStarred: false)
        holder.waitUntilReleased()
        #expect(try await store.entry(id: starred)?.isStarred == false)
    }

    @Test func aWriteThatCannotWaitLongEnoughSaysBusyAndWhatIsKept() async throws {
        let starred = try await libraryWithAStar()
        let store = try FeedStore(path: path, busyTimeout: 0.2)
        let holder = try SQLiteLockHolder(path: path)
        defer { holder.release() }
        do {
            try await store.setStarred(entryID: starred, isStarred: false)
            Issue.record("the unstar was saved while another program held the lock")
        } catch let error as EntryMarksNotSaved {
            #expect(error.kept == EntryMarksNotSaved.Marks(isRead: false, isStarred: true), "the database keeps the star")
            guard case .busy = error.cause as? FeedStoreError else {
                Issue.record("\(error.cause) is not FeedStoreError.busy")
                return
            }
        }
        #expect(store.damageFound == nil, "a busy database is not damaged")
        #expect(setAside.isEmpty)
    }
}

/// SQLite's refusals as the store names them. A full disk or a read-only file cannot be made to
/// happen under a test without mounting a file system, so these errors are made by hand.
@Suite("Store refusals by name")
struct StoreRefusalTests {
    @Test(arguments: [
        (ResultCode.SQLITE_BUSY, "busy"), (.SQLITE_LOCKED, "busy"), (.SQLITE_FULL, "diskFull"),
        (.SQLITE_READONLY, "readOnly"), (.SQLITE_IOERR, "none"), (.SQLITE_CONSTRAINT, "none"),
    ] as [(ResultCode, String)])
    func aRefusalIsNamed(code: ResultCode, name: String) {
        let refusal = FeedStoreError(refusal: DatabaseError(resultCode: code, message: "refused"))
        let found = switch refusal {
        case .busy: "busy"
        case .diskFull: "diskFull"
        case .readOnly: "readOnly"
        case nil: "none"
        default: "other"
        }
        #expect(found == name)
    }
}
