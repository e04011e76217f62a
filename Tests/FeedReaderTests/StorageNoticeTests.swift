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
