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

    func testARefreshWaitingOnTheServerWhenTheWindowClosesSaysNothing() throws {
        let refreshes = HeldAnswers()
        // The subscription's fetch is answered at once; the refresh's only once the window has closed, with a failure.
        let server = try TestHTTPServer { _ in refreshes.answer(.ok(plainFeed(entries: 3)), whenHeld: .status(500)) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 3 })
            refreshes.hold()
            app.window.refreshing.refreshSelection()
            XCTAssertTrue(GtkTestEnvironment.iterate { server.requests.count == 2 }, "the refresh asks the server")
            app.close()
            refreshes.release()

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.refreshing.running == 0 }, "the refresh ends")
            GtkTestEnvironment.runPending()
            XCTAssertNil(app.window.notices.toasts.message, "no notice of the failure over the closed window")
        }
    }

    func testAnEntrySelectedWhileTheWindowClosesIsNotShown() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let list = app.window.entryList
            let store = app.library.store
            // The article reads the entry's body from the store: the window closes while it waits.
            list.select(index: 1)
            let selected = try XCTUnwrap(list.selectedEntry)
            app.close()

            // This read was asked for after the article's: once it is back, that one is too.
            nonisolated(unsafe) var read = false
            Task { @MainActor in
                _ = try? await store.entry(id: selected.id)
                read = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { read })
            GtkTestEnvironment.runPending()
            XCTAssertNotEqual(app.window.article.entry?.id, selected.id, "the closed window's article shows nothing new")
        }
    }
}

/// A server's answers that can be held back until the test releases them.
private final class HeldAnswers: @unchecked Sendable {
    private let condition = NSCondition()
    private var holding = false
    private var released = false

    /// From now on, answers wait for ``release()``.
    func hold() {
        condition.withLock { holding = true }
    }

    func release() {
        condition.withLock {
            released = true
            condition.broadcast()
        }
    }

    /// `answer` at once before ``hold()``; after it, `held` once released.
    func answer(_ answer: TestHTTPServer.Response, whenHeld held: TestHTTPServer.Response) -> TestHTTPServer.Response {
        condition.withLock {
            guard holding else { return answer }
            while !released { condition.wait() }
            return held
        }
    }
}
