import Foundation
import Testing
import TestSupport

/// The parse comparison's, the rules' and GNOME Shell search's rows of `refresh-bench` come out
/// at the quick size, each a number, the measured ones above zero.
///
/// Timings depend on the machine and are never asserted. feedparser-rs is the bench's venv's
/// (`.build-release/venv`, made by `meson-helpers/bench`) when there is one, else the system
/// Python's; without it the bench says so and reports zeros. tt-rss is Debian's and FreshRSS the one
/// in REFRESHGTK_SERVERS, started by the bench (`meson-helpers/ttrss-server`, `freshrss-server`); where
/// one cannot run, the bench says so.
@Suite struct ParseAndRulesRowsTests {
    static let sections = "feedparser-rs,rules-apply,rules-refresh,rules-sync,rules-reader,shell-search"
    static let measuredKeys = [
        "refresh_500_feeds_100_rules_ratio", "refresh_500_feeds_100_rules_cpu_ratio",
        "apply_100_rules_100k_s", "apply_100_rules_100k_cpu_s",
        "reader_startup_100k_100_rules_ratio", "search_100k_100_rules_ratio",
        "shell_search_ms_100k", "shell_search_slowest_ms_100k",
    ]
    static let feedparserRSKeys = [
        "parse_vs_feedparser_rs_ratio_rss", "parse_vs_feedparser_rs_ratio_atom",
        "parse_alternated_mb_s_rss", "parse_alternated_mb_s_atom", "feedparser_rs_mb_s_rss", "feedparser_rs_mb_s_atom",
        "parse_instructions_per_byte_rss", "parse_instructions_per_byte_atom",
        "feedparser_rs_instructions_per_byte_rss", "feedparser_rs_instructions_per_byte_atom",
    ]
    /// The rules' sync rows, by the name their server has in the table.
    static let syncKeys = ["tt-rss": ["sync_20k_100_rules_ratio", "sync_20k_100_rules_cpu_ratio"],
                           "FreshRSS": ["sync_greader_20k_100_rules_ratio", "sync_greader_20k_100_rules_cpu_ratio"]]

    /// The bench's venv Python, when `meson-helpers/bench` has made it in this checkout.
    static var benchPython: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let python = root.appendingPathComponent(".build-release/venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: python) ? python : nil
    }

    /// Twenty minutes: callgrind, a tt-rss and a 10,000-entry store, on a machine builds may share.
    @Test(.timeLimit(.minutes(20)))
    func quickRunPrintsTheRows() async throws {
        let bench = RefreshBenchQuickTests.binaryFolder.appendingPathComponent("refresh-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no refresh-bench at \(bench.path)")
        var environment = ProcessInfo.processInfo.environment
        environment["GSK_RENDERER"] = "cairo"
        if let python = Self.benchPython { environment["REFRESH_BENCH_PYTHON"] = python }
        let run = await (try RefreshBenchQuickTests.bench(["--quick", "--only=\(Self.sections)"], environment: environment)).finish()
        #expect(run.status == 0, "\(run.errors)")
        let last = try #require(run.output.split(separator: "\n").last, "no output")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "not JSON: \(last)")
        func value(_ key: String) -> Double? { (figures[key] as? NSNumber)?.doubleValue }

        for key in Self.measuredKeys {
            #expect((value(key) ?? 0) > 0, "\(key) is missing or not above zero: \(last)")
        }
        if run.output.contains("feedparser-rs not installed") {
            for key in ["parse_vs_feedparser_rs_ratio_rss", "parse_vs_feedparser_rs_ratio_atom"] {
                #expect(value(key) == 0, "\(key) without feedparser-rs: \(last)")
            }
        } else {
            for key in Self.feedparserRSKeys {
                #expect((value(key) ?? 0) > 0, "\(key) is missing or not above zero: \(last)")
            }
            #expect(run.output.contains("FeedCore / feedparser-rs, Atom, median of 3 alternated pairs"), "\(run.output)")
        }
        for (server, keys) in Self.syncKeys {
            let noServer = run.output.split(separator: "\n").contains { $0.contains("\(server)") && $0.contains("sync with rules") && $0.contains("no server") }
            guard !noServer else { continue }
            for key in keys {
                #expect((value(key) ?? 0) > 0, "\(key) is missing or not above zero: \(last)")
            }
        }
    }
}
