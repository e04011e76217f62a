import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// GNOME Shell's search provider as the Shell calls it: `gdbus call` on the test's session bus,
/// against the window's store, and against the reader's own program started as D-Bus starts it.
final class ShellSearchProviderTests: XCTestCase {
    static let interface = "org.gnome.Shell.SearchProvider2"

    /// Runs `gdbus call` on the session bus while this main loop answers; its status and output.
    @MainActor
    static func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String]) -> (Int32, String) {
        let arguments = ["call", "--session", "--timeout", "20", "--dest", destination, "--object-path", path,
                         "--method", "\(interface).\(method)"] + arguments
        let child: Subprocess
        do {
            child = try Subprocess("/usr/bin/gdbus", arguments)
        } catch {
            return (-1, "gdbus could not start: \(error)")
        }
        let (status, output, errors) = child.finishTurningMainLoop(timeout: 30)
        guard let status else { return (-1, "timed out: " + output + errors) }
        return (status, output + errors)
    }

    /// The ids in a `GetInitialResultSet` answer, `(['3', '1'],)`, in order.
    static func ids(in answer: String) -> [Int64] {
        answer.split(separator: "'").compactMap { Int64($0) }
    }

    /// The provider over the fixture's store, on its application's connection, opening results
    /// in its window as the app does.
    @MainActor
    private static func export(over app: ReaderFixture, icons: URL) throws -> (provider: ShellSearchProvider, destination: String, path: String) {
        let connection = try XCTUnwrap(g_application_get_dbus_connection(cast(app.application)))
        let provider = ShellSearchProvider(search: ShellSearch(databasePath: app.folder.appendingPathComponent("feeds.sqlite").path),
                                           iconDirectory: icons)
        provider.onActivate = { id, text, _ in app.window.reading.showSearchResult(entryID: id, text: text) }
        provider.onLaunch = { text, _ in app.window.reading.showSearch(text) }
        let path = "/io/github/refreshgtk/FeedReaderTests/SearchProvider"
        XCTAssertTrue(provider.export(on: connection, at: path))
        return (provider, String(cString: g_dbus_connection_get_unique_name(connection)), path)
    }

    func testResultsAreTheBestEntriesWithTheirFeedDateAndIcon() throws {
        try withReader(serving: plainFeed(entries: 12), entries: 12) { app in
            let icons = temporaryDirectory()
            let (provider, destination, path) = try Self.export(over: app, icons: icons)
            defer { provider.unexport() }

            let (status, answer) = Self.call(destination, path, "GetInitialResultSet", ["['entr']"])
            XCTAssertEqual(status, 0, answer)
            let ids = Self.ids(in: answer)
            XCTAssertEqual(ids.count, ShellSearchProvider.resultCount, answer)

            let previous = "[" + ids.map { "'\($0)'" }.joined(separator: ", ") + "]"
            let (narrowed, subsearch) = Self.call(destination, path, "GetSubsearchResultSet", [previous, "['entry', '7']"])
            XCTAssertEqual(narrowed, 0, subsearch)
            let seven = try XCTUnwrap(Self.ids(in: subsearch).first, subsearch)

            let (metaStatus, metas) = Self.call(destination, path, "GetResultMetas", ["['\(seven)']"])
            XCTAssertEqual(metaStatus, 0, metas)
            XCTAssertTrue(metas.contains("'name': <'Entry 7'>"), metas)
            let date = EntryDateText.text(for: try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-10-21T10:00:00Z")))
            // gdbus writes the isolation marks around the feed's name as escapes.
            let description = try XCTUnwrap(metas.range(of: "'description': <'[^']*'>", options: .regularExpression), metas)
            XCTAssertTrue(metas[description].contains("Plain") && metas[description].hasSuffix(" · \(date)'>"), metas)
            XCTAssertTrue(metas.contains("'id': <'\(seven)'>"), metas)
            XCTAssertTrue(metas.contains("'gicon': <'\(FeedReaderApp.applicationID)'>"), "no icon cached: the app's\n\(metas)")
        }
    }

    func testActivatingAResultShowsItsEntryAndLaunchingShowsTheSearch() throws {
        try withReader(serving: plainFeed(entries: 12), entries: 12) { app in
            let (provider, destination, path) = try Self.export(over: app, icons: temporaryDirectory())
            defer { provider.unexport() }
            let (_, answer) = Self.call(destination, path, "GetInitialResultSet", ["['entry', '9']"])
            let nine = try XCTUnwrap(Self.ids(in: answer).first, answer)

            let (status, output) = Self.call(destination, path, "ActivateResult", ["\(nine)", "['entry', '9']", "0"])

            XCTAssertEqual(status, 0, output)
            let window = app.window
            XCTAssertTrue(GtkTestEnvironment.iterate { window.article.entry?.title == "Entry 9" },
                          "the article shows the entry activated: \(String(describing: window.article.entry?.title))")
            XCTAssertEqual(window.entryList.selectedEntry?.title, "Entry 9")
            XCTAssertEqual(window.entryList.shownTitles.first, "Entry 9", "the list shows the same search")
            XCTAssertEqual(String(cString: gtk_editable_get_text(cast(window.filterBar.searchEntry))), "entry 9")
            XCTAssertNotEqual(gtk_search_bar_get_search_mode(cast(window.filterBar.searchBar)), 0)

            let (launched, launchOutput) = Self.call(destination, path, "LaunchSearch", ["['text', '3']", "0"])
            XCTAssertEqual(launched, 0, launchOutput)
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.shownTitles == ["Entry 3"] },
                          "the list shows the search: \(window.entryList.shownTitles)")
            XCTAssertEqual(String(cString: gtk_editable_get_text(cast(window.filterBar.searchEntry))), "text 3")
        }
    }

    /// The reader's program started as D-Bus starts it (`feed-reader --gapplication-service`, the
    /// .service file's command): it answers from the store in its data folder without opening a
    /// window, and answers nothing once that store is damaged.
    func testTheProgramStartedAsAServiceAnswersWithoutAWindowAndNothingFromADamagedStore() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 3)) }
        defer { server.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shell-search-\(UUID())")
        let list = home.appendingPathComponent("list.opml")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let outline = "<outline text=\"Plain\" type=\"rss\" xmlUrl=\"\(server.url("/feed.xml").absoluteString)\"/>"
        try Data("<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>t</title></head><body>\(outline)</body></opml>".utf8).write(to: list)
        var environment = ProcessInfo.processInfo.environment
        for (name, folder) in [("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config")] {
            environment[name] = home.appendingPathComponent(folder).path
        }
        // The feed-reader built beside this test bundle, as CommandLineTests finds it.
        let bundle = Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }
        let program = (bundle ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
            .deletingLastPathComponent().appendingPathComponent("feed-reader")
        XCTAssertEqual(try Self.run(program, ["--import", list.path], environment: environment), 0, "the store was filled")

        let service = try Subprocess(program.path, ["--gapplication-service"], environment: environment)
        defer { service.stop() }
        let name = onMain { FeedReaderApp.applicationID }, path = "/io/github/refreshgtk/FeedReader"
        XCTAssertEqual(try Self.run(URL(fileURLWithPath: "/usr/bin/gdbus"), ["wait", "--session", "--timeout", "30", name]), 0,
                       "the service took its name on the bus")

        let (status, answer) = onMain { Self.call(name, path + "/SearchProvider", "GetInitialResultSet", ["['entry', '2']"]) }
        XCTAssertEqual(status, 0, answer)
        XCTAssertEqual(Self.ids(in: answer).count, 1, answer)
        let (_, metas) = onMain { Self.call(name, path + "/SearchProvider", "GetResultMetas", ["['\(Self.ids(in: answer).first ?? 0)']"]) }
        XCTAssertTrue(metas.contains("'name': <'Entry 2'>"), metas)
        // GtkApplication puts each window's actions on the bus under its path: none means no window.
        let introspection = try Self.output(of: URL(fileURLWithPath: "/usr/bin/gdbus"),
                                            ["introspect", "--session", "--dest", name, "--object-path", path])
        XCTAssertTrue(introspection.contains("org.gtk.Application"), introspection)
        XCTAssertFalse(introspection.contains("node window"), "answering opened a window:\n\(introspection)")

        let store = home.appendingPathComponent("data/feed-reader/feeds.sqlite")
        let file = try FileHandle(forWritingTo: store)
        try file.write(contentsOf: Data(repeating: 0x5A, count: 4096))
        try file.close()
        let (damagedStatus, damaged) = onMain { Self.call(name, path + "/SearchProvider", "GetInitialResultSet", ["['entry']"]) }
        XCTAssertEqual(damagedStatus, 0, damaged)
        XCTAssertEqual(damaged.trimmingCharacters(in: .whitespacesAndNewlines), "(@as [],)", "a damaged store gives no result, not an error")
    }

    /// Runs `program` to its end; its exit status.
    static func run(_ program: URL, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int32 {
        try Subprocess(program.path, arguments, environment: environment).wait().status
    }

    /// What `program` prints.
    static func output(of program: URL, _ arguments: [String]) throws -> String {
        try Subprocess(program.path, arguments).wait().output
    }
}
