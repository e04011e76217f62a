import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Marking read as the list scrolls (Preferences, off by default), and Mark Above / Below as
/// Read from an entry's menu, each with one Undo.
final class ScrollMarkingTests: XCTestCase {
    func testWheelScrollingMarksThePassedEntriesReadInBatchesThatOneUndoRestores() throws {
        try withReader(serving: plainFeed(entries: 40), entries: 40) { app in try GtkTestEnvironment.withAnimations(false) {
            let list = app.window.entryList
            let toasts = app.window.notices.toasts
            app.window.preferences.marksReadOnScroll = true
            let wheelPoint = app.point(in: list.listView, x: 100, y: 100)

            RealInput.wheel(windowTitle: app.title, at: wheelPoint, button: 5, count: 3)
            XCTAssertTrue(GtkTestEnvironment.iterate { (app.unreadInStore() ?? 40) < 40 }, "the wheel scrolled entries past the top")
            XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == Self.marked(40 - (app.unreadInStore() ?? 0)) },
                          toasts.message ?? "no toast")
            let firstBatch = 40 - (app.unreadInStore() ?? 0)
            Self.assertPassedAreRead(list, app)

            // A second batch while the first one's toast is up: one Undo for both.
            RealInput.wheel(windowTitle: app.title, at: wheelPoint, button: 5, count: 3)
            XCTAssertTrue(GtkTestEnvironment.iterate { (app.unreadInStore() ?? 40) < 40 - firstBatch }, "scrolling on marked more")
            XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == Self.marked(40 - (app.unreadInStore() ?? 0)) },
                          "the toast counts both batches: \(toasts.message ?? "no toast")")
            Self.assertPassedAreRead(list, app)
            XCTAssertEqual(list.entries[list.order[list.firstPositionBelowTop]]?.isRead, false, "the entry at the top stays unread")

            do {
                var undo: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    undo = toastButton(labelled: "_Undo", in: app.window)
                    return undo.map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_width($0) > 0 } ?? false
                })
                saveRender(app.window.window, name: "mark-read-on-scroll-toast")
                RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(undo), x: 12, y: 10))
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 40 }, "one Undo brought both batches back")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.entries.values.allSatisfy { !$0.isRead } }, "the rows show them unread")
        } }
    }

    func testScrollingMarksNothingUnlessTurnedOn() throws {
        try withReader(serving: plainFeed(entries: 40), entries: 40) { app in
            XCTAssertFalse(app.window.preferences.marksReadOnScroll, "off by default")
            let adjustment = try XCTUnwrap(app.window.entryList.verticalAdjustment)
            RealInput.wheel(windowTitle: app.title, at: app.point(in: app.window.entryList.listView, x: 100, y: 100), button: 5, count: 6)
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_adjustment_get_value(adjustment) > 200 }, "the list scrolled")
            // Nothing marks that nothing was marked: longer than a batch's wait.
            GtkTestEnvironment.iterate(for: ScrollMarking.batchDelay * 3)
            XCTAssertEqual(app.unreadInStore(), 40)
            XCTAssertNil(app.window.notices.toasts.message)
        }
    }

    func testMarkAboveAndBelowMarkWhatTheListShowsThereWithUndo() throws {
        // 70 entries: the list loads 50, so below reaches entries not loaded yet.
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 70)) }
        defer { server.stop() }
        try withReader(subscribedTo: server, entries: 50) { app in try GtkTestEnvironment.withAnimations(false) {
            let list = app.window.entryList
            let toasts = app.window.notices.toasts
            let tenth = list.order[10]
            XCTAssertEqual(list.markAroundItems(for: tenth).map(\.0), ["Mark Above as Read", "Mark Below as Read"])
            XCTAssertEqual(list.markAroundItems(for: list.order[0]).map(\.0), ["Mark Below as Read"], "nothing is above the first")

            g_action_group_activate_action(cast(app.window.window), "mark-above-read", g_variant_new_int64(gint64(tenth)))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 60 })
            XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == Self.marked(10) }, toasts.message ?? "no toast")
            XCTAssertEqual(list.order.prefix(11).map { list.entries[$0]?.isRead }, Array(repeating: true, count: 10) + [false])

            g_action_group_activate_action(cast(app.window.window), "mark-below-read", g_variant_new_int64(gint64(tenth)))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 1 }, "below takes the unloaded entries too")
            XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == Self.marked(59) }, toasts.message ?? "no toast")
            XCTAssertEqual(list.entries[tenth]?.isRead, false, "the entry itself stays as it was")
            XCTAssertTrue(list.order.dropFirst(11).allSatisfy { list.entries[$0]?.isRead == true })

            do {
                var undo: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    undo = toastButton(labelled: "_Undo", in: app.window)
                    return undo.map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_width($0) > 0 } ?? false
                })
                RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(undo), x: 12, y: 10))
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.unreadInStore() == 60 }, "Undo brought back those below")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.order.dropFirst(11).allSatisfy { list.entries[$0]?.isRead == false } })
        } }
    }

    /// "N entries marked as read".
    static func marked(_ count: Int) -> String { count == 1 ? "1 entry marked as read" : "\(count) entries marked as read" }

    /// Every entry above the first row still in view is read, in the store and in its row.
    @MainActor
    static func assertPassedAreRead(_ list: EntryListView, _ app: ReaderFixture, file: StaticString = #filePath, line: UInt = #line) {
        let boundary = list.firstPositionBelowTop
        XCTAssertGreaterThan(boundary, 0, "entries scrolled past the top", file: file, line: line)
        XCTAssertTrue(list.order.prefix(boundary).allSatisfy { list.entries[$0]?.isRead == true }, "passed rows read", file: file, line: line)
    }
}
