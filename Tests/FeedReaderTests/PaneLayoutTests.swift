import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The three panes side by side in a wide window, one at a time with a back button in a narrow one.
final class PaneLayoutTests: XCTestCase {
    func testWidthDecidesBetweenThreePanesAndOne() {
        let cases: [(width: Int32, wideMinimum: Int32, narrow: Bool)] = [
            (360, 0, true), (899, 812, true), (900, 812, false), (1240, 812, false),
            // Labels too long for three panes below 930 px: at that minimum the window stops, and turns narrow.
            (930, 930, true), (931, 930, false),
        ]
        for (width, wideMinimum, narrow) in cases {
            XCTAssertEqual(PaneLayout.isNarrow(width: width, wideMinimum: wideMinimum), narrow, "\(width) px, \(wideMinimum) px needed")
        }
    }

    func testBackLeadsFromTheArticleToTheListToTheFeeds() {
        let cases: [(PaneLayout.Pane, PaneLayout.Pane?)] = [(.article, .entries), (.entries, .feeds), (.feeds, nil)]
        for (pane, before) in cases {
            XCTAssertEqual(PaneLayout.pane(before: pane), before, "\(pane)")
        }
    }

    func testNarrowShowsOnlyThePageAndWideShowsEveryPane() {
        let cases: [(narrow: Bool, page: PaneLayout.Pane, visible: [PaneLayout.Pane])] = [
            (false, .entries, [.feeds, .entries, .article]), (false, .feeds, [.feeds, .entries, .article]),
            (true, .feeds, [.feeds]), (true, .entries, [.entries]), (true, .article, [.article]),
        ]
        for (narrow, page, visible) in cases {
            XCTAssertEqual(PaneLayout.visiblePanes(narrow: narrow, page: page), visible, "narrow \(narrow), \(page)")
        }
    }

    func testANarrowWindowShowsOnePaneAtATimeAndTheKeyboardMovesBetweenThem() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            XCTAssertEqual(Self.shownPanes(window), [.feeds, .entries, .article], "three panes at the default size")
            XCTAssertFalse(Self.isShown(window.backButton), "no back button while every pane shows")
            saveRender(window.window, name: "layout-wide-light")

            Self.resize(app, width: 600)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] },
                          "narrow, the list alone: \(Self.shownPanes(window))")
            XCTAssertTrue(Self.isShown(window.backButton), "with a way back to the feeds")

            RealInput.click(windowTitle: app.title, at: app.point(in: window.entryList.listView, x: 100, y: 20))
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.article] }, "a click on an entry shows its article")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { window.article.entry?.title == "Entry 1" && window.article.isLoaded })
            saveRender(window.window, name: "layout-narrow-article-light")

            RealInput.key(windowTitle: app.title, "alt+Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] }, "Alt+Left goes back to the list")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.focusIsIn(window.entryList.listView, of: window) }, "which has the focus")
            saveRender(window.window, name: "layout-narrow-list-light")
            RealInput.key(windowTitle: app.title, "j")
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.selectedEntry?.title == "Entry 2" && Self.shownPanes(window) == [.article] },
                          "j reads the next entry")
            RealInput.key(windowTitle: app.title, "ctrl+3")
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.selectedEntry == nil && Self.shownPanes(window) == [.entries] },
                          "the entry read is no longer listed (none is starred): back to the list, not an empty article")
            RealInput.key(windowTitle: app.title, "ctrl+1")

            RealInput.key(windowTitle: app.title, "alt+Left")
            RealInput.key(windowTitle: app.title, "alt+Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds] }, "and on back to the feeds")
            XCTAssertFalse(Self.isShown(window.backButton), "where there is no further back")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.focusIsIn(window.sidebar.widget, of: window) })
            RealInput.key(windowTitle: app.title, "Down")
            RealInput.key(windowTitle: app.title, "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] && window.sidebar.selection == .starred },
                          "Enter on a feed lists its entries: \(Self.shownPanes(window)) \(window.sidebar.selection)")

            GtkTestEnvironment.withAnimations(false) {
                adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_FORCE_DARK)
                GtkTestEnvironment.iterate(for: 0.3)
                saveRender(window.window, name: "layout-narrow-list-dark")
                Self.resize(app, width: 1240)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds, .entries, .article] },
                              "wide again, the three panes: \(Self.shownPanes(window))")
                GtkTestEnvironment.iterate(for: 0.3)
                saveRender(window.window, name: "layout-wide-dark")
                app.window.preferences.applyStyle()
            }
            XCTAssertFalse(Self.isShown(window.backButton))
        }
    }

    func testThePaneWidthsAreRememberedAcrossRestarts() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let layout = app.window.layout
            let handle = try XCTUnwrap(descendant(of: layout.widget) { isWidget($0, a: gtk_paned_get_type()) })
            let start = app.point(in: handle, x: Double(layout.sidebarWidth) + 2, y: 300)
            let before = layout.sidebarWidth
            RealInput.drag(windowTitle: app.title, from: start, dx: 60, dy: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { layout.sidebarWidth > before + 40 },
                          "dragging the divider widened the feeds: \(before) to \(layout.sidebarWidth)")
            let widths = (layout.sidebarWidth, layout.listWidth)
            app.close()
            let restarted = try app.restarted()
            defer { restarted.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(restarted.window.layout.widget) != 0 })
            XCTAssertEqual(restarted.window.layout.sidebarWidth, widths.0)
            XCTAssertEqual(restarted.window.layout.listWidth, widths.1)
        }
    }

    /// Resizes the window as a person dragging its edge would: the three panes stop it at their
    /// width until it turns narrow, then it goes on. Waits until it has the new size, give or
    /// take its frame.
    @MainActor
    static func resize(_ app: ReaderFixture, width: Int32) {
        let window = app.window.window
        let reached = { abs(gtk_widget_get_width(window) - width) <= 20 }
        gtk_window_set_default_size(cast(window), width, 700)
        GtkTestEnvironment.iterate { reached() || app.window.layout.isNarrow == PaneLayout.isNarrow(width: width) }
        GtkTestEnvironment.iterate(for: 0.2)
        gtk_window_set_default_size(cast(window), width, 700)
        XCTAssertTrue(GtkTestEnvironment.iterate(until: reached), "the window is \(width) px wide: \(gtk_widget_get_width(window))")
    }

    /// The panes a person sees: mapped and given some width.
    @MainActor
    static func shownPanes(_ window: MainWindow) -> [PaneLayout.Pane] {
        let widgets: [(PaneLayout.Pane, UnsafeMutablePointer<GtkWidget>)] = [
            (.feeds, window.sidebar.widget), (.entries, window.entryList.widget), (.article, window.article.widget),
        ]
        return widgets.filter { isShown($0.1) && gtk_widget_get_width($0.1) > 0 }.map(\.0)
    }

    @MainActor
    private static func isShown(_ widget: UnsafeMutablePointer<GtkWidget>?) -> Bool {
        widget.map { gtk_widget_get_mapped($0) != 0 } ?? false
    }

    @MainActor
    private static func focusIsIn(_ widget: UnsafeMutablePointer<GtkWidget>, of window: MainWindow) -> Bool {
        guard let focus = gtk_root_get_focus(cast(window.window)) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }
}
