import Foundation
import TestProcesses
import XCTest

/// `feed-reader` itself: it hands a command line to the window program or the commands' program
/// before loading anything else. Every other test of the command line runs through it too.
extension CommandLineTests {
    /// The libraries the dynamic loader maps for `program`, by file name, without running it
    /// (`LD_TRACE_LOADED_OBJECTS`, what ldd asks of the loader).
    private func libraries(of program: URL) throws -> [String] {
        let listing = try Subprocess(program.path, [], environment: ["LD_TRACE_LOADED_OBJECTS": "1"]).wait().output
        return listing.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map { String($0.split(separator: "/").last ?? $0) }
        }
    }

    func testTheLauncherLoadsNoLibraryOfTheCommandsOrTheWindow() throws {
        let loaded = try libraries(of: programURL)

        XCTAssertTrue(loaded.contains { $0.hasPrefix("libc.so") }, "\(loaded)")
        for heavy in ["libcurl", "libsqlite3", "libxml2", "libsecret", "libglib", "libgtk", "libadwaita", "libFoundation", "libicu"] {
            XCTAssertFalse(loaded.contains { $0.hasPrefix(heavy) }, "\(heavy) in \(loaded)")
        }
        XCTAssertLessThanOrEqual(loaded.count, 16, "\(loaded)")
        let commands = try libraries(of: programURL.deletingLastPathComponent().appendingPathComponent("feed-reader-commands"))
        XCTAssertTrue(commands.contains { $0.hasPrefix("libcurl") }, "the commands' program loads FeedCore's: \(commands)")
    }

    /// Copies of the programs named, alone in a new folder: the others cannot be found.
    private func programsAlone(_ names: [String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-\(UUID())/bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: programURL.deletingLastPathComponent().appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        return folder
    }

    /// Without the program a command line needs, the other is tried, and without either the
    /// person is told which program is missing, in their language.
    func testAMissingProgramIsSaidInTheUsersLanguage() throws {
        let locale = programURL.deletingLastPathComponent().appendingPathComponent("locale").path
        let cases: [(programs: [String], arguments: [String])] = [
            (["feed-reader"], []),
            (["feed-reader"], ["--version"]),
            // The window's command line goes to the commands' program, which says the window program is missing.
            (["feed-reader", "feed-reader-commands"], []),
        ]
        for (programs, arguments) in cases {
            let folder = try programsAlone(programs)
            defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
            let missing = folder.deletingLastPathComponent().appendingPathComponent("libexec/feed-reader/feed-reader-window").path

            let run = try feedReader(arguments, language: "de", extra: ["REFRESHGTK_LOCALEDIR": locale],
                                     program: folder.appendingPathComponent("feed-reader").path)

            XCTAssertEqual(run.status, 1, "\(programs) \(arguments)")
            XCTAssertTrue(run.errors.hasPrefix("feed-reader: Das Fensterprogramm \(missing) konnte nicht gestartet werden. ("),
                          "\(programs) \(arguments): \(run.errors)")
        }
        // Without the language's catalog, the same in English (the launcher once read the English
        // text through a pointer freed when gettext handed it back untranslated, and crashed).
        let folder = try programsAlone(["feed-reader"])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let noCatalogs = folder.deletingLastPathComponent().appendingPathComponent("share/locale")
        try FileManager.default.createDirectory(at: noCatalogs, withIntermediateDirectories: true)
        let missing = folder.deletingLastPathComponent().appendingPathComponent("libexec/feed-reader/feed-reader-window").path
        let run = try feedReader([], language: "de", extra: ["REFRESHGTK_LOCALEDIR": noCatalogs.path],
                                 program: folder.appendingPathComponent("feed-reader").path)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errors.hasPrefix("feed-reader: The window program \(missing) could not be started. ("), run.errors)
    }
}
