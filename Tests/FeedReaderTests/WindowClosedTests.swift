import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The window closed while its parts wait on the store: what they were doing is kept, and
/// nothing is shown over, or done to, the closed window.
final class WindowClosedTests: XCTestCase {
    func testRenameAndNewFolderWaitingOnTheStoreWhenTheWindowClosesShowNothing() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            let store = app.library.store
            // Both start at once and wait on the store: Rename reads the feed before it asks for
            // a name; a new folder is stored, then the subscriptions are read again.
            g_action_group_activate_action(cast(app.window.window), "rename-feed", g_variant_new_int64(gint64(feedID)))
            app.window.subscriptions.createFolder(named: "Later")
            app.close()

            // The folder's write was asked for after the feed's read: once it is stored, the read is done too.
            nonisolated(unsafe) var stored: [String] = []
            nonisolated(unsafe) var reading = false
            XCTAssertTrue(GtkTestEnvironment.iterate {
                if !reading {
                    reading = true
                    Task { @MainActor in
                        stored = (try? await store.folders().map(\.name)) ?? []
                        reading = false
                    }
                }
                return stored == ["Later"]
            }, "the folder is kept")
            GtkTestEnvironment.runPending()
            XCTAssertNil(toplevel(titled: "Rename Feed"), "no dialog over the closed window")
        }
    }
}
