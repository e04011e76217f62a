import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Starring: from the keyboard, the article's button and the entry's menu; the Starred list.
final class StarredTests: XCTestCase {
    func testSStarsTheSelectedEntryAndTheStarredListShowsIt() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let list = Self.starSecondEntryWithS(app)
            XCTAssertEqual(list.selectedEntry?.isStarred, true)
            XCTAssertFalse(app.window.article.starButtonStars, "the article's button now offers to unstar")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.starBesideTitle(in: list.listView) }, "the row shows its star beside the title, not over it")

            app.window.sidebar.select(.starred)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Entry 2"] }, "Starred lists it: \(list.shownTitles)")
            saveRender(app.window.window, name: "starred-list")

            list.select(index: 0)
            RealInput.key(windowTitle: app.title, "s")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.starredInStore() == 0 }, "s again unstarred it")
        }
    }

    /// Starred counts its unread entries, as every other row of the sidebar counts its own.
    func testStarredCountsItsUnreadEntries() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let starredRow = FolderTests.row(of: .starred, in: app.window.sidebar)
            let count = {
                descendant(of: starredRow) { gtk_widget_has_css_class($0, "unread-count") != 0 }.map { String(cString: gtk_label_get_text(cast($0))) }
            }
            let list = Self.starSecondEntryWithS(app)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 2 }, "shown means read")
            XCTAssertTrue(GtkTestEnvironment.iterate { count() == "" }, "the starred entry is read: \(count() ?? "no count")")

            RealInput.key(windowTitle: app.title, "m")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.selectedEntry?.isRead == false })
            XCTAssertTrue(GtkTestEnvironment.iterate { count() == "1" }, "marked unread, it counts: \(count() ?? "no count")")
        }
    }

    /// An unstar that cannot be saved (another program holds the database's write lock longer
    /// than the reader waits for it, as a second window in another session can) leaves the star
    /// shown where the database keeps it, and the window says why.
    func testAnUnstarThatCannotBeSavedLeavesTheStarShown() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let list = Self.starSecondEntryWithS(app)
            let holder = try SQLiteLockHolder(path: app.databasePath)
            defer { holder.release() }

            RealInput.key(windowTitle: app.title, "s")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.selectedEntry?.isStarred == false }, "shown unstarred at once")
            // The store waits FeedStore.busyTimeout (10 s) for the lock, twice.
            GtkTestEnvironment.wait(until: { app.window.notices.toasts.message != nil }, timeout: 40, "the failure said")
            XCTAssertEqual(app.window.notices.toasts.message?.hasPrefix("The star could not be saved."), true, app.window.notices.toasts.message ?? "")
            XCTAssertEqual(list.selectedEntry?.isStarred, true, "the row shows the star the database kept")
            XCTAssertFalse(app.window.article.starButtonStars, "the article's button still offers to unstar")
            holder.release()
            XCTAssertEqual(app.starredInStore(), 1)
        }
    }

    /// Selects the second entry, presses s and waits until the database has it starred.
    @MainActor
    private static func starSecondEntryWithS(_ app: ReaderFixture, file: StaticString = #filePath, line: UInt = #line) -> EntryListView {
        let list = app.window.entryList
        list.select(index: 1)
        gtk_widget_grab_focus(list.listView)
        RealInput.key(windowTitle: app.title, "s")
        XCTAssertTrue(GtkTestEnvironment.iterate { app.starredInStore() == 1 }, "s starred it", file: file, line: line)
        return list
    }

    /// Whether a row's star is shown, and to the right of its title's text area.
    @MainActor
    static func starBesideTitle(in listView: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let star = descendant(of: listView, where: { gtk_widget_has_css_class($0, "entry-star") != 0 && gtk_widget_is_drawable($0) != 0 }),
              let title = gtk_widget_get_prev_sibling(star) else { return false }
        var starBounds = graphene_rect_t(), titleBounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(star, listView, &starBounds) != 0,
              gtk_widget_compute_bounds(title, listView, &titleBounds) != 0 else { return false }
        return starBounds.size.width > 0 && titleBounds.origin.x + titleBounds.size.width <= starBounds.origin.x
    }

    func testTheArticlesStarButtonStarsAndUnstars() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let article = app.window.article
            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { article.isLoaded })
            XCTAssertTrue(article.starButtonStars)

            RealInput.click(windowTitle: app.title, at: app.point(in: article.starButton, x: 10, y: 10))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.starredInStore() == 1 })
            XCTAssertFalse(article.starButtonStars)
            RealInput.click(windowTitle: app.title, at: app.point(in: article.starButton, x: 10, y: 10))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.starredInStore() == 0 })
        }
    }

    func testTheEntrysMenuStarsIt() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let list = app.window.entryList
            list.select(index: 0)
            gtk_widget_grab_focus(list.listView)
            RealInput.key(windowTitle: app.title, "shift+F10")
            var popover: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                popover = descendant(of: list.listView) { isWidget($0, a: gtk_popover_menu_get_type()) && gtk_widget_get_visible($0) != 0 }
                return popover != nil
            }, "Shift+F10 opened the entry's menu")
            XCTAssertTrue(GtkTestEnvironment.iterate { descendant(of: popover!) { widget in
                isWidget(widget, a: gtk_label_get_type()) && String(cString: gtk_label_get_label(cast(widget))) == "Star"
            } != nil }, "the menu offers to star")
            RealInput.key(windowTitle: app.title, "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.starredInStore() == 1 }, "choosing Star starred it")
        }
    }
}
