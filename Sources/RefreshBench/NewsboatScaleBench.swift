import FeedCore
import Foundation

/// The million-entry store against newsboat's cache of the same entries: `print_unread_s_1m`
/// against `newsboat_print_unread_s_1m`, newsboat's first screen in tmux
/// (`newsboat_first_screen_ms_1m`, beside the reader's first frame), and both files' sizes
/// (`store_mb_1m`, `newsboat_cache_mb_1m`).
///
/// newsboat makes its own cache (its schema, from its first run), then every feed and entry of
/// our store is copied into it as newsboat stores a fetched item: the title as text, the body as
/// the HTML the feed carried, the date in Unix seconds, unread as ours are. newsboat's own count
/// of the unread is checked before anything is timed, so it reads every copied row.
@MainActor
enum NewsboatScaleBench {
    struct Result {
        var printUnreadSeconds: Double
        /// nil when newsboat is not installed, as for every figure of newsboat's below.
        var newsboatPrintUnreadSeconds: Double?
        var newsboatFirstScreenMilliseconds: Double?
        var storeMegabytes: Double
        var newsboatCacheMegabytes: Double?
    }

    static let newsboat = ["/usr/bin/newsboat", "/usr/local/bin/newsboat"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let sqlite = "/usr/bin/sqlite3"
    static let tmux = "/usr/bin/tmux"

    /// Measures against the store in `dataHome` holding `unread` unread entries: print-unread in
    /// alternation, then newsboat's first screen.
    static func run(dataHome: URL, unread: Int, _ options: BenchOptions) throws -> Result {
        let database = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": dataHome.path]).path
        // The store as it rests: its write-ahead log folded in, as the reader leaves it on closing.
        try command(sqlite, [database, "PRAGMA wal_checkpoint(TRUNCATE);"])
        let storeMegabytes = megabytes([database, database + "-wal"])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        let ours = { () throws -> Double in
            let child = try ChildProcess.run(ReaderBench.executable().path, ["--print-unread"], environment: environment)
            try expect(child, printing: unread, "feed-reader --print-unread")
            return child.seconds
        }
        guard let newsboat else {
            let seconds = try (0..<rounds(options)).map { _ in try ours() }
            return Result(printUnreadSeconds: Stats.median(seconds), storeMegabytes: storeMegabytes)
        }
        let cache = try NewsboatCache(copying: database, newsboat: newsboat)
        let theirs = { () throws -> Double in
            let child = try ChildProcess.run(newsboat, cache.arguments + ["-x", "print-unread"], environment: cache.environment)
            try expect(child, printing: unread, "newsboat -x print-unread")
            return child.seconds
        }
        // Once each untimed: the file cache then holds both files, as for a second start.
        _ = try ours()
        _ = try theirs()
        var oursTimes: [Double] = [], theirTimes: [Double] = []
        for _ in 0..<rounds(options) {
            oursTimes.append(try ours())
            theirTimes.append(try theirs())
        }
        let screens = try (0..<rounds(options)).map { _ in try firstScreen(of: cache) }
        return Result(printUnreadSeconds: Stats.median(oursTimes), newsboatPrintUnreadSeconds: Stats.median(theirTimes),
                      newsboatFirstScreenMilliseconds: Stats.median(screens), storeMegabytes: storeMegabytes,
                      newsboatCacheMegabytes: megabytes([cache.path, cache.path + "-wal", cache.path + "-journal"]))
    }

    /// Timed runs of each program: newsboat takes tens of seconds a run at a million entries.
    static func rounds(_ options: BenchOptions) -> Int { options.quick ? 1 : 3 }

    /// Milliseconds from starting newsboat in a detached tmux session to its feed list on the
    /// screen, read back with `capture-pane` as often as tmux answers; newsboat is then quit.
    private static func firstScreen(of cache: NewsboatCache) throws -> Double {
        let socket = "refresh-bench-\(getpid())"
        let started = Clock.nanoseconds()
        // The server this starts passes its environment (newsboat's folders) on to the pane.
        try command(tmux, ["-L", socket, "new-session", "-d", "-x", "160", "-y", "48", newsboat!] + cache.arguments,
                    environment: cache.environment)
        defer { _ = try? command(tmux, ["-L", socket, "kill-server"]) }
        // A feed-list line, as newsboat's default format shows it: "   1    (200/200) Bench Feed".
        let feedLine = #/\(\d+/\d+\)/#
        let deadline = started + 600_000_000_000
        while Clock.nanoseconds() < deadline {
            let screen = try command(tmux, ["-L", socket, "capture-pane", "-p"])
            if screen.contains(feedLine) {
                let milliseconds = Double(Clock.nanoseconds() - started) / 1e6
                try command(tmux, ["-L", socket, "send-keys", "q"])
                // newsboat writes its cache back on quitting: the next run waits for its lock.
                while (try? command(tmux, ["-L", socket, "has-session"])) != nil, Clock.nanoseconds() < deadline {
                    usleep(20_000)
                }
                return milliseconds
            }
        }
        throw BenchError("newsboat showed no feed list in tmux within 10 minutes")
    }

    /// Throws unless `child` succeeded and printed `count` (the first number in its output, read
    /// without grouping marks).
    private static func expect(_ child: ChildProcess, printing count: Int, _ what: String) throws {
        let digits = child.output.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "," || $0 == "." || $0 == " " }
        guard child.status == 0, Int(digits.filter(\.isNumber)) == count else {
            throw BenchError("\(what) exited with \(child.status) and printed \"\(child.output)\" \(child.errors), not \(count)")
        }
    }

    private static func megabytes(_ paths: [String]) -> Double {
        Double(paths.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)) / 1e6
    }

    /// Runs `executable` to its end; its standard output, or an error with its standard error.
    /// Through files, not pipes: the tmux server it may start keeps them open.
    @discardableResult
    static func command(_ executable: String, _ arguments: [String],
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let child = try ChildProcess.run(executable, arguments, environment: environment)
        guard child.status == 0 else {
            throw BenchError("\(executable) \(arguments.prefix(3).joined(separator: " ")) exited with \(child.status): \(child.errors)")
        }
        return child.output
    }
}

/// newsboat's cache holding the entries of our store, in a folder of its own with its URL list.
@MainActor
struct NewsboatCache {
    let folder: URL
    var path: String { folder.appendingPathComponent("cache.db").path }
    var arguments: [String] { ["-u", folder.appendingPathComponent("urls").path, "-c", path, "-C", folder.appendingPathComponent("config").path] }
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"] { environment[key] = folder.path }
        return environment
    }

    /// Lets newsboat make its cache, then copies every feed and entry of the store at `database` into it.
    init(copying database: String, newsboat: String) throws {
        folder = BenchFiles.directory.appendingPathComponent("newsboat-scale", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // newsboat's defaults: nothing fetched at start, every item kept.
        try "".write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let urls = try NewsboatScaleBench.command(NewsboatScaleBench.sqlite, ["-readonly", database, "SELECT url FROM feeds ORDER BY position, id"])
        try urls.write(to: folder.appendingPathComponent("urls"), atomically: true, encoding: .utf8)
        // Its first run makes the cache with newsboat's own schema, and finds it empty.
        let made = try ChildProcess.run(newsboat, arguments + ["-x", "print-unread"], environment: environment)
        guard made.status == 0, FileManager.default.fileExists(atPath: path) else {
            throw BenchError("newsboat made no cache: \(made.output) \(made.errors)")
        }
        // What newsboat stores of a fetched item: text titles, the feed's HTML, Unix-time dates.
        let copy = """
            ATTACH '\(database.replacingOccurrences(of: "'", with: "''"))' AS ours;
            BEGIN;
            INSERT INTO rss_feed (rssurl, url, title) SELECT url, COALESCE(link, ''), COALESCE(title, '') FROM ours.feeds;
            INSERT INTO rss_item (guid, title, author, url, feedurl, pubDate, content, unread, enclosure_url, enclosure_type, base)
                SELECT e.entryId, COALESCE(e.title, ''), COALESCE(e.author, ''), COALESCE(e.link, ''), f.url,
                       CAST(strftime('%s', e.sortDate) AS INTEGER), COALESCE(e.content, e.summaryHTML, e.summary, ''),
                       e.id IN (SELECT id FROM ours.unreadEntries), '', '', ''
                FROM ours.entries e JOIN ours.feeds f ON f.id = e.feedId ORDER BY e.id;
            COMMIT;
            """
        try NewsboatScaleBench.command(NewsboatScaleBench.sqlite, [path, copy])
    }
}

extension NewsboatScaleBench {
    /// The section's rows and figures, on the store in `dataHome` of `entries` entries, all unread;
    /// `firstFrame` is the reader's first frame on it in milliseconds, for the ratio, if measured.
    static func report(dataHome: URL, entries: Int, firstFrame: Double?, _ options: BenchOptions,
                       table: inout BenchTable, _ report: (String, Double) -> Void) throws {
        let size = entries >= 1_000_000 ? "\(entries / 1_000_000)M" : "\(entries / 1000)k"
        progress("newsboat against the store of \(size) entries: print-unread, the first screen, the files' sizes")
        let result = try run(dataHome: dataHome, unread: entries, options)
        report("print_unread_s_1m", result.printUnreadSeconds)
        report("newsboat_print_unread_s_1m", result.newsboatPrintUnreadSeconds ?? 0)
        report("newsboat_first_screen_ms_1m", result.newsboatFirstScreenMilliseconds ?? 0)
        report("store_mb_1m", result.storeMegabytes)
        report("newsboat_cache_mb_1m", result.newsboatCacheMegabytes ?? 0)
        guard let theirs = result.newsboatPrintUnreadSeconds, let screen = result.newsboatFirstScreenMilliseconds,
              let cache = result.newsboatCacheMegabytes else {
            table.add("--print-unread, \(size) entries, ours / newsboat", String(format: "%.2f s / not installed", result.printUnreadSeconds), "")
            table.add("store on disk, \(size) entries", String(format: "%.0f MB", result.storeMegabytes), "")
            return
        }
        table.add("--print-unread, \(size) entries, ours / newsboat -x print-unread",
                  String(format: "%.3f / %.2f s (%.0f×)", result.printUnreadSeconds, theirs, theirs / result.printUnreadSeconds),
                  "≥ 10× faster")
        let ratio = firstFrame.map { String(format: " (%.0f×)", screen / $0) } ?? ""
        table.add("first frame, ours / newsboat's first screen in tmux",
                  (firstFrame.map { String(format: "%.0f", $0) } ?? "–") + String(format: " / %.0f ms", screen) + ratio, "≥ 10× faster")
        table.add("on disk, our store / newsboat's cache", String(format: "%.0f / %.0f MB", result.storeMegabytes, cache), "ours no larger")
    }
}
