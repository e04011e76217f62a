import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Pasting a web page's address into Add Feed: its feeds are found and offered; problems are
/// said in words, and the dialog stays usable from the keyboard.
final class AddFeedDiscoveryTests: XCTestCase {
    private static func rss(_ title: String) -> Data {
        Data("<rss version=\"2.0\"><channel><title>\(title)</title><item><title>x</title><guid>x</guid></item></channel></rss>".utf8)
    }

    func testAPageWithSeveralFeedsOffersThemAndTheChosenOneIsAdded() throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/": .ok(Data("""
                <html><head><link rel="alternate" type="application/rss+xml" title="Articles" href="/articles.xml">
                <link rel="alternate" type="application/atom+xml" title="Comments" href="/comments.xml"></head></html>
                """.utf8))
            case "/articles.xml": .ok(Self.rss("Articles"))
            default: .ok(Self.rss("Comments"))
            }
        }
        defer { server.stop() }
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let library = FeedLibrary(store: try FeedStore.inMemory())
            var added: StoredFeed?
            let dialog = AddFeedDialog.present(over: parent, library: library) { added = $0 }

            dialog.enter(server.url("/").absoluteString)
            dialog.add()

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { dialog.candidates.count == 2 })
            XCTAssertEqual(dialog.candidates.map(\.title), ["Articles", "Comments"])
            XCTAssertEqual(dialog.messageText, "This page offers several feeds. Choose one to add.")
            let window = try XCTUnwrap(toplevel(titled: "Add Feed"))
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "add-feed-candidates") })
            dialog.choose(1)
            dialog.add()

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { added != nil })
            XCTAssertEqual(added?.url, server.url("/comments.xml"))
            XCTAssertEqual(added?.title, "Comments")
        }
    }

    func testAPageWithoutAnyFeedSaysSoInWords() throws {
        let server = try TestHTTPServer { request in request.path == "/" ? .ok(Data("<html><body>hi</body></html>".utf8)) : .status(404) }
        defer { server.stop() }
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let dialog = AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }

            dialog.enter(server.url("/").absoluteString)
            dialog.add()

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { dialog.messageText == "No feed found at this address." })
            XCTAssertTrue(dialog.candidates.isEmpty)
        }
    }

    /// A page with a thousand feed links once grew the dialog past X11's 32767 px, and the app
    /// died of BadAlloc: now a few are offered, in a list that scrolls inside a dialog that fits.
    func testAPageWithAThousandFeedLinksOffersAFewInADialogThatFitsTheScreen() throws {
        let links = (0..<1000).map { #"<link rel="alternate" type="application/rss+xml" title="Feed \#($0)" href="/feed-\#($0).xml">"# }
        let server = try TestHTTPServer { request in
            request.path == "/" ? .ok(Data("<html><head>\(links.joined(separator: "\n"))</head></html>".utf8)) : .ok(Self.rss("One"))
        }
        defer { server.stop() }
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let dialog = AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
            let window = try XCTUnwrap(toplevel(titled: "Add Feed"))
            // The list of the page's feeds, which scrolls (the address's row is in a list too).
            let list = try XCTUnwrap(descendant(of: window) {
                isWidget($0, a: gtk_list_box_get_type()) && gtk_widget_get_ancestor($0, gtk_scrolled_window_get_type()) != nil
            })
            let scroller = try XCTUnwrap(gtk_widget_get_ancestor(list, gtk_scrolled_window_get_type()))

            dialog.enter(server.url("/").absoluteString)
            dialog.add()

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                dialog.candidates.count == FeedDiscovery.maxCandidates && gtk_widget_get_height(scroller) > 0
            })
            XCTAssertEqual(Self.rows(of: list), FeedDiscovery.maxCandidates)
            XCTAssertLessThan(gtk_widget_get_height(window), 700, "the dialog fits a small screen")
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(scroller))
            XCTAssertGreaterThan(gtk_adjustment_get_upper(adjustment), gtk_adjustment_get_page_size(adjustment),
                                 "the rows that do not fit scroll into view")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "add-feed-many-candidates") })
        }
    }

    func testAFailedAddSaysWhyAndGivesTheMarkedAddressBackToTheKeyboard() throws {
        let server = try TestHTTPServer { _ in .status(404) }
        defer { server.stop() }
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let dialog = AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
            let window = try XCTUnwrap(toplevel(titled: "Add Feed"))
            let entry = try XCTUnwrap(descendant(of: window) { isWidget($0, a: gtk_text_get_type()) })
            XCTAssertNil(AccessibilityTests.labelMismatch(entry, "Address"), "the address field is named for screen readers")
            XCTAssertEqual(gtk_widget_get_direction(entry), GTK_TEXT_DIR_LTR, "an address reads left to right in every language")
            GtkTestEnvironment.iterate { gtk_window_is_active(cast(window)) != 0 }

            RealInput.type(windowTitle: "Add Feed", server.url("/missing.xml").absoluteString)
            XCTAssertTrue(GtkTestEnvironment.iterate { String(cString: gtk_editable_get_text(cast(entry))).hasSuffix("missing.xml") })
            RealInput.key(windowTitle: "Add Feed", "Return")

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { dialog.messageText == "No feed found at this address." })
            XCTAssertTrue(dialog.entryShowsError)
            XCTAssertTrue(GtkTestEnvironment.iterate { dialog.entryHasFocus })
            RealInput.key(windowTitle: "Add Feed", "BackSpace")
            XCTAssertTrue(GtkTestEnvironment.iterate { String(cString: gtk_editable_get_text(cast(entry))).hasSuffix("missing.xm") },
                          "typing goes on in the address at once")
            XCTAssertFalse(dialog.entryShowsError, "the mark goes once the address changes")
        }
    }

    /// A malformed address left Add disabled without a word, and the error line made the dialog
    /// grow and shrink: why Add cannot be chosen shows in the hint's place as the address is
    /// typed, and the dialog keeps its height through hint, problem and hint again.
    func testAMalformedAddressSaysWhyAddIsDisabledAndTheDialogKeepsItsSize() throws {
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let dialog = AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
            let window = dialog.window
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 && gtk_widget_get_height(window) > 0 })
            GtkTestEnvironment.waitForFrames(of: window)
            let hint = "Enter the address of a feed, or of a web page that has one."
            XCTAssertEqual(dialog.messageText, hint)
            let height = gtk_widget_get_height(window)

            let cases: [(typed: String, says: String, canAdd: Bool)] = [
                ("htp:/bad url", "An address cannot contain spaces.", false),
                ("ftp://example.org/feed.xml", "Addresses of the kind “\u{2068}ftp\u{2069}:” cannot be read. Only web addresses (http and https) and files can.", false),
                ("https://", "This is not a web address.", false),
                ("https://example.org/feed.xml", hint, true),
                ("", hint, false),
            ]
            for (typed, says, canAdd) in cases {
                dialog.enter(typed)
                XCTAssertEqual(dialog.messageText, says, typed)
                XCTAssertEqual(dialog.canAdd, canAdd, typed)
                GtkTestEnvironment.waitForFrames(of: window)
                XCTAssertEqual(gtk_widget_get_height(window), height, "the dialog keeps its height with \"\(typed)\"")
                if typed == "htp:/bad url" {
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "add-feed-malformed") })
                }
            }
        }
    }

    func testAnAddressThatCannotBeReachedSaysSoWithTheSiteNamed() throws {
        let closed = try TestHTTPServer { _ in .status(404) }
        let address = closed.url("/feed.xml").absoluteString
        closed.stop()
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let dialog = AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }

            dialog.enter(address)
            dialog.add()

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                dialog.messageText == "Could not reach \u{2068}127.0.0.1\u{2069} — check the address or your connection."
            }, dialog.messageText)
        }
    }

    /// Ctrl+N in the window: the address has the keyboard from the start, and Enter adds.
    func testTheDialogOpensReadyToTypeTheAddress() throws {
        let server = try TestHTTPServer { _ in .ok(Self.rss("Typed")) }
        defer { server.stop() }
        try withReader(serving: Self.rss("First"), entries: 1) { app in
            RealInput.key(windowTitle: app.title, "ctrl+n")
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Add Feed").map { gtk_widget_get_mapped($0) != 0 } ?? false })
            let window = try XCTUnwrap(toplevel(titled: "Add Feed"))
            let entry = try XCTUnwrap(descendant(of: window) { isWidget($0, a: gtk_text_get_type()) })

            RealInput.type(windowTitle: "Add Feed", server.url("/typed.xml").absoluteString)
            XCTAssertTrue(GtkTestEnvironment.iterate { String(cString: gtk_editable_get_text(cast(entry))).hasSuffix("/typed.xml") },
                          "the keys went to the address")
            RealInput.key(windowTitle: "Add Feed", "Return")

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.sidebar.feedIDs.count == 2 }, "Enter added the feed")
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Add Feed") == nil })
        }
    }

    func testEscapeClosesTheDialog() throws {
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Add Feed").map { gtk_window_is_active(cast($0)) != 0 } ?? false })

            RealInput.key(windowTitle: "Add Feed", "Escape")

            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Add Feed") == nil })
        }
    }

    func testProblemsAreSaidInAPersonsWords() {
        let address = "https://news.example/feed.xml"
        let cases: [(FeedLibrary.SubscribeError, String)] = [
            (.fetchFailed(.httpStatus(404)), "No feed found at this address."),
            (.fetchFailed(.httpStatus(503)), "\u{2068}news.example\u{2069} has a problem right now. Try again later."),
            (.fetchFailed(.httpStatus(403)), "The site does not allow reading this address."),
            (.fetchFailed(.timedOut(after: .seconds(15))), "Could not reach \u{2068}news.example\u{2069} — check the address or your connection."),
            (.fetchFailed(.invalidFeed(.unsupportedFormat(found: "HTML"))), "The feed at this address could not be read."),
            (.fetchFailed(.fileNotFound(path: "/tmp/none.xml")), "There is no file at this address."),
            (.alreadySubscribed, "You are already subscribed to this feed."),
            (.invalidAddress("news"), "This is not a web address."),
            (.noFeedFound, "No feed found at this address."),
            (.storage(ErrorReason(.diskFull)), "The subscription could not be saved."),
        ]
        for (error, words) in cases {
            XCTAssertEqual(ErrorReason(error).sentenceWhileSubscribing(to: address), words, "\(error)")
        }
    }

    @MainActor
    private static func rows(of list: UnsafeMutablePointer<GtkWidget>) -> Int {
        var count = 0
        while gtk_list_box_get_row_at_index(cast(list), Int32(count)) != nil { count += 1 }
        return count
    }
}
