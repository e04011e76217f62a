import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// A row whose context menu closed looks as the rows around it do: not pressed, not hovered,
/// once the pointer has left it (ui-review-2.md: it kept a grey highlight, under Xvfb and GNOME).
final class ContextMenuHighlightTests: XCTestCase {
    func testAnEntryRowIsNotHighlightedAfterItsMenuCloses() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            for byClick in [false, true] {
                let widgets = try XCTUnwrap(app.window.entryList.rowWidgets(showing: app.window.entryList.order[1]))
                try Self.assertNoHighlightAfterMenu(on: widgets.box, app: app, name: "entry", closedByClick: byClick)
            }
        }
    }

    func testASidebarRowIsNotHighlightedAfterItsMenuCloses() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            for byClick in [false, true] {
                let widgets = try XCTUnwrap(app.window.sidebar.rowWidgets(showing: .feed(feedID)))
                try Self.assertNoHighlightAfterMenu(on: widgets.box, app: app, name: "sidebar", closedByClick: byClick)
            }
        }
    }

    /// Right-clicks `box` (a row's content), closes its menu with Escape or, as a person mostly
    /// does, with a click in the article, moves the pointer away, and asserts the row (the
    /// list's row widget around `box`) shows neither pressed nor hover.
    @MainActor
    static func assertNoHighlightAfterMenu(on box: UnsafeMutablePointer<GtkWidget>, app: ReaderFixture, name: String, closedByClick: Bool = false,
                                           file: StaticString = #filePath, line: UInt = #line) throws {
        let row = try XCTUnwrap(gtk_widget_get_parent(box))
        let highlight = GTK_STATE_FLAG_ACTIVE.rawValue | GTK_STATE_FLAG_PRELIGHT.rawValue
        RealInput.click(windowTitle: app.title, at: app.point(in: box, x: 30, y: 10), rightButton: true)
        var menu: UnsafeMutablePointer<GtkWidget>?
        XCTAssertTrue(GtkTestEnvironment.iterate {
            menu = descendant(of: app.window.window) { isWidget($0, a: gtk_popover_menu_get_type()) && gtk_widget_get_mapped($0) != 0 }
            return menu != nil
        }, "the menu opened", file: file, line: line)
        if closedByClick {
            RealInput.click(windowTitle: app.title, at: app.point(in: app.window.article.widget, x: 60, y: 60))
        } else {
            RealInput.key(windowTitle: app.title, "Escape")
        }
        XCTAssertTrue(GtkTestEnvironment.iterate {
            descendant(of: app.window.window) { isWidget($0, a: gtk_popover_menu_get_type()) && gtk_widget_get_mapped($0) != 0 } == nil
        }, "\(closedByClick ? "a click" : "Escape") closed the menu", file: file, line: line)
        RealInput.move(windowTitle: app.title, to: app.point(in: app.window.article.widget, x: 100, y: 100))
        GtkTestEnvironment.settleInput()
        XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_state_flags(row).rawValue & highlight == 0 },
                      "the \(name) row keeps state \(gtk_widget_get_state_flags(row).rawValue) after \(closedByClick ? "a click" : "Escape")",
                      file: file, line: line)
        _ = saveRender(app.window.window, name: "context-menu-closed-\(name)-\(closedByClick ? "click" : "escape")")
    }
}
