import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The preferences window: every choice of background refresh, notifications and retention,
/// taking effect at once and kept in the settings file.
final class PreferencesWindowTests: XCTestCase {
    func testChoicesTakeEffectAtOnceAndAreKept() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            gtk_widget_activate_action_variant(app.window.window, "win.preferences", nil)
            var found: UnsafeMutablePointer<GtkWidget>?
            XCTAssertTrue(GtkTestEnvironment.iterate {
                found = toplevel(titled: "Preferences")
                return found != nil
            })
            let window = try XCTUnwrap(found)
            defer { gtk_window_destroy(cast(window)) }
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 })
            saveScreen(name: "preferences-window")
            let dropDowns = Self.widgets(under: window, a: gtk_drop_down_get_type())
            let switches = Self.widgets(under: window, a: gtk_switch_get_type())
            XCTAssertEqual(dropDowns.count, 2)
            XCTAssertEqual(switches.count, 6)
            XCTAssertEqual(dropDowns.map { gtk_drop_down_get_selected(cast($0)) }, [2, 2], "every 30 minutes, for 3 months")
            XCTAssertEqual(switches.map { gtk_switch_get_active(cast($0)) != 0 }, [true, true, false, false, true, true])
            let (notify, whenFocused, background) = (switches[1], switches[2], switches[3])
            let keepUnread = switches[4]

            gtk_drop_down_set_selected(cast(dropDowns[0]), 3)
            XCTAssertEqual(app.window.backgroundRefresh.minutes, 60, "the schedule follows at once")
            gtk_drop_down_set_selected(cast(dropDowns[0]), 0)
            XCTAssertEqual(app.window.backgroundRefresh.minutes, 0)
            XCTAssertNil(app.window.backgroundRefresh.nextWake)
            XCTAssertEqual(gtk_widget_is_sensitive(background), 0, "running in the background means nothing with refresh off")
            gtk_switch_set_active(cast(notify), 0)
            XCTAssertEqual(gtk_widget_is_sensitive(whenFocused), 0)
            gtk_drop_down_set_selected(cast(dropDowns[1]), 5)
            XCTAssertEqual(gtk_widget_is_sensitive(keepUnread), 0, "nothing is removed when entries are kept forever")
            saveScreen(name: "preferences-window-changed")

            app.settings.flush()
            let reread = Preferences(settings: SettingsStore(path: app.settings.path))
            XCTAssertEqual(reread.refreshMinutes, 0)
            XCTAssertFalse(reread.notifiesNewEntries)
            XCTAssertEqual(reread.keepDays, 0)
            XCTAssertNil(reread.retention.days)
        }
    }

    func testThePreferencesReadInTheChosenLanguage() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            defer { app.window.switchLanguage(to: "") }
            for (code, title, label) in [("de", "Einstellungen", "Im Hintergrund aktualisieren"), ("ar", "التفضيلات", "التحديث في الخلفية")] {
                app.window.switchLanguage(to: code)
                gtk_widget_activate_action_variant(app.window.window, "win.preferences", nil)
                var found: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    found = toplevel(titled: title)
                    return found.map { gtk_widget_get_mapped($0) != 0 } ?? false
                }, "the window is titled \(title)")
                let window = try XCTUnwrap(found)
                XCTAssertNotNil(descendant(of: window) { widget in
                    isWidget(widget, a: gtk_label_get_type()) && String(cString: gtk_label_get_label(cast(widget))) == label
                }, "\(code): \(label)")
                saveScreen(name: "preferences-window-\(code)")
                gtk_window_destroy(cast(window))
            }
        }
    }

    func testTheOfferedChoicesReadAsPeopleSayThem() {
        onMain {
            XCTAssertEqual(Preferences.refreshChoices.map { Preferences.refreshText($0) },
                           ["Off", "Every 15 minutes", "Every 30 minutes", "Every hour", "Every 2 hours"])
            XCTAssertEqual(Preferences.keepChoices.map { Preferences.keepText($0) },
                           ["For a week", "For a month", "For 3 months", "For 6 months", "For a year", "Forever"])
        }
    }

    /// Every widget of `type` under `root`, depth first.
    @MainActor
    private static func widgets(under root: UnsafeMutablePointer<GtkWidget>, a type: GType) -> [UnsafeMutablePointer<GtkWidget>] {
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if isWidget(widget, a: type) { found.append(widget) }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        visit(root)
        return found
    }
}
