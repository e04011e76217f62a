import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The text under Add Feed's and Add Account's fields, built alone, in every language of the
/// catalogs: its example addresses read whole, and an error in the hint's place leaves the
/// dialog its size.
final class DialogMessageTests: XCTestCase {
    /// English, then each catalog's language.
    private static let languages: [String?] = [nil] + SyncMessageLanguageTests.languages

    /// Runs `body` on the main thread once per language of ``languages`` (with its name, "en"
    /// for the default) while the app speaks it, and in the default language again after.
    private static func inEveryLanguage(_ body: @MainActor (_ language: String?, _ name: String) throws -> Void) throws {
        try onMain {
            adw_init()
            defer { LanguageChoice.speak(nil) }
            for language in languages {
                LanguageChoice.speak(language)
                try body(language, language ?? "en")
            }
        }
    }

    /// Add Account's hint broke "https://example.org/tt-rss/" at its hyphen ("…/tt-" then
    /// "rss/"): each service's example address is on one line, in every language, and the
    /// dialog keeps its width.
    func testTheExampleAddressOfEachServiceStaysOnOneLineInEveryLanguage() throws {
        let addresses = ["https://example.org/tt-rss/", "https://example.org/api/greader.php", "https://example.org/api/fever.php"]
        try Self.inEveryLanguage { language, name in
            let dialog = AddAccountDialog(accounts: AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))) { _ in }
            defer { gtk_window_destroy(cast(dialog.window)) }
            let width = try Self.show(dialog.window)
            let serviceRow = try XCTUnwrap(descendant(of: dialog.window) { isWidget($0, a: adw_combo_row_get_type()) })
            XCTAssertEqual(dialog.choices.count, addresses.count)
            for (index, address) in addresses.enumerated() {
                adw_combo_row_set_selected(cast(serviceRow), guint(index))
                GtkTestEnvironment.waitForFrames(of: dialog.window)
                let label = dialog.message.label
                let text = dialog.message.text
                XCTAssertEqual(text, dialog.choices[index].help, "\(name): the hint of the service chosen")
                let range = try XCTUnwrap(text.range(of: address), "\(name): \(text)")
                let start = Int32(text.utf8.distance(from: text.startIndex, to: range.lowerBound))
                let end = Int32(text.utf8.distance(from: text.startIndex, to: range.upperBound)) - 1
                let layout = gtk_label_get_layout(cast(label))
                var (startLine, endLine, x): (Int32, Int32, Int32) = (0, 0, 0)
                pango_layout_index_to_line_x(layout, start, 0, &startLine, &x)
                pango_layout_index_to_line_x(layout, end, 0, &endLine, &x)
                XCTAssertEqual(startLine, endLine, "\(name): \(address) is cut across lines in \"\(text)\"")
                XCTAssertEqual(gtk_widget_get_width(dialog.window), width, "\(name), \(address): the dialog keeps its width")
            }
            if language == "de" || language == nil {
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(dialog.window, name: "add-account-hint-\(name)") })
            }
        }
    }

    /// The German hint of Add Feed ended on a line of its own two words ("…einer Webseite ein,
    /// die" then "einen hat."), and Add Account's Google Reader and Fever hints on one word in
    /// five languages: Add Feed's hint and each of Add Account's, in every language, are one line
    /// or end in a line at least a fifth of the place wide.
    func testNoHintEndsInALoneWordInAnyLanguage() throws {
        try Self.inEveryLanguage { _, name in
            let addFeed = AddFeedDialog(library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
            defer { gtk_window_destroy(cast(addFeed.window)) }
            _ = try Self.show(addFeed.window)
            let hint = try XCTUnwrap(descendant(of: addFeed.window) {
                isWidget($0, a: gtk_label_get_type()) && gtk_label_get_text(cast($0)).map { String(cString: $0) } == addFeed.messageText
            })
            Self.assertNoLoneWord(hint, "\(name), Add Feed")
            let addAccount = AddAccountDialog(accounts: AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))) { _ in }
            defer { gtk_window_destroy(cast(addAccount.window)) }
            _ = try Self.show(addAccount.window)
            let serviceRow = try XCTUnwrap(descendant(of: addAccount.window) { isWidget($0, a: adw_combo_row_get_type()) })
            // The Google Reader and Fever hints ended on a lone word in five languages too.
            for (index, choice) in addAccount.choices.enumerated() {
                adw_combo_row_set_selected(cast(serviceRow), guint(index))
                GtkTestEnvironment.waitForFrames(of: addAccount.window)
                Self.assertNoLoneWord(addAccount.message.label, "\(name), Add Account, \(choice.label)")
                if ["en", "de", "fr", "it", "ja", "ar"].contains(name) {
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(addAccount.window, name: "add-account-hint-\(index)-\(name)") })
                }
            }
        }
    }

    /// Checks that `label` is one line, or that its last line is at least a fifth of its width.
    @MainActor
    private static func assertNoLoneWord(_ label: UnsafeMutablePointer<GtkWidget>, _ what: String) {
        let layout = gtk_label_get_layout(cast(label))
        let count = pango_layout_get_line_count(layout)
        guard count > 1 else { return }
        var logical = PangoRectangle()
        pango_layout_line_get_pixel_extents(pango_layout_get_line_readonly(layout, count - 1), nil, &logical)
        XCTAssertGreaterThanOrEqual(logical.width * 5, gtk_widget_get_width(label),
                                    "\(what): the last line is alone: \"\(String(cString: gtk_label_get_text(cast(label))))\"")
    }

    /// Add Account grew by a line or three when a login failed, and Add Feed when an error
    /// needed more than two lines: the error takes the hint's place, the dialog keeps its size,
    /// and every error fits that place whole, in every language. The servers are real: one on
    /// 127.0.0.1 that answers 404, 403 or 503, and a port nothing listens on.
    func testAnErrorTakesTheHintsPlaceAndTheDialogKeepsItsSizeInEveryLanguage() throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/forbidden.xml": .status(403)
            case "/busy.xml": .status(503)
            default: .status(404)
            }
        }
        defer { server.stop() }
        let closed = try TestHTTPServer { _ in .status(404) }
        let unreachable = closed.url("/feed.xml").absoluteString
        closed.stop()
        let feedAddresses = [unreachable, server.url("/gone.xml").absoluteString, server.url("/forbidden.xml").absoluteString,
                             server.url("/busy.xml").absoluteString]
        try onMain {
            adw_init()
            defer { LanguageChoice.speak(nil) }
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            for language in Self.languages {
                LanguageChoice.speak(language)
                let name = language ?? "en"

                let addFeed = AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
                defer { gtk_window_destroy(cast(addFeed.window)) }
                _ = try Self.show(addFeed.window)
                let hint = addFeed.messageText
                let feedHeight = gtk_widget_get_height(addFeed.window)
                for address in feedAddresses {
                    addFeed.enter(address)
                    addFeed.add()
                    XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { addFeed.messageText != hint && addFeed.entryShowsError },
                                  "\(name): \(address) fails")
                    try Self.assertFits(addFeed.window, height: feedHeight, "\(name), Add Feed: \(addFeed.messageText)")
                }
                // A message longer than the place (it names the scheme typed) scrolls there: the dialog still keeps its height.
                let scheme = String(repeating: "x", count: 400)
                addFeed.enter(scheme + "://example.org/feed.xml")
                XCTAssertTrue(addFeed.messageText.contains(scheme), "\(name): \(addFeed.messageText)")
                GtkTestEnvironment.waitForFrames(of: addFeed.window)
                XCTAssertEqual(gtk_widget_get_height(addFeed.window), feedHeight, "\(name): the dialog keeps its height with a long message")

                let addAccount = AddAccountDialog(accounts: AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))) { _ in }
                defer { gtk_window_destroy(cast(addAccount.window)) }
                gtk_window_set_transient_for(cast(addAccount.window), cast(parent))
                _ = try Self.show(addAccount.window)
                let accountHeight = gtk_widget_get_height(addAccount.window)
                let rows = PreferencesWindowTests.widgets(under: addAccount.window, a: adw_entry_row_get_type())
                for (row, text) in zip(rows, [closed.url("/tt-rss/").absoluteString, "bob", "secret"]) { gtk_editable_set_text(cast(row), text) }
                try Self.assertFits(addAccount.window, height: accountHeight, "\(name), Add Account with an http:// address: \(addAccount.message.text)")
                gtk_widget_activate_action_variant(addAccount.window, "add-account.add", nil)
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                    addAccount.message.text.hasPrefix(tr("The account could not be added.")) && addAccount.canAdd
                }, "\(name): \(addAccount.message.text)")
                try Self.assertFits(addAccount.window, height: accountHeight, "\(name), Add Account: \(addAccount.message.text)")
                if language == "de" || language == nil {
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(addFeed.window, name: "add-feed-error-\(name)") })
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(addAccount.window, name: "add-account-error-\(name)") })
                }
            }
        }
    }

    /// Presents `window` and gives its width once it is drawn.
    @MainActor
    private static func show(_ window: UnsafeMutablePointer<GtkWidget>) throws -> Int32 {
        gtk_window_present(cast(window))
        XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 && gtk_widget_get_height(window) > 0 })
        GtkTestEnvironment.waitForFrames(of: window)
        return gtk_widget_get_width(window)
    }

    /// Checks that `window` is still `height` tall, and that its message shows whole, with nothing to scroll.
    @MainActor
    private static func assertFits(_ window: UnsafeMutablePointer<GtkWidget>, height: Int32, _ what: String) throws {
        GtkTestEnvironment.waitForFrames(of: window)
        XCTAssertEqual(gtk_widget_get_height(window), height, "the dialog keeps its height: \(what)")
        let place = try XCTUnwrap(descendant(of: window) { isWidget($0, a: gtk_scrolled_window_get_type()) })
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(place))
        XCTAssertLessThanOrEqual(gtk_adjustment_get_upper(adjustment), gtk_adjustment_get_page_size(adjustment),
                                 "the message fits its place whole: \(what)")
    }
}
