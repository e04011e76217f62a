import Foundation
import Testing
import TestSupport

/// `refresh-bench --quick --only=sync-scale` runs the sync-at-scale section on 200 articles against
/// real servers it starts itself (tt-rss, FreshRSS) and prints each of its rows and figures.
///
/// Only that: timings depend on the machine and are never asserted; the counts of requests are
/// figures of the bench, judged against their targets there. The section's own checks (every
/// article stored, the unread count after the changes) make the run fail when a sync is wrong.
@Suite struct SyncScaleBenchQuickTests {
    static let keys = [
        "ttrss_sync_initial_s_200k", "newsboat_ttrss_sync_initial_s_200k",
        "ttrss_sync_peak_rss_mb_200k", "newsboat_ttrss_sync_peak_rss_mb_200k",
        "ttrss_sync_incremental_requests_1000", "ttrss_sync_incremental_s_1000",
        "greader_sync_initial_s_200k", "greader_sync_floor_s_200k", "greader_sync_peak_rss_mb_200k",
        "greader_sync_incremental_requests_1000", "greader_sync_incremental_s_1000",
    ]

    @Test(.timeLimit(.minutes(10)))
    func quickRunPrintsEverySyncScaleFigure() async throws {
        let bench = RefreshBenchQuickTests.binaryFolder.appendingPathComponent("refresh-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no refresh-bench at \(bench.path)")
        let run = await (try Subprocess(bench.path, ["--quick", "--only=sync-scale"],
                                        environment: ProcessInfo.processInfo.environment)).finish()
        #expect(run.status == 0, "\(run.errors)")
        // The bench's own words when a server cannot run here (no packages, no tarball).
        if let reason = run.output.split(separator: "\n").first(where: { $0.contains("no server:") }) {
            try Test.cancel("a sync server cannot run here, so this test was skipped: \(reason)")
        }
        let lines = run.output.split(separator: "\n")
        let last = try #require(lines.last, "no output")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any],
                                   "the last line is not a JSON object: \(last)")
        #expect(Set(figures.keys) == Set(Self.keys), "\(last)")
        // newsboat's figures are 0 where it is not installed, and the table says so.
        let newsboatMissing = lines.contains { $0.contains("not installed") }
        for key in Self.keys {
            let value = try #require(figures[key] as? NSNumber, "\(key) is missing or not a number: \(last)")
            if !(newsboatMissing && key.hasPrefix("newsboat_")) {
                #expect(value.doubleValue > 0, "\(key) is \(value)")
            }
        }
        for row in ["tt-rss initial sync, 200 articles in 50 feeds", "Google Reader API initial sync, 200 articles in 50 feeds",
                    "Google Reader API incremental sync, 10 articles changed"] {
            #expect(lines.contains { $0.contains(row) }, "no row \(row) in the table")
        }
    }
}
