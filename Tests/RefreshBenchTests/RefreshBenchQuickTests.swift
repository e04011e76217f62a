import Foundation
import Testing
import TestSupport

/// `refresh-bench --quick` runs to the end and its last line carries every figure as a number.
///
/// Only that: timings depend on the machine and are never asserted. The binary is the one built
/// beside this test bundle; it needs a display, as the GTK tests do.
@Suite struct RefreshBenchQuickTests {
    static let requiredKeys = [
        "core_event_ns", "header_frame_us_scale1", "header_frame_us_scale2",
        "pull_frame_us_p50", "pull_frame_us_p99", "baseline_frame_us_p50", "baseline_frame_us_p99",
        "pull_vs_baseline_p99_ratio", "content_relayouts_per_pull_frame",
        "parse_mb_s_rss", "parse_mb_s_atom", "feedparser_mb_s_rss", "feedparser_mb_s_atom",
        "parse_vs_feedparser_ratio", "search_ms_100k", "reader_startup_ms", "reader_peak_rss_mb",
        "render_floor_us_p50", "pull_over_floor_p50",
        "listbox_pull_us_p50", "listbox_pull_us_p99", "listbox_baseline_us_p50", "listbox_baseline_us_p99",
        "textview_pull_us_p50", "textview_pull_us_p99", "textview_baseline_us_p50", "textview_baseline_us_p99",
        "first_pull_frame_ms",
        "refresh_500_feeds_s", "newsboat_refresh_500_feeds_s",
        "refresh_500_feeds_unchanged_s", "newsboat_refresh_500_feeds_unchanged_s",
        "refresh_peak_rss_mb", "newsboat_peak_rss_mb",
        "reader_startup_ms_100k", "reader_peak_rss_mb_100k", "window_startup_ms_100k", "launcher_overhead_ms",
        "extract_200k_ms", "extract_200k_peak_rss_mb",
        "article_plain_ms", "article_plain_rss_mb", "article_full_200k_ms", "article_full_200k_rss_mb",
    ]

    /// The build's products folder: where the test bundle is, found from this process.
    static var binaryFolder: URL {
        let bundle = Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return (bundle ?? executable).deletingLastPathComponent()
    }

    /// `refresh-bench` with `arguments` on a session bus of its own with its own keyring, as
    /// `meson-helpers/bench` runs it: the shell-search section starts the reader as a D-Bus
    /// service under the app's one name, so two runs on the test run's shared bus (this suite's
    /// and ParseAndRulesRowsTests', at once) would ask each other's service, which goes when its
    /// run ends ("disconnected without replying").
    /// Its XDG folders are fresh too, as the bench script makes them: the keyring's files and
    /// control socket are not the test run's keyring's.
    static func bench(_ arguments: [String], environment: [String: String]) throws -> Subprocess {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = temporaryDirectory()
        var environment = environment
        for (name, subfolder) in [("XDG_RUNTIME_DIR", "run"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                                  ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")] {
            let path = folder.appendingPathComponent(subfolder)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[name] = path.path
        }
        return try Subprocess("/usr/bin/dbus-run-session",
                              ["--", root.appendingPathComponent("meson-helpers/keyring-session").path,
                               binaryFolder.appendingPathComponent("refresh-bench").path] + arguments,
                              environment: environment)
    }

    @Test(.timeLimit(.minutes(10)))
    func quickRunPrintsEveryFigureAsANumber() async throws {
        let bench = Self.binaryFolder.appendingPathComponent("refresh-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no refresh-bench at \(bench.path)")
        var environment = ProcessInfo.processInfo.environment
        environment["GSK_RENDERER"] = "cairo"
        // Subprocess, not Process: its output goes to a file (a server another suite starts
        // meanwhile could inherit a pipe's writing end and hold it open), and it reaps the bench
        // itself (Foundation's SIGCHLD source never fires once GLib handles SIGCHLD here).
        let run = await (try Self.bench(["--quick"], environment: environment)).finish()
        #expect(run.status == 0, "\(run.errors)")
        let last = try #require(run.output.split(separator: "\n").last, "no output")
        let object = try JSONSerialization.jsonObject(with: Data(last.utf8))
        let figures = try #require(object as? [String: Any], "the last line is not a JSON object: \(last)")
        for key in Self.requiredKeys {
            #expect(figures[key] is NSNumber, "\(key) is missing or not a number: \(last)")
        }
        for (key, value) in figures {
            #expect(value is NSNumber, "\(key) is not a number")
            // The scale section runs only when asked for (RefreshBenchScaleTests).
            #expect(!key.hasSuffix("_1m"), "\(key) in a run without --only=scale")
        }
        #expect(run.output.contains("refresh-bench"), "the table comes before the JSON line")
    }
}
