import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The panes' header bars: the Refresh button shows a refresh running, whatever started it.
final class HeaderBarTests: XCTestCase {
    func testTheRefreshButtonSpinsWhileARefreshRunsWhateverStartedIt() throws {
        // Slow enough that a person sees the spinner: each fetch takes most of a second.
        let server = try TestHTTPServer { _ in .init(status: 200, body: plainFeed(entries: 2), delay: 0.8) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let layout = app.window.layout
            @MainActor func state() -> String { String(cString: gtk_stack_get_visible_child_name(cast(layout.refreshState))) }
            @MainActor func pressable() -> Bool { gtk_widget_is_sensitive(layout.refreshButton) != 0 }
            XCTAssertTrue(GtkTestEnvironment.iterate { state() == "idle" && pressable() })

            RealInput.key(windowTitle: app.title, "r")
            XCTAssertTrue(GtkTestEnvironment.iterate { state() == "refreshing" && !pressable() }, "r: the button spins and cannot be pressed again")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { state() == "idle" && pressable() }, "until the refresh is done")

            // The list's header first goes back to rest.
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.header.state == .idle })
            app.window.entryList.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { state() == "refreshing" }, "a pull on the list too")
            saveRender(app.window.window, name: "header-refreshing")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { state() == "idle" && pressable() })
        }
    }
}
