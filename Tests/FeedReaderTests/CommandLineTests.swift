import FeedCore
import Foundation
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

    /// Runs the feed-reader built beside this test bundle with `arguments`, without a display or
    /// a session bus, in English.
    func feedReader(_ arguments: [String], language: String? = nil) throws -> Run {
        let bundle = Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }
        let folder = (bundle ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()).deletingLastPathComponent()
        let program = folder.appendingPathComponent("feed-reader")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: program.path), "no feed-reader at \(program.path)")
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "GDK_BACKEND", "LANGUAGE"] {
            environment[name] = nil
        }
        environment["LANG"] = "C.UTF-8"
        environment["LANGUAGE"] = language
        process.environment = environment
        // Errors go to a file, so that a full pipe of them cannot stall the program.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("feed-reader-errors-\(UUID())")
        XCTAssertTrue(FileManager.default.createFile(atPath: errorFile.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let outputBytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: outputBytes, as: UTF8.self),
                   errors: try String(contentsOf: errorFile, encoding: .utf8))
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
}
