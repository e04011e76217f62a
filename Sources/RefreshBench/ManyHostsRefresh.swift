import FeedCore
import Foundation

/// `--only=refresh-hosts`: 5,000 feeds from 250 loopback hosts (``ManyHostsServer``), refreshed
/// by FeedCore in a fresh process (`feedcore-refresh`) against `newsboat -x reload` with as many
/// reload threads as FeedCore fetches at once in all, then again with nothing changed. Each
/// program is timed from its start to its exit and its peak memory taken by GNU time; the server
/// checks what each was answered, and counts the most requests any host had from us at once.
enum ManyHostsRefresh {
    /// Items in each feed: what a blog's or a news site's feed usually carries.
    static let itemsPerFeed = 20

    struct Result {
        var ours: (full: Double, unchanged: Double, peakRSS: Double)
        /// nil when newsboat is not installed.
        var newsboat: (full: Double, unchanged: Double, peakRSS: Double)?
        /// The most requests one host had from FeedCore at once, over every run.
        var maxPerHost: Int
        var perHostLimit: Int
        var parallelism: Int
        var feeds: Int
        var hosts: Int
    }

    static func hosts(_ options: BenchOptions) -> Int { options.quick ? 5 : 250 }
    static func feeds(_ options: BenchOptions) -> Int { hosts(options) * 20 }

    /// Alternated runs whose medians are taken: 3, or 1 when quick.
    static func runs(_ options: BenchOptions) -> Int { options.quick ? 1 : 3 }

    /// Medians of ``runs(_:)`` alternated runs.
    static func run(_ options: BenchOptions) throws -> Result {
        let count = feeds(options)
        let template = String(decoding: FeedGenerator(items: itemsPerFeed, targetBytes: itemsPerFeed * 500).rss(),
                              as: UTF8.self)
        // Every feed its own GUIDs and links, as different sites have.
        let bodies = (0..<count).map { index in
            Data(template.replacingOccurrences(of: "urn:refresh-bench:", with: "urn:refresh-bench:\(index):")
                .replacingOccurrences(of: "https://bench.example.org/", with: "https://bench.example.org/\(index)/").utf8)
        }
        let server = try ManyHostsServer(bodies: bodies, hosts: hosts(options))
        defer { server.stop() }
        let urls = BenchFiles.directory.appendingPathComponent("refresh-hosts-urls.txt")
        try (0..<count).map { server.url(ofFeed: $0).absoluteString + "\n" }.joined()
            .write(to: urls, atomically: true, encoding: .utf8)
        let configuration = FeedFetcher().configuration
        let newsboat = ["/usr/bin/newsboat", "/usr/local/bin/newsboat"].first { FileManager.default.isExecutableFile(atPath: $0) }

        var ours: [(Double, Double, Double)] = [], theirs: [(Double, Double, Double)] = []
        var maxPerHost = 0
        for run in 0..<runs(options) {
            let scratch = BenchFiles.directory.appendingPathComponent("refresh-hosts-\(run)", isDirectory: true)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let mine = try runOurs(dataHome: scratch.appendingPathComponent("ours").path, urls: urls.path, server: server)
            ours.append((mine.full, mine.unchanged, mine.peakRSS))
            maxPerHost = max(maxPerHost, mine.maxPerHost)
            // Each run's figures as they come: a run takes minutes, and the spread says how far the medians hold.
            progress(String(format: "run %d: FeedCore %.2f s, unchanged %.2f s, %.0f MB", run + 1, mine.full, mine.unchanged, mine.peakRSS))
            if let newsboat {
                let their = try runNewsboat(newsboat, folder: scratch.appendingPathComponent("newsboat").path,
                                            urls: urls.path, threads: configuration.maxConcurrentFetches, server: server)
                theirs.append(their)
                progress(String(format: "run %d: newsboat %.2f s, unchanged %.2f s, %.0f MB", run + 1, their.0, their.1, their.2))
            }
            try? FileManager.default.removeItem(at: scratch)
        }
        func medians(_ runs: [(Double, Double, Double)]) -> (full: Double, unchanged: Double, peakRSS: Double) {
            (Stats.median(runs.map(\.0)), Stats.median(runs.map(\.1)), Stats.median(runs.map(\.2)))
        }
        return Result(ours: medians(ours), newsboat: newsboat == nil ? nil : medians(theirs), maxPerHost: maxPerHost,
                      perHostLimit: configuration.maxFetchesPerHost, parallelism: configuration.maxConcurrentFetches,
                      feeds: count, hosts: server.hosts)
    }

    /// Our first refresh, the unchanged one, the first one's peak RSS, and the most requests a
    /// host had from us at once in either.
    ///
    /// A throttled host is asked for one feed, whose 429 holds its others back (postponed); the
    /// next refresh asks it nothing, as its `Retry-After` has not passed.
    private static func runOurs(dataHome: String, urls: String, server: ManyHostsServer) throws
        -> (full: Double, unchanged: Double, peakRSS: Double, maxPerHost: Int) {
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("feedcore-refresh").path
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome
        let throttledHosts = server.throttledHosts.count, throttledFeeds = server.throttledFeeds
        let served = server.feeds - throttledFeeds
        func refresh(printing expected: String, answered: ManyHostsServer.Counts) throws -> (ChildProcess, Int) {
            let child = try ChildProcess.run(program, [dataHome, urls], environment: environment)
            var counts = server.takeCounts()
            let printed = child.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let maxPerHost = counts.maxPerHost
            counts.maxPerHost = 0
            guard child.status == 0, printed == expected, counts == answered else {
                throw BenchError("FeedCore's refresh of many hosts exited with \(child.status), printed \"\(printed)\" "
                                 + "where \"\(expected)\" was due, and was answered \(counts) where \(answered) was due: \(child.errors)")
            }
            return (child, maxPerHost)
        }
        let (full, fullPeak) = try refresh(
            printing: "new=\(served * itemsPerFeed) failures=\(throttledHosts) postponed=\(throttledFeeds - throttledHosts)",
            answered: .init(full: served, tooManyRequests: throttledHosts))
        let (unchanged, unchangedPeak) = try refresh(printing: "new=0 failures=0 postponed=\(throttledFeeds)",
                                                     answered: .init(notModified: served))
        return (full.seconds, unchanged.seconds, full.peakRSSMegabytes, max(fullPeak, unchangedPeak))
    }

    /// newsboat's first reload, the unchanged one, and the first one's peak RSS. It asks every
    /// feed of a throttled host each time: it keeps no `Retry-After`.
    private static func runNewsboat(_ executable: String, folder: String, urls: String, threads: Int,
                                    server: ManyHostsServer) throws -> (Double, Double, Double) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = folder + "/config"
        try "reload-threads \(threads)\n".write(toFile: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder
        environment["XDG_CONFIG_HOME"] = folder
        environment["XDG_DATA_HOME"] = folder
        let arguments = ["-u", urls, "-c", folder + "/cache.db", "-C", config, "-x", "reload"]
        let throttledFeeds = server.throttledFeeds, served = server.feeds - throttledFeeds
        func reload(full: Int) throws -> ChildProcess {
            let child = try ChildProcess.run(executable, arguments, environment: environment)
            var counts = server.takeCounts()
            counts.maxPerHost = 0
            let answered = ManyHostsServer.Counts(full: full, notModified: served - full, tooManyRequests: throttledFeeds)
            guard child.status == 0, counts == answered else {
                throw BenchError("newsboat -x reload of many hosts exited with \(child.status) and was answered \(counts) "
                                 + "where \(answered) was due: \(child.output) \(child.errors)")
            }
            return child
        }
        let full = try reload(full: served)
        // newsboat stores a new feed's ETag only from its second fetch on (see RefreshComparison).
        _ = try reload(full: served)
        let unchanged = try reload(full: 0)
        return (full.seconds, unchanged.seconds, full.peakRSSMegabytes)
    }
}

extension ManyHostsRefresh {
    /// Runs the section and adds its rows to the table and the JSON line.
    static func report(_ options: BenchOptions, into table: inout BenchTable,
                       _ report: (String, Double) -> Void) throws {
        progress("Refreshing \(feeds(options)) feeds from \(hosts(options)) loopback hosts: FeedCore and newsboat")
        let refresh = try run(options)
        let theirs = refresh.newsboat ?? (0, 0, 0)
        report("refresh_5000_feeds_s", refresh.ours.full)
        report("newsboat_refresh_5000_feeds_s", theirs.full)
        report("refresh_5000_feeds_unchanged_s", refresh.ours.unchanged)
        report("newsboat_refresh_5000_feeds_unchanged_s", theirs.unchanged)
        report("refresh_5000_peak_rss_mb", refresh.ours.peakRSS)
        report("newsboat_refresh_5000_peak_rss_mb", theirs.peakRSS)
        report("refresh_max_per_host", Double(refresh.maxPerHost))
        let what = "\(refresh.feeds) feeds × \(itemsPerFeed) items from \(refresh.hosts) hosts, \(refresh.parallelism) at once, median of \(runs(options))"
        RefreshComparison.addRows(what, ours: refresh.ours, newsboat: refresh.newsboat,
                                  unchanged: "304s; 429s not asked again", to: &table)
        table.add("  most requests one host had from FeedCore at once (counted by the server)",
                  "\(refresh.maxPerHost)", "≤ \(refresh.perHostLimit)")
    }
}
