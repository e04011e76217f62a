import CAdw
import CGtk
@testable import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Labels are rows of the sidebar after the accounts, under a "Labels" heading, with their unread counts (a rule's hidden
/// entries left out), and list their entries when selected; written through FeedStore as a
/// person's labelling or a sync writes them.
final class SidebarLabelsTests: XCTestCase {
    private struct Library {
        var folder: URL
        var feed: Int64
        var work: Int64
        var later: Int64
    }

    /// A local feed of four entries: "Work" on Alpha, Beta (read) and Gamma, "Later" on Delta.
    private static func makeLibrary() throws -> Library {
        let folder = temporaryDirectory()
        nonisolated(unsafe) var made: Result<Library, any Error>?
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    let feed = try await store.addFeed(url: URL(string: "https://labels.example/feed.xml")!)
                    let titles = ["Alpha", "Beta", "Gamma", "Delta"]
                    let parsed = ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Labelled"), entries: titles.enumerated().map { index, title in
                        Entry(id: title, title: title, published: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)))
                    })
                    try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                          toFeed: feed.id)
                    let ids = Dictionary(uniqueKeysWithValues: try await store.entries().map { ($0.title ?? "", $0.id) })
                    try await store.setLabel("Work", on: [ids["Alpha"]!, ids["Beta"]!, ids["Gamma"]!])
                    try await store.setLabel("Later", on: [ids["Delta"]!])
                    try await store.markRead(entryID: ids["Beta"]!)
                    let labels = try await store.labels()
                    made = .success(Library(folder: folder, feed: feed.id, work: try XCTUnwrap(labels.first { $0.name == "Work" }?.id),
                                            later: try XCTUnwrap(labels.first { $0.name == "Later" }?.id)))
                } catch { made = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 20) { made != nil }
        }
        return try XCTUnwrap(made).get()
    }

    func testEachLabelIsARowWithItsUnreadCountListingItsEntries() throws {
        let library = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate {
                sidebar.items == [.all, .starred, .feed(library.feed), .labelsHeading, .label(library.later), .label(library.work)]
            }, "labels after the feeds, under their heading, by name: \(sidebar.items)")
            XCTAssertEqual(Self.shown(.labelsHeading, in: sidebar), ["Labels"])
            let heading = try XCTUnwrap(sidebar.rowWidgets(showing: .labelsHeading))
            XCTAssertEqual(gtk_widget_get_visible(heading.iconWithBadge), 0, "a heading has no icon")
            XCTAssertNotEqual(gtk_widget_has_css_class(heading.name, "heading"), 0)
            XCTAssertNil(sidebar.menu(for: .labelsHeading))

            // A click on the heading selects nothing; moving from row to row passes it over.
            sidebar.select(.feed(library.feed))
            XCTAssertTrue(GtkTestEnvironment.waitForFrames(of: app.window.window))
            RealInput.click(windowTitle: app.title, at: app.point(in: heading.box, x: 20, y: 8))
            GtkTestEnvironment.settleInput()
            XCTAssertEqual(sidebar.selection, .feed(library.feed))
            sidebar.selectAdjacent(1)
            XCTAssertEqual(sidebar.selection, .label(library.later))
            sidebar.selectAdjacent(-1)
            XCTAssertEqual(sidebar.selection, .feed(library.feed))
            XCTAssertEqual(Self.shown(.label(library.work), in: sidebar), ["Work", "2"])
            XCTAssertEqual(Self.shown(.label(library.later), in: sidebar), ["Later", "1"])
            let row = try XCTUnwrap(sidebar.rowWidget(showing: .label(library.work)))
            XCTAssertNil(AccessibilityTests.labelMismatch(row, "Work, 2 unread"))

            sidebar.select(.label(library.work))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.shownTitles == ["Gamma", "Beta", "Alpha"] },
                          "\(app.window.entryList.shownTitles)")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "sidebar-labels-light") })

            // "Mark as Read" from the main menu reads what the label lists, and only that.
            g_action_group_activate_action(cast(app.window.window), "mark-all-read", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shown(.label(library.work), in: sidebar) == ["Work"] },
                          "\(Self.shown(.label(library.work), in: sidebar))")
            XCTAssertEqual(Self.shown(.label(library.later), in: sidebar), ["Later", "1"])
            XCTAssertEqual(app.unreadInStore(), 1)
        }
    }

    /// The entry menu's Labels popover checks the entry's labels, puts one on or takes it off at
    /// once, makes a new one, and refuses an empty name in words; the sidebar's rows follow.
    func testTheLabelsPopoverChangesAnEntrysLabels() throws {
        let library = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            let list = app.window.entryList
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles.count == 4 }, "\(list.shownTitles)")
            let alpha = try XCTUnwrap(list.entries.values.first { $0.title == "Alpha" }?.id)
            nonisolated(unsafe) var opened: EntryLabelsPopover?
            app.window.reading.showLabels(ofEntry: alpha) { opened = $0 }
            XCTAssertTrue(GtkTestEnvironment.iterate { opened.map { gtk_widget_get_mapped($0.popover) != 0 } == true })
            let popover = try XCTUnwrap(opened)
            XCTAssertEqual(popover.buttons.keys.sorted(), ["Later", "Work"])
            XCTAssertEqual(gtk_check_button_get_active(cast(popover.buttons["Work"]!)), 1)
            XCTAssertEqual(gtk_check_button_get_active(cast(popover.buttons["Later"]!)), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "label-popover-light") })

            gtk_check_button_set_active(cast(popover.buttons["Later"]!), 1)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shown(.label(library.later), in: sidebar) == ["Later", "2"] },
                          "\(Self.shown(.label(library.later), in: sidebar))")
            gtk_check_button_set_active(cast(popover.buttons["Work"]!), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shown(.label(library.work), in: sidebar) == ["Work", "1"] })

            Self.type(" \u{202E} ", into: popover.field, of: app)
            XCTAssertTrue(GtkTestEnvironment.iterate { popover.problemText == "A label needs a name." }, popover.problemText)
            Self.type("Fresh", into: popover.field, of: app)
            XCTAssertTrue(GtkTestEnvironment.iterate { popover.buttons["Fresh"].map { gtk_check_button_get_active(cast($0)) } == 1 })
            XCTAssertEqual(popover.problemText, "")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.count == 7 }, "\(sidebar.items)")
            XCTAssertEqual(sidebar.items.compactMap { Self.shown($0, in: sidebar).first }.suffix(3), ["Fresh", "Later", "Work"])

            // Escape closes it, and the keys go to the window again.
            RealInput.key(windowTitle: app.title, "Escape")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_parent(popover.popover) == nil }, "closed and let go")
        }
    }

    /// Puts `text` into `field` and presses a real Return key in the window.
    @MainActor
    private static func type(_ text: String, into field: UnsafeMutablePointer<GtkWidget>, of app: ReaderFixture) {
        gtk_editable_set_text(cast(field), text)
        XCTAssertNotEqual(gtk_widget_grab_focus(field), 0)
        RealInput.key(windowTitle: app.title, "Return")
    }

    /// A label's menu renames it (a name another label has is refused in a toast) and deletes it
    /// after asking; its entries stay, and the list falls back to All Feeds.
    func testALabelsMenuRenamesAndDeletesIt() throws {
        let library = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: library.folder)
            defer { app.close() }
            let sidebar = app.window.sidebar
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.items.contains(.label(library.work)) })
            XCTAssertEqual(SidebarAccountsTests.menuActions(sidebar.menu(for: .label(library.work))), ["win.rename-label", "win.delete-label"])
            sidebar.select(.label(library.work))

            g_action_group_activate_action(cast(app.window.window), "rename-label", g_variant_new_int64(gint64(library.work)))
            var rename = try XCTUnwrap(MessageDialogTests.appearing("Rename Label"))
            var entry = try XCTUnwrap(descendant(of: rename) { isWidget($0, a: gtk_entry_get_type()) })
            XCTAssertEqual(String(cString: gtk_editable_get_text(cast(entry))), "Work")
            gtk_editable_set_text(cast(entry), "Later")
            adw_message_dialog_response(cast(rename), NameDialog.Response.accept)
            XCTAssertTrue(GtkTestEnvironment.iterate {
                descendant(of: app.window.window) { widget in
                    isWidget(widget, a: gtk_label_get_type()) && gtk_widget_get_mapped(widget) != 0
                        && String(cString: gtk_label_get_text(cast(widget))) == "There is a label named “\u{2068}Later\u{2069}” already."
                } != nil
            }, "the toast says why")
            XCTAssertEqual(Self.shown(.label(library.work), in: sidebar), ["Work", "2"])

            g_action_group_activate_action(cast(app.window.window), "rename-label", g_variant_new_int64(gint64(library.work)))
            rename = try XCTUnwrap(MessageDialogTests.appearing("Rename Label"))
            entry = try XCTUnwrap(descendant(of: rename) { isWidget($0, a: gtk_entry_get_type()) })
            gtk_editable_set_text(cast(entry), "Job")
            adw_message_dialog_response(cast(rename), NameDialog.Response.accept)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shown(.label(library.work), in: sidebar) == ["Job", "2"] })

            g_action_group_activate_action(cast(app.window.window), "delete-label", g_variant_new_int64(gint64(library.work)))
            let question = try XCTUnwrap(MessageDialogTests.appearing("Delete Label?"))
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(cast(question))),
                           "“\u{2068}Job\u{2069}” is taken off its entries, on their servers too. The entries stay.")
            adw_message_dialog_response(cast(question), ConfirmDialog.Response.confirm)
            XCTAssertTrue(GtkTestEnvironment.iterate { !sidebar.items.contains(.label(library.work)) }, "\(sidebar.items)")
            XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.selection == .all && app.window.entryList.shownTitles.count == 4 })
        }
    }

    /// The texts a row shows: its name and its unread count, when there is one.
    @MainActor
    private static func shown(_ item: FeedSelection, in sidebar: FeedSidebar) -> [String] {
        guard let widgets = sidebar.rowWidgets(showing: item) else { return [] }
        return [widgets.name, widgets.count].filter { gtk_widget_get_visible($0) != 0 }
            .map { String(cString: gtk_label_get_text(cast($0))) }.filter { !$0.isEmpty }
    }
}
