import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// What a screen reader hears: every button named, sidebar rows and entries read as a sentence.
final class AccessibilityTests: XCTestCase {
    func testEveryButtonInTheWindowHasAName() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            app.window.entryList.select(index: 0)
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { app.window.article.isLoaded })
            var unnamed: [String] = []
            var checked = 0
            _ = descendant(of: app.window.window) { widget in
                let isButton = isWidget(widget, a: gtk_button_get_type())
                    && !(gtk_widget_get_parent(widget).map { isWidget($0, a: gtk_menu_button_get_type()) } ?? false)
                guard isButton || isWidget(widget, a: gtk_menu_button_get_type()), gtk_widget_get_visible(widget) != 0 else { return false }
                checked += 1
                let hasText = isButton && gtk_button_get_label(cast(widget)).map { String(cString: $0).isEmpty == false } == true
                if !hasText, gtk_test_accessible_has_property(cast(widget), GTK_ACCESSIBLE_PROPERTY_LABEL) == 0 {
                    unnamed.append(String(cString: gtk_widget_get_name(widget)) + " in "
                                   + (gtk_widget_get_parent(gtk_widget_get_parent(widget)).map { String(cString: gtk_widget_get_name($0)) } ?? "") + " "
                                   + (gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } ?? "no tooltip"))
                }
                return false
            }
            XCTAssertGreaterThan(checked, 8, "the header bar, filters, search and article buttons were checked")
            XCTAssertEqual(unnamed, [], "buttons a screen reader could only call by their icon")
            XCTAssertNil(Self.labelMismatch(app.window.article.starButton, "Star"))
            XCTAssertNil(Self.labelMismatch(app.window.article.openButton, "Open in Browser"))
        }
    }

    func testSidebarRowsAndEntriesReadAsTheySay() throws {
        try withReader(serving: plainFeed(entries: 2), entries: 2) { app in
            let list = app.window.entryList
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.feedIDs.count == 1 })
            let names = ["All Feeds, 2 unread", "Starred, 0 unread", "Plain, 2 unread"]
            for (item, name) in zip(app.window.sidebar.items, names) {
                let row = try XCTUnwrap(app.window.sidebar.rowWidget(showing: item))
                XCTAssertNil(Self.labelMismatch(cast(row), name))
            }

            list.select(index: 1)
            RealInput.key(windowTitle: app.title, "s")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.starredInStore() == 1 })
            let entry = try XCTUnwrap(list.selectedEntry)
            let date = EntryDateText.text(for: entry.sortDate)
            let row = try XCTUnwrap(descendant(of: list.listView) { widget in
                gtk_widget_get_first_child(widget).map { gtk_widget_has_css_class($0, "entry-row") != 0 } == true
                    && Self.labelMismatch(widget, "Entry 2, Plain, \(date), starred") == nil
            })
            XCTAssertNotNil(row, "the starred, read entry reads as such")
            XCTAssertNotNil(descendant(of: list.listView) { widget in
                Self.labelMismatch(widget, "Entry 1, Plain, \(EntryDateText.text(for: list.entries[list.order[0]]!.sortDate)), unread") == nil
            }, "the unread entry says so")
        }
    }

    /// Nil when `widget`'s accessible label is `expected`, else what differs.
    @MainActor
    static func labelMismatch(_ widget: UnsafeMutablePointer<GtkWidget>, _ expected: String) -> String? {
        guard let message = cgtk_accessible_check_label(cast(widget), expected) else { return nil }
        defer { g_free(message) }
        return String(cString: message)
    }

    /// Nil when `widget`'s accessible description is `expected`, else what differs.
    @MainActor
    static func descriptionMismatch(_ widget: UnsafeMutablePointer<GtkWidget>, _ expected: String) -> String? {
        guard let message = cgtk_accessible_check_description(cast(widget), expected) else { return nil }
        defer { g_free(message) }
        return String(cString: message)
    }
}
