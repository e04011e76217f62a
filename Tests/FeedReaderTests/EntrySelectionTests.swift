import CGtk
@testable import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Several entries selected in the list with Ctrl and Shift, by real clicks and keys: the article
/// stays on the entry read, and the menu's and the keys' actions (labels, read, star) act on all
/// of them, a label with an Undo.
final class EntrySelectionTests: XCTestCase {
    /// A local feed of four entries, newest first Delta, Gamma, Beta, Alpha: "Work" on Gamma and
    /// Alpha, "Later" on Delta.
    private static func makeLibrary() throws -> URL {
        let folder = temporaryDirectory()
        nonisolated(unsafe) var made: Result<Void, any Error>?
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            Task { @MainActor in
                do {
                    let feed = try await store.addFeed(url: URL(string: "https://selection.example/feed.xml")!)
                    let titles = ["Alpha", "Beta", "Gamma", "Delta"]
                    let parsed = ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Selected"), entries: titles.enumerated().map { index, title in
                        Entry(id: title, title: title, published: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)))
                    })
                    try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                          toFeed: feed.id)
                    let ids = Dictionary(uniqueKeysWithValues: try await store.entries().map { ($0.title ?? "", $0.id) })
                    try await store.setLabel("Work", on: [ids["Gamma"]!, ids["Alpha"]!])
                    try await store.setLabel("Later", on: [ids["Delta"]!])
                    made = .success(())
                } catch { made = .failure(error) }
            }
            GtkTestEnvironment.iterate(timeout: 20) { made != nil }
        }
        try XCTUnwrap(made).get()
        return folder
    }

    func testCtrlAndShiftSelectSeveralAndALabelGoesOnAllWithUndo() throws {
        let folder = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: folder)
            defer { app.close() }
            let list = app.window.entryList
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Delta", "Gamma", "Beta", "Alpha"] }, "\(list.shownTitles)")
            XCTAssertTrue(GtkTestEnvironment.waitForFrames(of: app.window.window))
            let id = { (title: String) in list.entries.values.first { $0.title == title }!.id }
            let selectedTitles = { list.selectedIDs.compactMap { list.entries[$0]?.title } }
            let row = { (title: String) in app.point(in: list.rowWidgets(showing: id(title))!.box, x: 60, y: 12) }

            RealInput.click(windowTitle: app.title, at: row("Delta"))
            XCTAssertTrue(GtkTestEnvironment.iterate { selectedTitles() == ["Delta"] }, "\(selectedTitles())")
            RealInput.key(windowTitle: app.title, "shift+Down")
            XCTAssertTrue(GtkTestEnvironment.iterate { selectedTitles() == ["Delta", "Gamma"] }, "Shift+Down extends: \(selectedTitles())")
            RealInput.click(windowTitle: app.title, at: row("Alpha"), holding: "ctrl")
            XCTAssertTrue(GtkTestEnvironment.iterate { selectedTitles() == ["Delta", "Gamma", "Alpha"] }, "Ctrl adds: \(selectedTitles())")
            XCTAssertEqual(list.selectedEntry?.title, "Delta", "the entry read stays the one read")
            XCTAssertEqual(app.window.article.entry?.title, "Delta")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "entries-selected-light") })

            // L opens the labels of all three at the entry read: Work on two of them, Later on one, both half-checked.
            RealInput.key(windowTitle: app.title, "l")
            let readRow = try XCTUnwrap(list.rowWidgets(showing: id("Delta"))).box
            var popover: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                popover = descendant(of: readRow) { isWidget($0, a: gtk_popover_get_type()) && gtk_widget_get_mapped($0) != 0 }
                return popover != nil
            }, "L opens the labels at the entry read")
            let check = { (name: String) in
                descendant(of: popover!) { isWidget($0, a: gtk_check_button_get_type()) && gtk_check_button_get_label(cast($0)).map { String(cString: $0) } == name }
            }
            for name in ["Work", "Later"] {
                XCTAssertEqual(check(name).map { gtk_check_button_get_inconsistent(cast($0)) }, 1, name)
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "label-popover-several-light") })

            let store = app.window.library.store
            let labelled = { () -> [String: [String]]? in
                nonisolated(unsafe) var names: [Int64: [String]]?
                Task { @MainActor in names = try? await store.labelNames(ofEntries: Array(list.entries.keys)) }
                guard GtkTestEnvironment.iterate(timeout: 5, until: { names != nil }), let names else { return nil }
                return Dictionary(uniqueKeysWithValues: list.entries.values.map { ($0.title ?? "", names[$0.id] ?? []) })
            }
            let work = try XCTUnwrap(check("Work"))
            let toasts = app.window.notices.toasts
            // Without the toast's slide, so the click lands where its button is.
            try GtkTestEnvironment.withAnimations(false) {
                // Toggled as SidebarLabelsTests toggles it: the popover is a surface of its own, which a point in the window does not reach.
                gtk_check_button_set_active(cast(work), 1)
                XCTAssertTrue(GtkTestEnvironment.iterate { labelled()?["Delta"] == ["Later", "Work"] })
                XCTAssertEqual(gtk_check_button_get_inconsistent(cast(work)), 0)
                XCTAssertEqual(labelled(), ["Delta": ["Later", "Work"], "Gamma": ["Work"], "Beta": [], "Alpha": ["Work"]])
                XCTAssertTrue(GtkTestEnvironment.iterate { toasts.message == "Label “\u{2068}Work\u{2069}” put on the selected entries" },
                              toasts.message ?? "no toast")
                RealInput.key(windowTitle: app.title, "Escape")
                XCTAssertTrue(GtkTestEnvironment.iterate { descendant(of: readRow) { isWidget($0, a: gtk_popover_get_type()) } == nil },
                              "closed and let go")
                var undo: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    undo = toastButton(labelled: "_Undo", in: app.window)
                    return undo.map { gtk_widget_get_mapped($0) != 0 && gtk_widget_get_width($0) > 0 } ?? false
                }, "the toast shows its Undo button")
                XCTAssertTrue(GtkTestEnvironment.waitForFrames(of: app.window.window))
                RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(undo), x: 12, y: 10))
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { labelled()?["Delta"] == ["Later"] }, "Undo takes it off only where it was put on")
            XCTAssertEqual(labelled(), ["Delta": ["Later"], "Gamma": ["Work"], "Beta": [], "Alpha": ["Work"]])
        }
    }

    /// M and S on several entries mark all of them read (with the Undo of a mark read) or
    /// unread, star or unstar all of them; the right-click menu of one of them offers the same.
    func testReadAndStarActOnEverySelectedEntry() throws {
        let folder = try Self.makeLibrary()
        try onMain {
            let app = try ReaderFixture(healingStoreIn: folder)
            defer { app.close() }
            app.window.preferences.markRead = .byHand
            let list = app.window.entryList
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles.count == 4 }, "\(list.shownTitles)")
            XCTAssertTrue(GtkTestEnvironment.waitForFrames(of: app.window.window))
            let id = { (title: String) in list.entries.values.first { $0.title == title }!.id }
            let row = { (title: String) in app.point(in: list.rowWidgets(showing: id(title))!.box, x: 60, y: 12) }
            let marks = { ["Gamma", "Beta"].map { list.entries[id($0)].map { "\($0.isRead ? "read" : "unread") \($0.isStarred ? "starred" : "-")" } ?? "" } }

            RealInput.click(windowTitle: app.title, at: row("Gamma"))
            RealInput.click(windowTitle: app.title, at: row("Beta"), holding: "ctrl")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.selectedIDs == [id("Gamma"), id("Beta")] })
            RealInput.key(windowTitle: app.title, "m")
            XCTAssertTrue(GtkTestEnvironment.iterate { marks() == ["read -", "read -"] }, "\(marks())")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.notices.toasts.message == "2 entries marked as read" })
            XCTAssertEqual(app.unreadInStore(), 2)
            XCTAssertEqual(list.selectedIDs, [id("Gamma"), id("Beta")], "the selection stays across the list's reload")
            RealInput.key(windowTitle: app.title, "s")
            XCTAssertTrue(GtkTestEnvironment.iterate { marks() == ["read starred", "read starred"] }, "\(marks())")

            let menu = try XCTUnwrap(Self.openedMenu(on: row("Beta"), of: list.rowWidgets(showing: id("Beta"))!.box, in: app))
            XCTAssertEqual(RulesWindowTests.menuItems(of: menu).map(\.0), ["Unstar", "Mark as Unread", "Labels…"])
            RealInput.key(windowTitle: app.title, "Escape")
            g_action_group_activate_action(cast(app.window.window), "unread-selected", nil)
            g_action_group_activate_action(cast(app.window.window), "unstar-selected", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { marks() == ["unread -", "unread -"] }, "\(marks())")
            XCTAssertEqual(app.unreadInStore(), 4)
        }
    }

    /// Right-clicks at `point`, on `row`, and returns the popover menu that opens there.
    @MainActor
    private static func openedMenu(on point: (x: Int, y: Int), of row: UnsafeMutablePointer<GtkWidget>,
                                   in app: ReaderFixture) -> UnsafeMutablePointer<GtkWidget>? {
        RealInput.click(windowTitle: app.title, at: point, rightButton: true)
        var menu: UnsafeMutablePointer<GtkWidget>?
        GtkTestEnvironment.iterate {
            menu = descendant(of: row) { isWidget($0, a: gtk_popover_menu_get_type()) && gtk_widget_get_mapped($0) != 0 }
            return menu != nil
        }
        return menu
    }
}
