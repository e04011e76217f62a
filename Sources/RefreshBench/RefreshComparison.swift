import FeedCore
import Foundation

/// `refresh_500_feeds_s` against `newsboat_refresh_500_feeds_s`, their `_unchanged_` variants
/// and both programs' peak RSS: 500 feeds of 50 items each from a local ``FeedServer``, fetched,
/// parsed and stored by FeedCore in a fresh process (`feedcore-refresh`), against newsboat's `-x reload` on the same
/// URLs with as many reload threads as FeedCore fetches at once from one host; then the same again with
/// nothing changed (every answer a 304). Each program is timed from its start to its exit.
enum RefreshComparison {
    static let itemsPerFeed = 50

    struct Result {
        var ours: (full: Double, unchanged: Double, peakRSS: Double)
        /// nil when newsboat is not installed.
        var newsboat: (full: Double, unchanged: Double, peakRSS: Double)?
        var parallelism: Int
        var feeds: Int
    }

    static func feeds(_ options: BenchOptions) -> Int { options.quick ? 50 : 500 }

    /// Medians over a few alternated runs (one when quick: each run takes seconds of waiting on
    /// the server's delays).
    static func run(_ options: BenchOptions) throws -> Result {
        let count = feeds(options)
        let template = String(decoding: FeedGenerator(items: itemsPerFeed, targetBytes: itemsPerFeed * 500).rss(),
                              as: UTF8.self)
        // Every feed its own GUIDs and links, as different sites have.
        let bodies = (0..<count).map { index in
            Data(template.replacingOccurrences(of: "urn:refresh-bench:", with: "urn:refresh-bench:\(index):")
                .replacingOccurrences(of: "https://bench.example.org/", with: "https://bench.example.org/\(index)/").utf8)
        }
        let server = try FeedServer(bodies: bodies)
        defer { server.stop() }
        let urls = BenchFiles.directory.appendingPathComponent("refresh-urls.txt")
        try (0..<count).map { server.url(ofFeed: $0).absoluteString + "\n" }.joined()
            .write(to: urls, atomically: true, encoding: .utf8)
        // Every feed is on one host, so FeedCore fetches no more at once than it sends one host.
        let parallelism = FeedFetcher().configuration.maxFetchesOfAnyHost
        let newsboat = ["/usr/bin/newsboat", "/usr/local/bin/newsboat"].first { FileManager.default.isExecutableFile(atPath: $0) }

        var ours: [(Double, Double, Double)] = [], theirs: [(Double, Double, Double)] = []
        for run in 0..<(options.quick ? 1 : 3) {
            let scratch = BenchFiles.directory.appendingPathComponent("refresh-\(run)", isDirectory: true)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            ours.append(try runOurs(dataHome: scratch.appendingPathComponent("ours").path, urls: urls.path,
                                    server: server, feeds: count))
            if let newsboat {
                theirs.append(try runNewsboat(newsboat, folder: scratch.appendingPathComponent("newsboat").path,
                                              urls: urls.path, threads: parallelism, server: server, feeds: count))
            }
            try? FileManager.default.removeItem(at: scratch)
        }
        func medians(_ runs: [(Double, Double, Double)]) -> (full: Double, unchanged: Double, peakRSS: Double) {
            (Stats.median(runs.map(\.0)), Stats.median(runs.map(\.1)), Stats.median(runs.map(\.2)))
        }
        return Result(ours: medians(ours), newsboat: newsboat == nil ? nil : medians(theirs),
                      parallelism: parallelism, feeds: count)
    }

    /// Our first refresh, the unchanged one, and the first one's peak RSS.
    private static func runOurs(dataHome: String, urls: String, server: FeedServer,
                                feeds: Int) throws -> (Double, Double, Double) {
        // feedcore-refresh is built beside refresh-bench.
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("feedcore-refresh").path
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome
        func refresh(expectedNew: Int, expectedFull: Int) throws -> ChildProcess {
            let child = try ChildProcess.run(program, [dataHome, urls], environment: environment)
            let counts = server.takeCounts()
            let printed = child.output.trimmingCharacters(in: .whitespacesAndNewlines)
            guard child.status == 0, printed == "new=\(expectedNew) failures=0 postponed=0",
                  counts.full == expectedFull, counts.notModified == feeds - expectedFull else {
                throw BenchError("FeedCore's refresh exited with \(child.status), printed \"\(printed)\", "
                                 + "was served \(counts.full) feeds and \(counts.notModified) 304s")
            }
            return child
        }
        let full = try refresh(expectedNew: feeds * itemsPerFeed, expectedFull: feeds)
        let unchanged = try refresh(expectedNew: 0, expectedFull: 0)
        return (full.seconds, unchanged.seconds, full.peakRSSMegabytes)
    }

    /// newsboat's first reload, the unchanged one, and the first one's peak RSS.
    private static func runNewsboat(_ executable: String, folder: String, urls: String, threads: Int,
                                    server: FeedServer, feeds: Int) throws -> (Double, Double, Double) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = folder + "/config"
        try "reload-threads \(threads)\n".write(toFile: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder
        environment["XDG_CONFIG_HOME"] = folder
        environment["XDG_DATA_HOME"] = folder
        let arguments = ["-u", urls, "-c", folder + "/cache.db", "-C", config, "-x", "reload"]
        func reload(expectedFull: Int) throws -> ChildProcess {
            let child = try ChildProcess.run(executable, arguments, environment: environment)
            let counts = server.takeCounts()
            guard child.status == 0, counts.full == expectedFull, counts.notModified == feeds - expectedFull else {
                throw BenchError("newsboat -x reload exited with \(child.status), was served \(counts.full) feeds "
                                 + "and \(counts.notModified) 304s: \(child.output)")
            }
            return child
        }
        let full = try reload(expectedFull: feeds)
        // newsboat stores a new feed's ETag only from its second fetch on (its first reload
        // updates a feed row it has not inserted yet), so it learns them in one more reload.
        _ = try reload(expectedFull: feeds)
        let unchanged = try reload(expectedFull: 0)
        return (full.seconds, unchanged.seconds, full.peakRSSMegabytes)
    }
}

extension RefreshComparison {
    /// A refresh's figures: the first refresh and the unchanged one in seconds, peak RSS in megabytes.
    typealias Figures = (full: Double, unchanged: Double, peakRSS: Double)

    /// The table's rows of a refresh against newsboat's (nil: not installed): the first refresh,
    /// the one with nothing changed (`unchanged` says what its server answered), peak memory.
    static func addRows(_ what: String, ours: Figures, newsboat: Figures?, unchanged: String, to table: inout BenchTable) {
        guard let theirs = newsboat else {
            table.add("Refresh \(what), FeedCore / newsboat", String(format: "%.2f s / not installed", ours.full), "")
            return
        }
        table.add("Refresh \(what), FeedCore / newsboat",
                  String(format: "%.2f / %.2f s (%.1f×)", ours.full, theirs.full, theirs.full / ours.full), "≥ 2× faster")
        table.add("  nothing changed (\(unchanged)), FeedCore / newsboat",
                  String(format: "%.2f / %.2f s (%.1f×)", ours.unchanged, theirs.unchanged, theirs.unchanged / ours.unchanged),
                  "≥ 2× faster")
        table.add("  peak RSS, FeedCore / newsboat", String(format: "%.0f / %.0f MB", ours.peakRSS, theirs.peakRSS), "ours lower")
    }
}
