import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The new-entries notification shown by a real notification daemon, Debian's dunst, on the
/// test's display and session bus: the text it shows, and a click through its own action interface.
final class DunstNotificationTests: XCTestCase {
    func testTheDaemonShowsTheNotificationAndItsClickShowsTheNewEntries() throws {
        let feed = ServedFeed(entries: 5)
        let server = try TestHTTPServer { _ in .ok(feed.xml) }
        defer { server.stop() }
        let daemon = try Dunst()
        defer { daemon.stop() }
        try onMain {
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { Dunst.busNameOwner("org.freedesktop.Notifications") != nil },
                          "dunst owns org.freedesktop.Notifications")
            XCTAssertNil(Dunst.busNameOwner("org.gtk.Notifications"),
                         "no org.gtk.Notifications service: GApplication uses its freedesktop backend")
            let clock = ManualClock()
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString, now: clock.reader)
            defer { app.close() }
            let list = app.window.entryList
            XCTAssertTrue(GtkTestEnvironment.iterate { list.order.count == 5 })
            let refresher = app.window.backgroundRefresh
            XCTAssertTrue(GtkTestEnvironment.iterate { refresher.nextWake != nil })
            app.window.preferences.notifiesWhenFocused = true
            app.window.sidebar.select(.starred)
            feed.publish(3)

            clock.advance(to: try XCTUnwrap(refresher.nextWake))
            refresher.wake()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { (try? daemon.count("displayed")) == 1 }, "one bubble is shown")
            saveScreen(name: "notification-dunst-bubble")

            try daemon.control(["action", "0"])
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                list.filter == .unread && app.window.sidebar.selection == .all && list.shownTitles.first == "Served entry 8"
            }, "the click shows the new entries: filter \(list.filter), titles \(list.shownTitles.prefix(2))")
            saveScreen(name: "notification-dunst-clicked")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 5) { (try? daemon.count("displayed")) == 0 }, "the bubble went")
            let shown = try daemon.history()
            XCTAssertEqual(shown.map(\.summary), ["Feed Reader"])
            XCTAssertEqual(shown.map(\.body), ["3 new entries in 1 feed"])
        }
    }
}

/// dunst running on the test's display and session bus, with bubbles that stay until clicked.
final class Dunst: @unchecked Sendable {
    struct Shown: Decodable {
        var summary: String
        var body: String
    }

    private let process: Subprocess
    private let folder = temporaryDirectory()

    init() throws {
        let config = folder.appendingPathComponent("dunstrc")
        try Data("""
            [global]
                font = Sans 11
                width = 360
                origin = top-right
                offset = 16x16
            [urgency_normal]
                timeout = 0
            """.utf8).write(to: config)
        process = try Subprocess("/usr/bin/dunst", ["-config", config.path])
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `dunstctl count displayed` (or waiting, history).
    func count(_ kind: String) throws -> Int? {
        Int(try control(["count", kind]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The notifications closed so far, newest first, as `dunstctl history` tells them.
    func history() throws -> [Shown] {
        struct History: Decodable {
            struct Field: Decodable { var data: String }
            struct Entry: Decodable { var summary: Field; var body: Field }
            var data: [[Entry]]
        }
        let history = try JSONDecoder().decode(History.self, from: Data(try control(["history"]).utf8))
        return history.data.flatMap { $0 }.map { Shown(summary: $0.summary.data, body: $0.body.data) }
    }

    /// Runs dunstctl, the daemon's own control tool, and returns what it printed.
    @discardableResult
    func control(_ arguments: [String]) throws -> String {
        try Subprocess("/usr/bin/dunstctl", arguments).wait().output
    }

    /// The unique name owning `name` on the session bus, if any.
    @MainActor
    static func busNameOwner(_ name: String) -> String? {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return nil }
        defer { g_object_unref(cast(bus)) }
        let type = g_variant_type_new("(s)")
        defer { g_variant_type_free(type) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "GetNameOwner", g_variant_new_tuple([g_variant_new_string(name)], 1), type,
                                                      G_DBUS_CALL_FLAGS_NONE, -1, nil, nil) else { return nil }
        defer { g_variant_unref(reply) }
        let child = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }
}
