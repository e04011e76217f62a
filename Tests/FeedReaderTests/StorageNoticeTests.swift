import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// What the window says when the database or its folder is in trouble at start: a sentence in
/// the person's language, the technical details folded away, the damaged file kept as it was.
final class StorageNoticeTests: XCTestCase {
    enum Fault: CaseIterable {
        case truncated, garbageFirstPage, foundDamagedInUse

        /// Whether every table still reads whole, so the store is repaired with all it held
        /// (damage to an index is checked page by page in FeedCore's StoreHealingTests).
        var keepsEveryRow: Bool { self == .foundDamagedInUse }
    }

    private static func damage(_ path: String, by fault: Fault) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        switch fault {
        case .truncated:
            try handle.truncate(atOffset: size / 2)
        case .garbageFirstPage:
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }))
        case .foundDamagedInUse:
            try Data("SQLITE_CORRUPT: database disk image is malformed".utf8).write(to: FeedStore.damageNoteURL(forDatabaseAt: path))
        }
    }

    func testADamagedDatabaseIsRepairedOrReplacedAndTheWindowSaysWhatHappenedAndWhereTheOldFileIs() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        for fault in Fault.allCases {
            try onMain {
                let folder = try ReaderFixture.storeFolder(subscribedTo: "http://127.0.0.1:\(server.port)/feed.xml")
                let path = folder.appendingPathComponent("feeds.sqlite").path
                try Self.damage(path, by: fault)
                let damagedBytes = try Data(contentsOf: URL(fileURLWithPath: path))

                let app = try ReaderFixture(healingStoreIn: folder)
                defer { app.close() }

                let banner = app.window.notices.banner
                let message = try XCTUnwrap(banner.message, "\(fault)")
                let said = fault.keepsEveryRow ? "The feed database was damaged and has been repaired: all your feeds and articles were kept."
                    : "The feed database was damaged, so a new one was made. 1 subscription was recovered"
                XCTAssertTrue(message.hasPrefix(said), message)
                let keptAt = try XCTUnwrap(message.components(separatedBy: "kept as \u{2068}").last?.components(separatedBy: "\u{2069}").first)
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: keptAt)), damagedBytes, "\(fault): kept byte for byte")
                XCTAssertFalse(message.contains("SQLITE"), "no error codes in the sentence")
                XCTAssertTrue(banner.details?.contains(path) ?? false, banner.details ?? "no details")
                XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.feedIDs.count == 1 }, "the subscription is back")
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.entryList.order.count == 3 },
                              fault.keepsEveryRow ? "its entries are kept" : "its entries are fetched again")
                XCTAssertEqual(banner.message, message, "the notice stays until dismissed")
                if fault != .truncated {
                    banner.expandDetails()
                    GtkTestEnvironment.waitForFrames(of: app.window.window)
                    saveRender(app.window.window, name: fault.keepsEveryRow ? "storage-repaired-database" : "storage-damaged-database")
                }
            }
        }
    }

    /// Damage past what a start reads before opening the store (a page deep in a store of
    /// 10,000 entries): the window opens without a notice, the check of the whole file once the
    /// entries show finds it, the banner says a restart repairs it, nothing more is saved, and
    /// the next start repairs it and says so.
    func testDamagePastTheStartCheckIsFoundOnceTheWindowShowsAndTheNextStartRepairsIt() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        try onMain {
            let folder = try ReaderFixture.storeFolder(subscribedTo: "http://127.0.0.1:\(server.port)/feed.xml")
            let path = folder.appendingPathComponent("feeds.sqlite").path
            nonisolated(unsafe) var grown: Result<Void, any Error>?
            Task { @MainActor in
                do {
                    try await Self.addEntries(10_000, toStoreAt: path)
                    grown = .success(())
                } catch {
                    grown = .failure(error)
                }
            }
            GtkTestEnvironment.iterate(timeout: 120) { grown != nil }
            try XCTUnwrap(grown).get()
            try Self.damageAPagePastTheStartCheck(path)

            do {
                let app = try ReaderFixture(healingStoreIn: folder)
                defer { app.close() }
                let banner = app.window.notices.banner
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 60) { banner.message != nil }, "the whole file is checked once the window shows")
                XCTAssertEqual(banner.message, "The feed database is damaged, so nothing more is saved to it. Restart Feed Reader to repair it; your subscriptions will be recovered.")
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("-damaged-") }, [],
                               "the start read only the top of the file and opened it as it was")
                // Found by the whole file's check (which names the page) or by SQLite reading it first.
                XCTAssertTrue(banner.details.map { $0.contains("page") || $0.contains("malformed") } ?? false, banner.details ?? "no details")
                XCTAssertNotNil(app.library.store.damageFound, "nothing more is written to it")
                XCTAssertTrue(FileManager.default.fileExists(atPath: FeedStore.damageNoteURL(forDatabaseAt: path).path))
            }

            let restarted = try ReaderFixture(healingStoreIn: folder)
            defer { restarted.close() }
            let message = try XCTUnwrap(restarted.window.notices.banner.message)
            XCTAssertTrue(message.hasPrefix("The feed database was damaged"), message)
            XCTAssertTrue(GtkTestEnvironment.iterate { restarted.window.sidebar.feedIDs.count == 2 }, "the subscriptions are back")
        }
    }

    /// Adds a feed of `count` entries to the closed store at `path`, and closes it again.
    private static func addEntries(_ count: Int, toStoreAt path: String) async throws {
        let store = try FeedStore(path: path)
        let feed = try await store.addFeed(url: URL(string: "http://127.0.0.1:9/many")!)
        let entries = (0..<count).map { Entry(id: "many-\($0)", title: "Entry \($0)", summary: String(repeating: "words ", count: 50)) }
        let parsed = ParsedFeed(format: .rss, feed: Feed(id: "many", title: "Many"), entries: entries)
        try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                              toFeed: feed.id)
    }

    /// Overwrites the last page of the file, walking back from the end, that the start's check
    /// does not read and the whole check finds damaged: a leaf deep in one of the trees.
    private static func damageAPagePastTheStartCheck(_ path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let pages = Int(try handle.seekToEnd()) / 4096
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        for page in stride(from: pages, to: pages / 2, by: -1) {
            try handle.seek(toOffset: UInt64((page - 1) * 4096))
            let original = try XCTUnwrap(try handle.read(upToCount: 4096))
            try handle.seek(toOffset: UInt64((page - 1) * 4096))
            try handle.write(contentsOf: garbage)
            if DatabaseFileCheck.check(path: path, extent: .atStart) == nil, DatabaseFileCheck.check(path: path) != nil { return }
            try handle.seek(toOffset: UInt64((page - 1) * 4096))
            try handle.write(contentsOf: original)
        }
        XCTFail("no page of the store's second half is past the start's check")
    }

    func testAReadOnlyFolderShowsTheFeedsAndSaysChangesWillNotBeKept() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        try onMain {
            let folder = try ReaderFixture.storeFolder(subscribedTo: "http://127.0.0.1:\(server.port)/feed.xml")
            let path = folder.appendingPathComponent("feeds.sqlite").path
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try withReadOnlyFolder(folder) {
                let app = try ReaderFixture(healingStoreIn: folder)
                defer { app.close() }
                XCTAssertEqual(app.window.notices.banner.message, StorageNotice.folderReadOnly(folder: folder.path, recovered: 1, details: "").message)
                XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 3 }, "the stored entries show")
                saveRender(app.window.window, name: "storage-read-only-folder")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        }
    }

    func testAFolderThatCannotBeMadeIsSaidInWordsNotAsAnErrorDump() throws {
        try onMain {
            let file = temporaryDirectory().appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: file)
            let folder = file.appendingPathComponent("feed-reader")

            let app = try ReaderFixture(healingStoreIn: folder)
            defer { app.close() }

            let message = try XCTUnwrap(app.window.notices.banner.message)
            XCTAssertEqual(message, "The folder \u{2068}\(folder.path)\u{2069} could not be created, so your feeds will not be kept after you quit.")
            XCTAssertEqual(app.window.notices.banner.details, "\(folder.path): Not a directory")
            XCTAssertFalse(message.contains("NSCocoaErrorDomain"))
            app.window.notices.banner.expandDetails()
            GtkTestEnvironment.waitForFrames(of: app.window.window)
            saveRender(app.window.window, name: "storage-folder-unavailable")
        }
    }
}
