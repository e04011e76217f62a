import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Pasting a web page's address into Add Feed: its feeds are found and offered.
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

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { dialog.messageText == "No feed was found at this address." })
            XCTAssertTrue(dialog.candidates.isEmpty)
        }
    }
}
