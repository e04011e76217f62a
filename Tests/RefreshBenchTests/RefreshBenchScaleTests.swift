import Foundation
import Testing
import TestSupport

/// The scale sections (`--only=scale,scale-newsboat`) come out on a small store, and `meson-helpers/bench --help`
/// says how to run the bench without building or running anything.
///
/// Timings are never asserted: the targets live in the bench's table.
@Suite struct RefreshBenchScaleTests {
    /// The scale section's figures, each of which a run must report as a positive number.
    static let scaleKeys = [
        "reader_startup_ms_1m", "reader_first_frame_rss_mb_1m", "reader_peak_rss_mb_1m", "search_ms_1m",
        "search_slowest_ms_1m", "sidebar_counts_ms_1m", "mark_all_read_s_1m", "mark_all_read_undo_s_1m",
        "integrity_check_ms_1m",
    ]
    /// The newsboat section's, on the same store.
    static let newsboatKeys = [
        "print_unread_s_1m", "store_mb_1m", "newsboat_print_unread_s_1m", "newsboat_first_screen_ms_1m", "newsboat_cache_mb_1m",
    ]

    static var bench: URL { RefreshBenchQuickTests.binaryFolder.appendingPathComponent("refresh-bench") }

    /// The repository's root, from this file's place in it.
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test(.timeLimit(.minutes(10)))
    func quickScaleRunReportsEveryScaleFigure() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.bench.path), "no refresh-bench at \(Self.bench.path)")
        var environment = ProcessInfo.processInfo.environment
        environment["GSK_RENDERER"] = "cairo"
        let run = await (try Subprocess(Self.bench.path, ["--quick", "--only=scale,scale-newsboat"], environment: environment)).finish()
        #expect(run.status == 0, "\(run.errors)")
        let last = try #require(run.output.split(separator: "\n").last, "no output")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "not a JSON object: \(last)")
        // newsboat's figures are 0 where it is not installed, and the table says so; where it is,
        // its counts must have matched ours or the run fails.
        let newsboatMissing = run.output.contains("not installed")
        for key in Self.scaleKeys + Self.newsboatKeys {
            let value = try #require((figures[key] as? NSNumber)?.doubleValue, "\(key) is missing or not a number: \(last)")
            if !(newsboatMissing && key.hasPrefix("newsboat_")) {
                #expect(value > 0, "\(key) is not positive: \(last)")
            }
        }
        #expect(Set(figures.keys) == Set(Self.scaleKeys + Self.newsboatKeys), "the two sections report their figures alone: \(last)")
        // newsboat's first screen is set beside the first frame the scale section took.
        let comparison = run.output.split(separator: "\n").first { $0.contains("first frame, ours / newsboat's") }
        #expect(newsboatMissing || comparison?.contains("– /") == false, "\(run.output)")
        // The rows people read name the small store's size.
        #expect(run.output.contains("5,000 entries in 25 feeds"), "\(run.output)")
    }

    @Test func unknownSectionIsRefusedWithTheSections() async throws {
        let run = await (try Subprocess(Self.bench.path, ["--only=scales"])).finish()
        #expect(run.status != 0)
        #expect(run.errors.contains("there is no section scales"), "\(run.errors)")
        #expect(run.errors.contains("sections: core"), "\(run.errors)")
    }

    /// Every section refresh-bench has is described, and nothing is installed or built: a
    /// `swift` and a `sudo` put first on the PATH leave a mark if they are ever called.
    @Test func benchHelpListsEverySectionAndBuildsNothing() async throws {
        let spies = FileManager.default.temporaryDirectory.appendingPathComponent("bench-help-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: spies, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: spies) }
        let mark = spies.appendingPathComponent("called")
        for name in ["swift", "sudo", "apt-get"] {
            let spy = spies.appendingPathComponent(name)
            try "#!/bin/sh\necho \(name) >> '\(mark.path)'\nexit 1\n".write(to: spy, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: spy.path)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = spies.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let script = Self.root.appendingPathComponent("meson-helpers/bench").path
        let help = await (try Subprocess(script, ["--quick", "--help"], environment: environment)).finish()
        #expect(help.status == 0, "\(help.errors)")
        #expect(!FileManager.default.fileExists(atPath: mark.path), "--help called \((try? String(contentsOf: mark, encoding: .utf8)) ?? "")")
        for option in ["--quick", "--only=SECTION", "--plot", "--help"] {
            #expect(help.output.contains(option), "--help does not describe \(option)")
        }

        let usage = await (try Subprocess(Self.bench.path, ["--help"])).finish()
        let sectionsLine = try #require(usage.output.split(separator: "\n").first { $0.hasPrefix("sections: ") }, "\(usage.output)")
        let sections = sectionsLine.dropFirst("sections: ".count).split(separator: " ")
        #expect(sections.contains("scale"))
        let described = Set(help.output.split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  -") else { return nil }
            return line.split(separator: " ").first
        })
        #expect(described == Set(sections), "meson-helpers/bench --help describes \(described.sorted()), refresh-bench has \(sections)")
    }
}
