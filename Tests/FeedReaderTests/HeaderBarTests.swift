import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The panes' header bars: the Refresh button shows a refresh running, whatever started it, and
/// looks pressable only as its neighbours do; the article's buttons only when they do something.
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

    /// Refresh is flat like +, the menu and Search (its stack child gets no image-button look);
    /// Star and Open in Browser can be pressed only while an entry is shown, and the unstarred
    /// star is the app's full-strength outline, not the theme's faded one that looks disabled.
    func testHeaderButtonsLookPressableOnlyWhenTheyAre() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let (star, open) = (app.window.article.starButton, app.window.article.openButton)
            @MainActor func pressable(_ button: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_is_sensitive(button) != 0 }
            XCTAssertNotEqual(gtk_widget_has_css_class(app.window.layout.refreshButton, "flat"), 0, "Refresh is flat")
            XCTAssertFalse(pressable(star), "nothing to star before an entry is shown")
            XCTAssertFalse(pressable(open), "nothing to open before an entry is shown")

            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { pressable(star) && pressable(open) }, "an entry with a link is shown")
            XCTAssertEqual(gtk_button_get_icon_name(cast(star)).map { String(cString: $0) }, ArticleView.unstarredIcon)
            // As the app does when it starts from the build tree.
            AppData.addBuildTreeIcons()
            let theme = gtk_icon_theme_get_for_display(gtk_widget_get_display(star))
            XCTAssertNotEqual(gtk_icon_theme_has_icon(theme, ArticleView.unstarredIcon), 0, "the theme finds the app's star")
            // Without the buttons' fade from insensitive, so the render shows where they end.
            GtkTestEnvironment.withAnimations(false) {
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "header-buttons-entry-shown") })
            }

            app.window.sidebar.select(.starred)
            XCTAssertTrue(GtkTestEnvironment.iterate { !pressable(star) && !pressable(open) }, "the article cleared with the list")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "header-buttons-nothing-shown") })
        }
    }
}
