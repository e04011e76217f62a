import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Subscription lists made to hurt, imported from the window: refused in words, or bounded,
/// with the window responsive and in its wide layout.
final class ImportHostileWindowTests: XCTestCase {
    func testAHugeFileIsRefusedWithoutBlockingTheWindow() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        let huge = temporaryDirectory().appendingPathComponent("huge.opml")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        // Two sparse gigabytes: read whole on the main thread, they froze it, then trapped.
        XCTAssertEqual(truncate(huge.path, 2 << 30), 0)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            var lastTurn = Date(), longestTurn = 0.0

            app.window.subscriptions.importSubscriptions(from: LocalFile(huge))

            XCTAssertTrue(GtkTestEnvironment.iterate {
                longestTurn = max(longestTurn, Date().timeIntervalSince(lastTurn))
                lastTurn = Date()
                return app.window.notices.toasts.message != nil
            })
            XCTAssertEqual(app.window.notices.toasts.message,
                           "\u{2068}\(huge.path)\u{2069}: The file is far too large to be a subscription list, so nothing was imported.")
            XCTAssertLessThan(longestTurn, 0.5, "the main loop kept turning: \(longestTurn) s")
            XCTAssertEqual(app.window.sidebar.feedIDs.count, 1, "nothing was imported")
        }
    }

    func testOutlinesNestedDeeperThanTheFolderCapKeepTheWindowWide() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        // 250 levels, each a folder holding one feed (whose server is not there).
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><body>"#
        for level in 0..<250 {
            xml += #"<outline text="Level \#(level)"><outline type="rss" text="Feed \#(level)" xmlUrl="http://127.0.0.1:9/\#(level)"/>"#
        }
        xml += String(repeating: "</outline>", count: 250) + "</body></opml>"
        let deep = temporaryDirectory().appendingPathComponent("deep.opml")
        try Data(xml.utf8).write(to: deep)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            XCTAssertFalse(app.window.panes.isSidebarFolded)

            app.window.subscriptions.importSubscriptions(from: LocalFile(deep))

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 30) { app.window.importBar.message?.hasPrefix("250 subscriptions were imported.") ?? false },
                          app.window.importBar.message ?? "no message")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.feedIDs.count == 251 })
            XCTAssertFalse(app.window.panes.isSidebarFolded, "the folders' indentation did not push the window into its narrow layout")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "import-deep-folders") })
        }
    }
}
