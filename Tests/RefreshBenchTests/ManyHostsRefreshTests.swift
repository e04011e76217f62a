import FeedCore
import Foundation
import Testing
import TestSupport

/// `refresh-bench --quick --only=refresh-hosts`, 100 feeds from 5 loopback hosts, runs to the end
/// and reports every row of the section as a number, with no host ever sent more than FeedCore's
/// per-host limit at once.
///
/// The bench itself checks what the server answered each program (every feed, its 304s, the
/// throttled host's 429 asked once and not again) and fails otherwise; timings are never asserted.
@Suite struct ManyHostsRefreshTests {
    static let rows = [
        "refresh_5000_feeds_s", "newsboat_refresh_5000_feeds_s", "refresh_5000_feeds_unchanged_s",
        "newsboat_refresh_5000_feeds_unchanged_s", "refresh_5000_peak_rss_mb", "newsboat_refresh_5000_peak_rss_mb",
        "refresh_max_per_host",
    ]

    @Test(.timeLimit(.minutes(10)))
    func quickRunReportsEveryRowWithinThePerHostLimit() async throws {
        let bench = RefreshBenchQuickTests.binaryFolder.appendingPathComponent("refresh-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no refresh-bench at \(bench.path)")
        var environment = ProcessInfo.processInfo.environment
        environment["GSK_RENDERER"] = "cairo"
        let run = await (try Subprocess(bench.path, ["--quick", "--only=refresh-hosts"], environment: environment)).finish()
        #expect(run.status == 0, "\(run.errors)")
        let last = try #require(run.output.split(separator: "\n").last, "no output")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Double],
                                   "the last line is not a JSON object of numbers: \(last)")
        #expect(Set(figures.keys) == Set(Self.rows), "\(last)")
        for key in ["refresh_5000_feeds_s", "refresh_5000_feeds_unchanged_s", "refresh_5000_peak_rss_mb"] {
            #expect((figures[key] ?? 0) > 0, "\(key): \(last)")
        }
        // The bench's hosts are answered in 20 ms or more, so FeedCore's fetches overlap on each.
        let perHost = figures["refresh_max_per_host"] ?? 0
        let limit = Double(FeedFetcher().configuration.maxFetchesPerHost)
        #expect(perHost >= 2 && perHost <= limit, "the most requests one host had at once, of \(limit) allowed: \(last)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/newsboat") {
            for key in ["newsboat_refresh_5000_feeds_s", "newsboat_refresh_5000_feeds_unchanged_s"] {
                #expect((figures[key] ?? 0) > 0, "\(key): \(last)")
            }
        }
        #expect(run.output.contains("most requests one host had from FeedCore at once"), "the table comes first")
    }
}
