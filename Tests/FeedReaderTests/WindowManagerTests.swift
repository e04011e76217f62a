import CGtk
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// What only a window manager does to the window, under GNOME's (mutter, started by
/// meson-helpers/window-manager-session; meson-helpers/test runs this suite there alone).
final class WindowManagerTests: XCTestCase {
    /// Maximized by the person, the window opens maximized at the next start, and unmaximized
    /// it is an ordinary window again, the size it had before kept in the settings.
    func testAWindowMaximizedIsMaximizedAtTheNextStart() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            typealias Key = WindowKey
            let window = app.window.window
            gtk_window_set_default_size(cast(window), 1000, 650)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.settings.integer(forKey: Key.width, in: Key.group) == 1000 })

            gtk_window_maximize(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_window_is_maximized(cast(window)) != 0 },
                          "the window manager maximized it (run under meson-helpers/window-manager-session)")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.settings.integer(forKey: Key.maximized, in: Key.group) == 1 },
                          "kept as it changes")
            XCTAssertEqual(app.settings.integer(forKey: Key.width, in: Key.group), 1000, "the size before maximizing is kept")
            app.close()

            let reopened = try app.restarted()
            defer { reopened.close() }
            let again = reopened.window.window
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_window_is_maximized(cast(again)) != 0 }, "opens maximized")
            gtk_window_unmaximize(cast(again))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_window_is_maximized(cast(again)) == 0 }, "unmaximized")
            XCTAssertTrue(GtkTestEnvironment.iterate { reopened.settings.integer(forKey: Key.maximized, in: Key.group) == 0 })
        }
    }
}
