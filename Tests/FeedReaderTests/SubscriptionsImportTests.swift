import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Importing an OPML file into the window (menu or drop) and exporting the list, as a person sees it.
final class SubscriptionsImportWindowTests: XCTestCase {
    /// An OPML file of `count` feeds served by `server`, the first half in the folder "Tech",
    /// plus one duplicate.
    private static func opml(feeds count: Int, server: TestHTTPServer) throws -> URL {
        let outlines = (0..<count).map { #"<outline type="rss" text="Feed \#($0)" xmlUrl="\#(server.url("/feed\($0).xml"))"/>"# }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="1.0"><head><title>Exported elsewhere</title></head><body>
            <outline text="Tech">\(outlines.prefix(count / 2).joined(separator: "\n"))</outline>
            \(outlines.dropFirst(count / 2).joined(separator: "\n"))
            <outline type="rss" text="Again" xmlUrl="\(server.url("/feed0.xml"))"/>
            </body></opml>
            """
        let file = temporaryDirectory().appendingPathComponent("subscriptions.opml")
        try Data(xml.utf8).write(to: file)
        return file
    }

    func testImportingShowsProgressStaysResponsiveAndEndsWithTheFeedsInTheList() throws {
        let feed = plainFeed(entries: 2)
        let server = try TestHTTPServer { request in
            request.path.hasPrefix("/feed") && request.path != "/feed.xml" ? .init(status: 200, body: feed, delay: 0.02) : .ok(plainFeed(entries: 3))
        }
        defer { server.stop() }
        let file = try Self.opml(feeds: 500, server: server)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let bar = app.window.importBar
            // The longest the main loop took for one turn while the import ran: a blocking
            // import would stall it for the whole import (500 feeds at 0.02 s, four at a time).
            // Measured against the import's own length, which a loaded machine stretches as well.
            var lastTurn = Date(), longestTurn = 0.0
            func turn() {
                longestTurn = max(longestTurn, Date().timeIntervalSince(lastTurn))
                lastTurn = Date()
            }

            let started = Date()
            app.window.subscriptions.importSubscriptions(from: LocalFile(file))

            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { turn(); return bar.fraction > 0.2 && bar.fraction < 0.8 }, "progress shows part way")
            XCTAssertTrue(bar.message?.contains("of 500 new feeds fetched") ?? false, bar.message ?? "")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.feedIDs.count == 501 }, "the new feeds are listed while they are fetched")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "import-progress") })
            lastTurn = Date()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 30) { turn(); return bar.message?.hasPrefix("500 subscriptions") ?? false })
            XCTAssertEqual(bar.message, "500 subscriptions were imported. 1 subscription already in the list was skipped.")
            let importTook = Date().timeIntervalSince(started)
            XCTAssertLessThan(longestTurn, importTook / 4, "the window stays responsive during the import: \(longestTurn) s of \(importTook) s")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 50 }, "the imported entries show")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "import-done") })
        }
    }

    func testABrokenFileDroppedOntoTheWindowSaysWhereAndImportsNothing() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        let broken = temporaryDirectory().appendingPathComponent("broken.opml")
        try Data("<opml version=\"2.0\">\n<body>\n<outline text=\"a\" xmlUrl=\"https://a.example/feed\">\n</body>\n</opml>\n".utf8).write(to: broken)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }

            XCTAssertTrue(Self.drop(broken, on: try XCTUnwrap(app.window.fileDrop)))

            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.notices.toasts.message != nil })
            XCTAssertEqual(app.window.notices.toasts.message, "The file is broken at line 4, so nothing was imported.")
            XCTAssertNil(app.window.notices.banner.message, "a toast, not a banner left over the list")
            XCTAssertNil(app.window.importBar.message)
            XCTAssertEqual(app.window.sidebar.feedIDs.count, 1)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "import-broken-file") })
        }
    }

    func testADroppedFileIsImportedAndTheListExportsToAFileThatReadsBack() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        let file = try Self.opml(feeds: 4, server: server)
        let exported = temporaryDirectory().appendingPathComponent("out.opml")
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }

            XCTAssertTrue(Self.drop(file, on: try XCTUnwrap(app.window.fileDrop)))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.importBar.message?.hasPrefix("4 subscriptions were imported") ?? false })
            app.window.subscriptions.exportSubscriptions(to: LocalFile(exported))

            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.importBar.message == "5 subscriptions were exported to \u{2068}\(exported.path)\u{2069}." })
            // The message stays and follows a change of language, as every text in the window does.
            defer { app.window.switchLanguage(to: "") }
            app.window.switchLanguage(to: "de")
            XCTAssertEqual(app.window.importBar.message, "5 Abonnements wurden nach \u{2068}\(exported.path)\u{2069} exportiert.")
            let document = try OPMLDocument(data: Data(contentsOf: exported))
            XCTAssertEqual(Set(document.subscriptions.map(\.url)), Set([server.url("/feed.xml")] + (0..<4).map { server.url("/feed\($0).xml") }))
            XCTAssertEqual(document.subscriptions.filter { $0.folderPath == ["Tech"] }.count, 2)
        }
    }

    /// A name in Latin-1, not UTF-8: the drop hands the file over by its bytes, the export writes
    /// exactly the name given, and the window shows the names as GLib does, the byte as U+FFFD.
    func testFilesNamedInLatinOneAreImportedAndExportedByTheirBytes() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        let folder = temporaryDirectory()
        let list = LatinOneFileName(in: folder, "liste-", ".opml")
        try list.write(Data(contentsOf: try Self.opml(feeds: 4, server: server)))
        let exported = LatinOneFileName(in: folder, "export-", ".opml")
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }

            XCTAssertTrue(Self.drop(list.path, on: try XCTUnwrap(app.window.fileDrop)))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.importBar.message?.hasPrefix("4 subscriptions were imported") ?? false },
                          "import bar: \(app.window.importBar.message ?? "none"), toast: \(app.window.notices.toasts.message ?? "none")")
            app.window.subscriptions.exportSubscriptions(to: exported.localFile)

            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.importBar.message?.hasPrefix("5 subscriptions") ?? false || app.window.notices.toasts.message != nil })
            XCTAssertEqual(app.window.importBar.message, "5 subscriptions were exported to \u{2068}\(exported.displayedPath)\u{2069}.",
                           "toast: \(app.window.notices.toasts.message ?? "none")")
            let names = exported.namesInFolder()
            XCTAssertTrue(names.contains(exported.name), "exported to exactly the name given: \(names)")
            XCTAssertFalse(names.contains(exported.replacedName), "not to a name with the byte replaced")
            let document = try OPMLDocument(data: SubscriptionFile.read(exported.localFile))
            XCTAssertEqual(document.subscriptions.count, 5)
        }
    }

    /// Delivers `file` to the window's drop target as a file manager's drop does.
    @MainActor
    private static func drop(_ file: URL, on target: OpaquePointer) -> Bool {
        drop(Array(file.path.utf8CString), on: target)
    }

    /// Delivers the file at `path` (its bytes, ending in NUL) as a file manager's drop does.
    private static func drop(_ path: [CChar], on target: OpaquePointer) -> Bool {
        var values = [GValue](repeating: GValue(), count: 4)
        g_value_init(&values[0], gtk_drop_target_get_type())
        g_value_set_object(&values[0], UnsafeMutableRawPointer(target))
        // The signal's value is a GValue boxed in a GValue (G_TYPE_VALUE) holding the GFile.
        var dropped = GValue()
        g_value_init(&dropped, g_file_get_type())
        g_value_take_object(&dropped, UnsafeMutableRawPointer(g_file_new_for_path(path)))
        defer { g_value_unset(&dropped) }
        g_value_init(&values[1], g_value_get_type())
        withUnsafeMutablePointer(to: &dropped) { g_value_set_boxed(&values[1], $0) }
        g_value_init(&values[2], GType(15 << 2))  // G_TYPE_DOUBLE
        g_value_init(&values[3], GType(15 << 2))
        var result = GValue()
        g_value_init(&result, GType(5 << 2))  // G_TYPE_BOOLEAN
        g_signal_emitv(&values, g_signal_lookup("drop", gtk_drop_target_get_type()), 0, &result)
        let accepted = g_value_get_boolean(&result) != 0
        for index in values.indices { g_value_unset(&values[index]) }
        return accepted
    }
}
