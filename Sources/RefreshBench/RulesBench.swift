import FeedCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What 100 rules cost (`--only=rules-apply,rules-refresh,rules-sync,rules-reader`): a refresh of the refresh comparison's 500 feeds in a
/// fresh `feedcore-refresh` with the rules stored against the same without them, in alternated
/// pairs (wall time and the child's CPU time, medians of the pairs' ratios); and applying them to
/// the large store's 100,000 entries, as "Apply to existing entries" does, each run on a fresh
/// copy of it; and the reader's start-up and search on that store with the rules applied against
/// it without them.
@MainActor
enum RulesBench {
    /// Rows of the refresh pairs.
    struct Overhead {
        /// The median over the pairs of the time with rules over the time without.
        var wallRatio: Double
        /// The same of the child processes' CPU time (user and system), which the network's waits do not hide.
        var cpuRatio: Double
        /// The lowest and highest of the pairs' CPU time ratios, which say how far one pair can be trusted.
        var cpuRange: ClosedRange<Double>
        var pairs: Int
        /// Medians, without and with rules, in seconds.
        var without: Double, with: Double
    }

    static func refreshPairs(_ options: BenchOptions) -> Int { options.quick ? 1 : 5 }
    static func applyRuns(_ options: BenchOptions) -> Int { options.quick ? 1 : 3 }

    /// The 100 rules: mute words and phrases in titles and contents, whole words, regular
    /// expressions, authors and links, as a heavy reader's list has them. Most match nothing in
    /// the bench's feeds; a few do: one hides a tenth of the entries, one marks a few read.
    nonisolated static let rules: [Rule] = {
        let words = ["sponsored", "giveaway", "crypto", "podcast", "webinar", "promo", "casino", "lottery", "horoscope", "celebrity",
                     "rumour", "leak", "clickbait", "unboxing", "livestream", "discount", "coupon", "election", "football", "recipe"]
        var rules = [
            Rule(name: "Every tenth", conditions: [RuleCondition(.title, .matches, #"^Entry \d*7:"#)], actions: [.hide]),
            Rule(name: "Touchpads", conditions: [RuleCondition(.title, .word, "touchpad")], actions: [.markRead]),
        ]
        for index in rules.count..<100 {
            let word = words[index % words.count], other = words[(index * 7 + 3) % words.count]
            let condition: RuleCondition
            var actions: [RuleAction] = [.hide]
            switch index % 10 {
            case 0, 1, 2: condition = RuleCondition(.title, .contains, "\(word) \(index)")
            case 3: condition = RuleCondition(.title, .word, word)
            case 4: condition = RuleCondition(.title, .matches, #"\b(?:\#(word)|\#(other))s?\b.*\d{4}"#)
            case 5: condition = RuleCondition(.title, .matches, "^(?:\(word)|\(other)):")
            case 6: condition = RuleCondition(.content, .contains, "\(word) \(other)")
            case 7:
                condition = RuleCondition(.content, .word, word)
                actions = [.markRead]
            case 8: condition = RuleCondition(.author, .is, "Spammer \(index)")
            default:
                condition = RuleCondition(.link, .matches, #"/\#(word)/\d+$"#)
                actions = [.star]
            }
            rules.append(Rule(name: "Mute \(index)", conditions: [condition], actions: actions))
        }
        return rules
    }()

    // MARK: - Refresh

    /// Refreshes with and without the rules in alternation, each pair in fresh stores.
    static func runRefresh(_ options: BenchOptions) throws -> Overhead {
        let count = RefreshComparison.feeds(options), items = RefreshComparison.itemsPerFeed
        let template = String(decoding: FeedGenerator(items: items, targetBytes: items * 500).rss(), as: UTF8.self)
        let bodies = (0..<count).map { index in
            Data(template.replacingOccurrences(of: "urn:refresh-bench:", with: "urn:refresh-bench:\(index):")
                .replacingOccurrences(of: "https://bench.example.org/", with: "https://bench.example.org/\(index)/").utf8)
        }
        let server = try FeedServer(bodies: bodies)
        defer { server.stop() }
        let urls = BenchFiles.directory.appendingPathComponent("rules-refresh-urls.txt")
        try (0..<count).map { server.url(ofFeed: $0).absoluteString + "\n" }.joined().write(to: urls, atomically: true, encoding: .utf8)

        var without: [(wall: Double, cpu: Double)] = [], with: [(wall: Double, cpu: Double)] = []
        for pair in 0..<refreshPairs(options) {
            for withRules in pair % 2 == 0 ? [false, true] : [true, false] {
                let dataHome = BenchFiles.directory.appendingPathComponent("rules-refresh-\(pair)-\(withRules)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: dataHome) }
                if withRules { try storeRules(dataHome: dataHome) }
                let run = try refresh(dataHome: dataHome, urls: urls, server: server, feeds: count, items: items)
                if withRules { with.append(run) } else { without.append(run) }
            }
        }
        return overhead(with: with, without: without)
    }

    /// A store under `dataHome` holding the rules and nothing else, closed again.
    private static func storeRules(dataHome: URL) throws {
        let result = blocking {
            let store = try FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": dataHome.path])
            for rule in rules { try await store.addRule(rule) }
            return try await store.rules().count
        }
        guard case .success(rules.count) = result else { throw BenchError("the rules were not stored: \(result)") }
    }

    /// One first refresh by `feedcore-refresh`: its wall time and its CPU time, in seconds.
    private static func refresh(dataHome: URL, urls: URL, server: FeedServer, feeds: Int, items: Int) throws -> (wall: Double, cpu: Double) {
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("feedcore-refresh").path
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        let cpuBefore = childrenCPUSeconds()
        let child = try ChildProcess.run(program, [dataHome.path, urls.path], environment: environment)
        let cpu = childrenCPUSeconds() - cpuBefore
        let counts = server.takeCounts()
        let printed = child.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard child.status == 0, printed == "new=\(feeds * items) failures=0 postponed=0", counts.full == feeds else {
            throw BenchError("feedcore-refresh exited with \(child.status), printed \"\(printed)\", was served \(counts.full) feeds: \(child.errors)")
        }
        return (child.seconds, cpu)
    }

    /// The user and system time of this process's children that have ended, in seconds: the
    /// kernel adds a child's own ended children to it (GNU time's program, here).
    nonisolated private static func childrenCPUSeconds() -> Double { cpuSeconds(of: RUSAGE_CHILDREN.rawValue) }

    /// The user and system time of this process so far, in seconds, all its threads together.
    nonisolated private static func processCPUSeconds() -> Double { cpuSeconds(of: RUSAGE_SELF.rawValue) }

    nonisolated private static func cpuSeconds(of who: Int32) -> Double {
        var usage = rusage()
        getrusage(who, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    // MARK: - Sync

    static func syncPairs(_ options: BenchOptions) -> Int { options.quick ? 1 : 5 }

    /// The servers the sync rows run against: Debian's tt-rss and FreshRSS's Google Reader API.
    enum SyncServer: CaseIterable {
        case tinyTinyRSS, googleReader

        var name: String { self == .tinyTinyRSS ? "tt-rss" : "FreshRSS (Google Reader API)" }
        /// The figure's name: tt-rss's kept as it was before FreshRSS had one.
        var key: String { self == .tinyTinyRSS ? "sync_20k_100_rules" : "sync_greader_20k_100_rules" }
    }

    /// A sync server started and seeded with the sync bench's feeds, and how to reach its account.
    @MainActor
    private struct SeededServer {
        var server: SyncBench.Server
        var endpoint: String, service: String, user: String, password: String

        init(_ kind: SyncServer, feeds: Int) throws {
            switch kind {
            case .tinyTinyRSS:
                server = try SyncBench.Server("ttrss-server", folder: "rules-ttrss", unavailableStatus: 3)
                service = "tt-rss"
                user = "bench"
                password = "bench-password"
                do {
                    endpoint = try server.setting("TTRSS_URL")
                    try server.run("user", user, password)
                    try server.run("seed", user, String(feeds), String(SyncBench.itemsPerFeed))
                    try server.run("sql", "VACUUM ANALYZE")
                } catch {
                    server.stop()
                    throw error
                }
            case .googleReader:
                server = try SyncBench.Server("freshrss-server", folder: "rules-freshrss", unavailableStatus: 77)
                service = "greader"
                user = "reader"
                password = "api-password-1"
                endpoint = server.startOutput.trimmingCharacters(in: .whitespacesAndNewlines) + "api/greader.php"
                do {
                    try server.run("seed", user, String(feeds), String(SyncBench.itemsPerFeed))
                } catch {
                    server.stop()
                    throw error
                }
            }
        }
    }

    /// Initial syncs of the sync bench's account on `kind` with and without the rules in
    /// alternation, each in a fresh library.
    static func runSync(_ options: BenchOptions, against kind: SyncServer) throws -> Overhead {
        let feeds = SyncBench.feeds(options), total = feeds * SyncBench.itemsPerFeed
        let seeded = try SeededServer(kind, feeds: feeds)
        defer { seeded.server.stop() }

        var without: [(wall: Double, cpu: Double)] = [], with: [(wall: Double, cpu: Double)] = []
        for pair in 0..<syncPairs(options) {
            for withRules in pair % 2 == 0 ? [false, true] : [true, false] {
                let folder = BenchFiles.directory.appendingPathComponent("rules-sync-\(pair)-\(withRules)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let reader = try SyncBench.Reader(folder: folder)
                if withRules { try storeRules(dataHome: folder.appendingPathComponent("data")) }
                try reader.addAccount(server: seeded.endpoint, service: seeded.service, user: seeded.user, password: seeded.password)
                let run = try sync(reader, expectedEntries: total)
                if withRules { with.append(run) } else { without.append(run) }
            }
        }
        return overhead(with: with, without: without)
    }

    /// One `feed-reader --sync`: its wall time and its CPU time, in seconds, once it stored every article.
    private static func sync(_ reader: SyncBench.Reader, expectedEntries: Int) throws -> (wall: Double, cpu: Double) {
        let cpuBefore = childrenCPUSeconds()
        let child = try ChildProcess.run(reader.program, ["--sync"], environment: reader.environment)
        let cpu = childrenCPUSeconds() - cpuBefore
        guard child.status == 0 else { throw BenchError("feed-reader --sync exited with \(child.status): \(child.errors)") }
        let store = try FeedStore(path: FeedStore.databaseURL(environment: reader.environment).path)
        let stored = try blocking { try await store.entryCount(includingHidden: true) }.get()
        guard stored == expectedEntries else { throw BenchError("feed-reader --sync stored \(stored) articles of \(expectedEntries)") }
        return (child.seconds, cpu)
    }

    private static func overhead(with: [(wall: Double, cpu: Double)], without: [(wall: Double, cpu: Double)]) -> Overhead {
        let cpuRatios = zip(with, without).map { $0.cpu / $1.cpu }
        return Overhead(wallRatio: Stats.median(zip(with, without).map { $0.wall / $1.wall }),
                        cpuRatio: Stats.median(cpuRatios), cpuRange: cpuRatios.min()!...cpuRatios.max()!, pairs: with.count,
                        without: Stats.median(without.map(\.wall)), with: Stats.median(with.map(\.wall)))
    }

    // MARK: - Applying to stored entries

    /// The median time `applyRules` takes over the large store's entries with the 100 rules, and
    /// the median CPU time this process spent meanwhile (on every core it matched on).
    static func runApply(_ options: BenchOptions) throws -> (seconds: Double, cpuSeconds: Double, entries: Int, matched: Int) {
        let large = try LargeStore.shared(options)
        let source = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": large.dataHome.path])
        let folder = BenchFiles.directory.appendingPathComponent("rules-apply", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var times: [Double] = [], cpuTimes: [Double] = [], examined = 0, matched = 0
        for run in 0..<applyRuns(options) {
            // SQLite's online backup: a consistent copy while the bench holds the store open.
            let copy = folder.appendingPathComponent("copy-\(run).db").path
            let backup = try ChildProcess.run("/usr/bin/sqlite3", [source.path, ".backup '\(copy)'"],
                                              environment: ProcessInfo.processInfo.environment)
            guard backup.status == 0 else { throw BenchError("sqlite3 .backup failed: \(backup.errors)") }
            let result = blocking {
                let store = try FeedStore(path: copy)
                for rule in rules { try await store.addRule(rule) }
                let started = Clock.nanoseconds(), cpuStarted = processCPUSeconds()
                let application = try await store.applyRules()
                return (Double(Clock.nanoseconds() - started) / 1e9, processCPUSeconds() - cpuStarted, application)
            }
            let (seconds, cpuSeconds, application) = try result.get()
            times.append(seconds)
            cpuTimes.append(cpuSeconds)
            (examined, matched) = (application.examined, application.matched)
            try? FileManager.default.removeItem(atPath: copy)
        }
        let expected = SearchBench.entries(options)
        guard examined == expected, matched > 0 else {
            throw BenchError("applying the rules examined \(examined) entries of \(expected) and matched \(matched)")
        }
        return (Stats.median(times), Stats.median(cpuTimes), examined, matched)
    }

    // MARK: - The reader with rules present

    static func readerPairs(_ options: BenchOptions) -> Int { options.quick ? 1 : 7 }

    /// Rows of the reader's start-up and search with the rules applied against the same store without them.
    struct ReaderOverhead {
        /// Medians of the pairs' ratios, with rules over without: the first frame's time, and a search keystroke's query CPU time.
        var startupRatio: Double, searchRatio: Double
        /// Medians, without and with rules, in milliseconds.
        var startupWithout: Double, startupWith: Double
        var searchWithout: Double, searchWith: Double
        var hidden: Int, pairs: Int
    }

    /// The release feed-reader's first frame and the search keystrokes (`SearchBench`) on a copy of
    /// the large store with the rules stored and applied (a tenth of it hidden, more marked),
    /// against another copy without them, in alternated pairs.
    static func runReader(_ options: BenchOptions) throws -> ReaderOverhead {
        let large = try LargeStore.shared(options)
        let source = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": large.dataHome.path])
        // Both sides copies made the same way, so neither has a freshly compacted file the other lacks.
        func copyOfStore(_ name: String) throws -> (dataHome: URL, store: FeedStore) {
            let dataHome = BenchFiles.directory.appendingPathComponent(name, isDirectory: true)
            let copy = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": dataHome.path])
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            let backup = try ChildProcess.run("/usr/bin/sqlite3", [source.path, ".backup '\(copy.path)'"],
                                              environment: ProcessInfo.processInfo.environment)
            guard backup.status == 0 else { throw BenchError("sqlite3 .backup failed: \(backup.errors)") }
            let subscriptions = source.deletingLastPathComponent().appendingPathComponent("feeds.opml")
            if FileManager.default.fileExists(atPath: subscriptions.path) {
                try FileManager.default.copyItem(at: subscriptions, to: copy.deletingLastPathComponent().appendingPathComponent("feeds.opml"))
            }
            return (dataHome, try FeedStore(path: copy.path))
        }
        let (dataHome, withRules) = try copyOfStore("rules-reader-with")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let without = try copyOfStore("rules-reader-without")
        defer { try? FileManager.default.removeItem(at: without.dataHome) }
        let hidden = try blocking {
            for rule in rules { try await withRules.addRule(rule) }
            try await withRules.applyRules()
            return try await withRules.entryCount(includingHidden: true) - withRules.entryCount()
        }.get()
        guard hidden > 0 else { throw BenchError("the rules hid nothing in the reader's store") }

        var startups: (with: [Double], without: [Double]) = ([], []), searches: (with: [Double], without: [Double]) = ([], [])
        for pair in 0..<readerPairs(options) {
            for rulesPresent in pair % 2 == 0 ? [false, true] : [true, false] {
                let started = Clock.nanoseconds()
                let lines = try ReaderBench.launch(ReaderBench.executable(), dataHome: rulesPresent ? dataHome : without.dataHome,
                                                   probe: .firstFrame, entries: ReaderBench.largeStoreScrolledEntries)
                guard let frame = lines["first-frame-ns"].flatMap(UInt64.init) else {
                    throw BenchError("the reader probe printed no first-frame time")
                }
                let startup = Double(frame - started) / 1e6
                let search = try SearchBench.run(options, in: rulesPresent ? withRules : without.store).cpuMedian
                if rulesPresent {
                    startups.with.append(startup)
                    searches.with.append(search)
                } else {
                    startups.without.append(startup)
                    searches.without.append(search)
                }
            }
        }
        return ReaderOverhead(startupRatio: Stats.median(zip(startups.with, startups.without).map { $0 / $1 }),
                              searchRatio: Stats.median(zip(searches.with, searches.without).map { $0 / $1 }),
                              startupWithout: Stats.median(startups.without), startupWith: Stats.median(startups.with),
                              searchWithout: Stats.median(searches.without), searchWith: Stats.median(searches.with),
                              hidden: hidden, pairs: startups.with.count)
    }

    private static func addReaderRows(_ options: BenchOptions, to table: inout BenchTable, _ report: (String, Double) -> Void) throws {
        let entries = SearchBench.entries(options)
        progress("Rules: the reader's start-up and search at \(entries) entries with 100 rules applied and without, \(readerPairs(options)) pairs")
        let reader = try runReader(options)
        report("reader_startup_100k_100_rules_ratio", reader.startupRatio)
        report("search_100k_100_rules_ratio", reader.searchRatio)
        table.add("exec → first frame, \(entries / 1000)k entries, 100 rules applied (\(reader.hidden) hidden) / none, median of \(reader.pairs) alternated pairs",
                  String(format: "%.3f× (%.0f / %.0f ms)", reader.startupRatio, reader.startupWith, reader.startupWithout), "≤ 1.05×")
        table.add("  a search keystroke's query CPU time, the same stores",
                  String(format: "%.3f× (%.2f / %.2f ms)", reader.searchRatio, reader.searchWith, reader.searchWithout), "≤ 1.05×")
    }

    /// The section's figures and table rows.
    static let sections = ["rules-apply", "rules-refresh", "rules-sync", "rules-reader"]

    /// The figures and table rows of those of `sections` the run includes.
    static func addRows(_ options: BenchOptions, to table: inout BenchTable, _ report: (String, Double) -> Void) throws {
        if options.includes("rules-apply") { try addApplyRows(options, to: &table, report) }
        if options.includes("rules-refresh") { try addRefreshRows(options, to: &table, report) }
        if options.includes("rules-sync") { try addSyncRows(options, to: &table, report) }
        if options.includes("rules-reader") { try addReaderRows(options, to: &table, report) }
    }

    private static func addApplyRows(_ options: BenchOptions, to table: inout BenchTable, _ report: (String, Double) -> Void) throws {
        let entries = SearchBench.entries(options)
        progress("Rules: applying 100 rules to \(entries) stored entries")
        let apply = try runApply(options)
        report("apply_100_rules_100k_s", apply.seconds)
        table.add("apply 100 rules to \(entries / 1000)k stored entries (\(apply.matched) matched), median of \(applyRuns(options))",
                  String(format: "%.2f s", apply.seconds), "< 2 s")
        report("apply_100_rules_100k_cpu_s", apply.cpuSeconds)
        table.add("  the same, CPU time of all threads", String(format: "%.2f s", apply.cpuSeconds), "")
    }

    private static func addRefreshRows(_ options: BenchOptions, to table: inout BenchTable, _ report: (String, Double) -> Void) throws {
        let feeds = RefreshComparison.feeds(options)
        progress("Rules: refreshing \(feeds) feeds with 100 rules and without, \(refreshPairs(options)) pairs")
        let refresh = try runRefresh(options)
        report("refresh_500_feeds_100_rules_ratio", refresh.wallRatio)
        report("refresh_500_feeds_100_rules_cpu_ratio", refresh.cpuRatio)
        table.add("refresh of \(feeds) feeds, 100 rules / none, median of \(refresh.pairs) alternated pairs",
                  String(format: "%.3f× (%.2f / %.2f s)", refresh.wallRatio, refresh.with, refresh.without), "≤ 1.05×")
        table.add("  the same, CPU time (lowest–highest pair)",
                  String(format: "%.3f× (%.3f–%.3f)", refresh.cpuRatio, refresh.cpuRange.lowerBound, refresh.cpuRange.upperBound), "≤ 1.05×")
    }

    private static func addSyncRows(_ options: BenchOptions, to table: inout BenchTable, _ report: (String, Double) -> Void) throws {
        let articles = SyncBench.feeds(options) * SyncBench.itemsPerFeed
        for kind in SyncServer.allCases {
            progress("Rules: initial \(kind.name) syncs of \(articles) articles with 100 rules and without, \(syncPairs(options)) pairs")
            do {
                let sync = try runSync(options, against: kind)
                report(kind.key + "_ratio", sync.wallRatio)
                report(kind.key + "_cpu_ratio", sync.cpuRatio)
                table.add("\(kind.name) initial sync of \(articles) articles, 100 rules / none, median of \(sync.pairs) alternated pairs",
                          String(format: "%.3f× (%.2f / %.2f s)", sync.wallRatio, sync.with, sync.without), "≤ 1.05×")
                table.add("  the same, CPU time (lowest–highest pair)",
                          String(format: "%.3f× (%.3f–%.3f)", sync.cpuRatio, sync.cpuRange.lowerBound, sync.cpuRange.upperBound), "≤ 1.05×")
            } catch let unavailable as SyncBench.Unavailable {
                table.add("\(kind.name) sync with rules", "no server: \(unavailable.reason)", "")
            }
        }
    }
}
