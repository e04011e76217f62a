import Foundation

/// The sync at a heavy reader's scale (`--only=sync-scale`; never in
/// the default run, which it would take past 15 minutes): `SyncBench`'s measurements on 200,000
/// articles in 5,000 feeds, the account's state ten times the default run's (2,000 unread, 500
/// starred) and another client's 1,000 changes before the incremental syncs (500 read, 300
/// unread, 200 starred). `--quick` runs it on 200 articles in 50 feeds, only to check that every
/// row comes out.
@MainActor
enum SyncScaleBench {
    static func scenario(_ options: BenchOptions) -> SyncBench.Scenario {
        options.quick
            ? SyncBench.Scenario(name: "-scale", feeds: 50, itemsPerFeed: 4, unread: 20, starred: 5,
                                 changes: (read: 5, unread: 3, starred: 2), googleReaderRounds: 1)
            : SyncBench.Scenario(name: "-scale", feeds: 5_000, itemsPerFeed: 40, unread: 2_000, starred: 500,
                                 changes: (read: 500, unread: 300, starred: 200), googleReaderRounds: 3)
    }

    /// Runs both servers' measurements, reporting each figure under its `_200k` or `_1000` key.
    static func run(_ options: BenchOptions, table: inout BenchTable, report: (String, Double) -> Void) throws {
        let scenario = scenario(options)
        let what = "\(scenario.articles) articles in \(scenario.feeds) feeds"
        progress("Sync at scale with Tiny Tiny RSS, \(what): feed-reader --sync and newsboat")
        do {
            let ttrss = try SyncBench.runTinyTinyRSS(scenario)
            let theirs = ttrss.newsboat ?? SyncBench.Run(seconds: 0, peakRSS: 0)
            report("ttrss_sync_initial_s_200k", ttrss.initial.seconds)
            report("newsboat_ttrss_sync_initial_s_200k", theirs.seconds)
            report("ttrss_sync_peak_rss_mb_200k", ttrss.initial.peakRSS)
            report("newsboat_ttrss_sync_peak_rss_mb_200k", theirs.peakRSS)
            report("ttrss_sync_incremental_requests_1000", Double(ttrss.incrementalRequests))
            report("ttrss_sync_incremental_s_1000", ttrss.incrementalSeconds)
            if ttrss.newsboat == nil {
                table.add("tt-rss initial sync, \(what), ours / newsboat",
                          String(format: "%.1f s / not installed", ttrss.initial.seconds), "")
            } else {
                table.add("tt-rss initial sync, \(what), ours / newsboat",
                          String(format: "%.1f / %.1f s (%.1f×)", ttrss.initial.seconds, theirs.seconds,
                                 theirs.seconds / ttrss.initial.seconds), "≥ 2× faster")
                table.add("  peak RSS, ours / newsboat", String(format: "%.0f / %.0f MB", ttrss.initial.peakRSS, theirs.peakRSS),
                          "ours lower")
            }
            table.add("tt-rss incremental sync, \(scenario.changedArticles) articles changed",
                      String(format: "%d requests, %.2f s", ttrss.incrementalRequests, ttrss.incrementalSeconds), "")
        } catch let unavailable as SyncBench.Unavailable {
            table.add("tt-rss sync at scale", "no server: \(unavailable.reason)", "")
        } catch let failure as BenchError {
            // A first sync cut by the sync's paging bound (a slow server) still leaves the
            // Google Reader rows to take: the failure is a row, not the end of the section.
            table.add("tt-rss initial sync, \(what)", "failed: \(failure)", "≥ 2× faster")
        }
        progress("Sync at scale with FreshRSS's Google Reader API, \(what): feed-reader --sync and its floor")
        do {
            let greader = try SyncBench.runGoogleReader(scenario)
            report("greader_sync_initial_s_200k", greader.initial.seconds)
            report("greader_sync_floor_s_200k", greader.floorSeconds)
            report("greader_sync_peak_rss_mb_200k", greader.initial.peakRSS)
            report("greader_sync_incremental_requests_1000", Double(greader.incrementalRequests))
            report("greader_sync_incremental_s_1000", greader.incrementalSeconds)
            table.add("Google Reader API initial sync, \(what), ours / floor, medians of \(scenario.googleReaderRounds)",
                      String(format: "%.1f / %.1f s (%.2f×)", greader.initial.seconds, greader.floorSeconds,
                             greader.initial.seconds / greader.floorSeconds), "≤ 1.5×")
            table.add("  peak RSS, ours, highest", String(format: "%.0f MB", greader.initial.peakRSS), "≤ 100 MB")
            table.add("Google Reader API incremental sync, \(scenario.changedArticles) articles changed",
                      String(format: "%d requests, %.2f s", greader.incrementalRequests, greader.incrementalSeconds),
                      "≤ 10 requests, ≤ 2 s")
        } catch let unavailable as SyncBench.Unavailable {
            table.add("Google Reader API sync at scale", "no server: \(unavailable.reason)", "")
        }
    }
}
