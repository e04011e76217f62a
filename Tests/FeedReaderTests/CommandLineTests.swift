import FeedCore
import Foundation
import TestProcesses
import XCTest

/// `feed-reader`'s command line, run as the built program with no display at all: options are
/// answered before any window could open.
final class CommandLineTests: XCTestCase {
    /// What a run printed and how it ended.
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The feed-reader built beside this test bundle.
    var programURL: URL {
        let bundle = Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }
        let folder = (bundle ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()).deletingLastPathComponent()
        return folder.appendingPathComponent("feed-reader")
    }

    /// Runs the feed-reader built beside this test bundle with `arguments`, without a display or
    /// a session bus, in `language` (English unless told), with `extra` variables set and `input`
    /// on standard input; or runs `program` in the same way, a shell that runs feed-reader with
    /// arguments only it can make.
    func feedReader(_ arguments: [String], language: String? = nil, extra: [String: String] = [:], input: String = "",
                    program: String? = nil) throws -> Run {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: programURL.path), "no feed-reader at \(programURL.path)")
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "GDK_BACKEND", "LANGUAGE"] {
            environment[name] = nil
        }
        environment["LANG"] = "C.UTF-8"
        environment["LANGUAGE"] = language
        environment.merge(extra) { _, new in new }
        let run = try Subprocess(program ?? programURL.path, arguments, environment: environment, input: input).wait()
        return Run(status: run.status, output: run.output, errors: run.errors)
    }

    func testHelpListsEveryOptionWithoutOpeningAWindow() throws {
        let run = try feedReader(["--help"])
        XCTAssertEqual(run.status, 0, run.errors)
        for expected in ["--version", "Show the version and exit", "--parse=FILE-OR-URL",
                         "Read one feed, print it as JSON and exit"] {
            XCTAssertTrue(run.output.contains(expected), "\(expected) in:\n\(run.output)")
        }
        XCTAssertEqual(run.errors, "", "no display was needed")
    }

    func testHelpIsInTheUsersLanguage() throws {
        let run = try feedReader(["--help"], language: "de")
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.contains("Version anzeigen und beenden"), run.output)
    }

    func testVersionPrintsTheVersion() throws {
        let run = try feedReader(["--version"])
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertEqual(run.output, "feed-reader 0.1.0\n")
    }

    func testParsePrintsTheSameJSONAsTheLibrary() async throws {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("parse-\(UUID()).xml")
        try plainFeed(entries: 3).write(to: feed)
        defer { try? FileManager.default.removeItem(at: feed) }
        guard case let .fetched(parsed, _) = await FeedFetcher().fetch(FeedRequest(location: feed.path)).outcome else {
            return XCTFail("the library could not read \(feed.path)")
        }
        for arguments in [["--parse", feed.path], ["--parse=\(feed.path)"]] {
            let run = try feedReader(arguments)
            XCTAssertEqual(run.status, 0, run.errors)
            XCTAssertEqual(run.output, String(decoding: try parsed.jsonSummary(), as: UTF8.self) + "\n", "\(arguments)")
            XCTAssertEqual(run.errors, "")
        }
    }

    /// Wrong input: a clear message on standard error and a failure status, never a window.
    func testMistakesAreReportedWithAFailureStatus() throws {
        let cases: [(arguments: [String], message: String)] = [
            (["--parse", "/nonexistent/feed.xml"], "feed-reader: "),
            (["--parse"], "Missing argument for --parse"),
            (["--no-such-option"], "Unknown option --no-such-option"),
        ]
        for (arguments, message) in cases {
            let run = try feedReader(arguments)
            XCTAssertNotEqual(run.status, 0, "\(arguments)")
            XCTAssertTrue(run.errors.contains(message), "\(arguments): \(run.errors)")
            XCTAssertEqual(run.output, "", "\(arguments)")
        }
    }

    /// --parse says why a feed could not be read in the user's language, as --import does.
    func testParseMistakesAreExplainedInTheUsersLanguage() throws {
        let missing = "/nonexistent/feed.xml"
        // Port 9 (discard) on the loopback: nothing listens there.
        let closed = "http://127.0.0.1:9/feed.xml"
        let cases: [(language: String?, target: String, message: String)] = [
            (nil, missing, "The file \(missing) does not exist."),
            ("fr", missing, "Le fichier \(missing) n’existe pas."),
            ("de", missing, "Die Datei \(missing) existiert nicht."),
            (nil, closed, "The server 127.0.0.1 could not be reached."),
            ("fr", closed, "Le serveur 127.0.0.1 n’a pas pu être joint."),
        ]
        for item in cases {
            let run = try feedReader(["--parse", item.target], language: item.language)
            XCTAssertEqual(run.status, 1, "\(item)")
            XCTAssertEqual(run.errors, "feed-reader: \(item.message)\n", "\(item.language ?? "en") \(item.target)")
            XCTAssertEqual(run.output, "")
        }
    }

    /// A folder of the test's own for the program's data, as a new user's `XDG_DATA_HOME`.
    func dataHome() throws -> (folder: URL, environment: [String: String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-reader-cli-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return (folder, ["XDG_DATA_HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "XDG_CACHE_HOME": folder.path])
    }

    /// An OPML file with one feed listed twice, in a folder; the feed's server is not there.
    private func subscriptionList(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("subscriptions.opml")
        try Data("""
            <?xml version="1.0"?>
            <opml version="2.0"><head><title>Mine</title></head><body>
              <outline text="News"><outline type="rss" text="Gone" xmlUrl="http://127.0.0.1:9/feed.xml"/></outline>
              <outline type="rss" text="Gone again" xmlUrl="http://127.0.0.1:9/feed.xml"/>
            </body></opml>
            """.utf8).write(to: file)
        return file
    }

    /// `--import` then `--export`, each saying what it did in the sentences the window uses.
    func testImportAndExportSayWhatTheyDidInTheUsersLanguage() throws {
        let cases: [(language: String?, imported: [String], exported: String)] = [
            (nil, ["1 subscription was imported.", "1 subscription already in the list was skipped.", "1 feed could not be fetched yet."],
             "1 subscription was exported to %@."),
            ("de", ["1 Abonnement wurde importiert.", "1 bereits vorhandenes Abonnement wurde übersprungen.", "1 Feed konnte noch nicht abgerufen werden."],
             "1 Abonnement wurde nach %@ exportiert."),
            ("fr", ["1 abonnement a été importé.", "1 abonnement déjà présent a été ignoré.", "1 flux n’a pas encore pu être récupéré."],
             "1 abonnement a été exporté vers %@."),
        ]
        for item in cases {
            let (folder, environment) = try dataHome()
            let imported = try feedReader(["--import", try subscriptionList(in: folder).path], language: item.language, extra: environment)
            XCTAssertEqual(imported.status, 0, imported.errors)
            XCTAssertEqual(imported.output, item.imported.joined(separator: " ") + "\n", "\(item.language ?? "en")")

            let exportFile = folder.appendingPathComponent("exported.opml")
            let exported = try feedReader(["--export", exportFile.path], language: item.language, extra: environment)
            XCTAssertEqual(exported.status, 0, exported.errors)
            XCTAssertEqual(exported.output, item.exported.replacingOccurrences(of: "%@", with: exportFile.path) + "\n")
            let written = try String(contentsOf: exportFile, encoding: .utf8)
            XCTAssertTrue(written.contains("http://127.0.0.1:9/feed.xml") && written.contains("News"), written)
        }
    }

    /// A missing file, a broken one and a destination that cannot be written: a sentence in the
    /// user's language on standard error, a failure status, and nothing imported.
    func testImportAndExportMistakesAreExplainedInTheUsersLanguage() throws {
        let (folder, environment) = try dataHome()
        let broken = folder.appendingPathComponent("broken.opml")
        try Data("<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><body>\n<outline text=\"a\" xmlUrl=\"http://127.0.0.1:9/a\">\n</body></opml>\n".utf8)
            .write(to: broken)
        let missing = folder.appendingPathComponent("missing.opml").path
        let noFolder = folder.appendingPathComponent("no-such-folder/out.opml").path
        let cases: [(language: String?, arguments: [String], message: String)] = [
            (nil, ["--import", missing], "The file \(missing) could not be read. There is no such file."),
            ("de", ["--import", missing], "Die Datei \(missing) konnte nicht gelesen werden. Diese Datei gibt es nicht."),
            ("fr", ["--import", missing], "Le fichier \(missing) n’a pas pu être lu. Ce fichier n’existe pas."),
            ("de", ["--import", folder.path], "Die Datei \(folder.path) konnte nicht gelesen werden. Das ist ein Ordner, keine Datei."),
            (nil, ["--import", broken.path], "\(broken.path): The file is broken at line 4, so nothing was imported."),
            ("de", ["--import", broken.path], "\(broken.path): Die Datei ist in Zeile 4 fehlerhaft, daher wurde nichts importiert."),
            ("fr", ["--import", broken.path], "\(broken.path): Le fichier est invalide à la ligne 4\u{00A0}; rien n’a été importé."),
            (nil, ["--export", noFolder], "The subscriptions could not be exported to \(noFolder). Its folder does not exist."),
            ("de", ["--export", noFolder], "Die Abonnements konnten nicht nach \(noFolder) exportiert werden. Der Ordner existiert nicht."),
            ("fr", ["--export", noFolder], "Les abonnements n’ont pas pu être exportés vers \(noFolder). Son dossier n’existe pas."),
        ]
        for item in cases {
            let run = try feedReader(item.arguments, language: item.language, extra: environment)
            XCTAssertEqual(run.status, 1, "\(item)")
            XCTAssertEqual(run.errors, "feed-reader: \(item.message)\n", "\(item.language ?? "en") \(item.arguments)")
            XCTAssertEqual(run.output, "")
        }
        let exportFile = folder.appendingPathComponent("after.opml")
        XCTAssertEqual(try feedReader(["--export", exportFile.path], extra: environment).output,
                       "0 subscriptions were exported to \(exportFile.path).\n", "the broken file imported nothing")
    }
}
