import CGtk
import Foundation
import RefreshGtk

/// refresh-bench: RefreshGtk's and the feed reader's performance figures.
///
/// Prints a table for people, then, as its last line, one JSON object of numbers for scripts
/// (see docs/performance.md). `--quick` runs everything briefly on smaller data,
/// only to check that every figure comes out; its numbers are not the ones to judge.
/// Run it through `./meson-helpers/bench`, which builds in release mode and starts it in a
/// virtual X server with the cairo renderer.
@MainActor
func runBench() throws -> [(key: String, value: Double)] {
    let options = BenchOptions(arguments: CommandLine.arguments)
    if let unknown = options.unknownSection { throw BenchError("there is no section \(unknown)\n\(BenchOptions.usage)") }
    setenv("GSK_RENDERER", "cairo", 0)
    gtk_init()
    MainQueueBridge.install()
    // Every process removes its own folder, the first-pull children too.
    defer { BenchFiles.removeAll() }
    if CommandLine.arguments.contains(FirstPullBench.childFlag) {
        return [("first_pull_frame_ms", FirstPullBench.measureInThisProcess())]
    }
    var table = BenchTable()
    var figures: [(key: String, value: Double)] = []
    var plot = PlotData()
    func report(_ key: String, _ value: Double) { figures.append((key, value.isFinite ? value : 0)) }

    if options.includes("core") {
        progress("RefreshCore: pull events")
        let core = CoreBench.run(options)
        report("core_event_ns", core.nanoseconds)
        table.add("Pull event, tracker + state machine", String(format: "%.0f ns", core.nanoseconds), "< 1000 ns")
    }

    if options.includes("header") {
        progress("NormalHeader: offscreen frames")
        let scale1 = HeaderPaintBench.run(options, scale: 1), scale2 = HeaderPaintBench.run(options, scale: 2)
        report("header_frame_us_scale1", scale1)
        report("header_frame_us_scale2", scale2)
        table.add("NormalHeader frame, scale 1", String(format: "%.0f µs", scale1), "")
        table.add("NormalHeader frame, scale 2", String(format: "%.0f µs", scale2), "< 500 µs")
    }

    if options.includes("pull") {
        progress("Pull frames: RefreshView and the margin/height baseline, \(PullContent.listView.title)")
        let pull = PullBench.run(options, content: .listView)
        plot.add(pull, content: .listView)
        let ratio = pull.baseline.p99 / pull.ours.p99
        let overFloor = pull.ours.p50 / pull.renderFloor.p50
        report("pull_frame_us_p50", pull.ours.p50)
        report("pull_frame_us_p99", pull.ours.p99)
        report("baseline_frame_us_p50", pull.baseline.p50)
        report("baseline_frame_us_p99", pull.baseline.p99)
        report("pull_vs_baseline_p99_ratio", ratio)
        report("content_relayouts_per_pull_frame", pull.relayoutsPerFrame)
        report("render_floor_us_p50", pull.renderFloor.p50)
        report("pull_over_floor_p50", overFloor)
        table.add("Pull frame p50 / p99 (RefreshView)", String(format: "%.0f / %.0f µs", pull.ours.p50, pull.ours.p99), "p99 < 4000 µs")
        table.add("Pull frame p50 / p99 (height request)", String(format: "%.0f / %.0f µs", pull.baseline.p50, pull.baseline.p99), "")
        table.add("Baseline p99 / ours", String(format: "%.2f×", ratio), "")
        table.add("  of which input + layout + snapshot, p50", String(format: "%.0f / %.0f µs (%.1f×)",
                  pull.layoutP50.ours, pull.layoutP50.baseline, pull.layoutP50.baseline / pull.layoutP50.ours), "")
        table.add("Render floor p50 / p99 (one flat colour)",
                  String(format: "%.0f / %.0f µs", pull.renderFloor.p50, pull.renderFloor.p99), "")
        table.add("Pull frame p50 / render floor p50", String(format: "%.2f×", overFloor), "≤ 3×")
        table.add("List relayouts per frame (ours / baseline)",
                  String(format: "%.2f / %.2f", pull.relayoutsPerFrame, pull.baselineRelayoutsPerFrame), "0")
    }

    for content in [PullContent.listBox, .textView] where options.includes(content.rawValue) {
        progress("Pull frames: RefreshView and the height-request baseline, \(content.title)")
        let pull = PullBench.run(options, content: content)
        plot.add(pull, content: content)
        let key = content.rawValue
        report("\(key)_pull_us_p50", pull.ours.p50)
        report("\(key)_pull_us_p99", pull.ours.p99)
        report("\(key)_baseline_us_p50", pull.baseline.p50)
        report("\(key)_baseline_us_p99", pull.baseline.p99)
        report("\(key)_baseline_over_pull_p50", pull.baseline.p50 / pull.ours.p50)
        report("\(key)_baseline_over_pull_p99", pull.baseline.p99 / pull.ours.p99)
        table.add("\(content.title): pull frame p50 / p99", String(format: "%.0f / %.0f µs", pull.ours.p50, pull.ours.p99),
                  "p99 < 4167 µs")
        table.add("  the same by height request, p50 / p99",
                  String(format: "%.0f / %.0f µs", pull.baseline.p50, pull.baseline.p99), "")
        table.add("  baseline / ours, p50 / p99", String(format: "%.1f× / %.1f×", pull.baseline.p50 / pull.ours.p50,
                                                         pull.baseline.p99 / pull.ours.p99), "≥ 5× / ≥ 5×")
    }

    if options.includes("first-pull") {
        progress("The first pull frame in fresh processes")
        let first = try FirstPullBench.run(options)
        report("first_pull_frame_ms", first)
        table.add("First pull frame after launch", String(format: "%.1f ms", first), "< 16 ms")
    }

    if options.includes("refresh") {
        let feeds = RefreshComparison.feeds(options)
        progress("Refreshing \(feeds) feeds from a local server: FeedCore and newsboat")
        let refresh = try RefreshComparison.run(options)
        let theirs = refresh.newsboat ?? (0, 0, 0)
        report("refresh_500_feeds_s", refresh.ours.full)
        report("newsboat_refresh_500_feeds_s", theirs.full)
        report("refresh_500_feeds_unchanged_s", refresh.ours.unchanged)
        report("newsboat_refresh_500_feeds_unchanged_s", theirs.unchanged)
        report("refresh_peak_rss_mb", refresh.ours.peakRSS)
        report("newsboat_peak_rss_mb", theirs.peakRSS)
        plot.addRefresh("ours", seconds: refresh.ours.full, feeds: feeds)
        plot.addRefresh("newsboat", seconds: theirs.full, feeds: feeds)
        plot.addRefresh("ours_unchanged", seconds: refresh.ours.unchanged, feeds: feeds)
        plot.addRefresh("newsboat_unchanged", seconds: theirs.unchanged, feeds: feeds)
        let what = "\(feeds) feeds × \(RefreshComparison.itemsPerFeed) items, \(refresh.parallelism) at once"
        RefreshComparison.addRows(what, ours: refresh.ours, newsboat: refresh.newsboat, unchanged: "all 304", to: &table)
    }

    // Minutes of reloads: asked for by name only, so the default run stays under 15 minutes.
    if options.includes("refresh-hosts") {
        try ManyHostsRefresh.report(options, into: &table, report)
    }

    if options.includes("sync") {
        let feeds = SyncBench.feeds(options), articles = SyncBench.feeds(options) * SyncBench.itemsPerFeed
        let what = "\(articles) articles in \(feeds) feeds"
        progress("Sync with Tiny Tiny RSS, \(what): feed-reader --sync and newsboat")
        do {
            let ttrss = try SyncBench.runTinyTinyRSS(options)
            let theirs = ttrss.newsboat ?? SyncBench.Run(seconds: 0, peakRSS: 0)
            report("ttrss_sync_initial_s", ttrss.initial.seconds)
            report("newsboat_ttrss_sync_initial_s", theirs.seconds)
            report("ttrss_sync_peak_rss_mb", ttrss.initial.peakRSS)
            report("newsboat_ttrss_sync_peak_rss_mb", theirs.peakRSS)
            report("ttrss_sync_incremental_requests", Double(ttrss.incrementalRequests))
            report("ttrss_sync_incremental_s", ttrss.incrementalSeconds)
            plot.addSync("ttrss", seconds: ttrss.initial.seconds)
            plot.addSync("newsboat_ttrss", seconds: theirs.seconds)
            plot.addSync("ttrss_incremental", seconds: ttrss.incrementalSeconds)
            if ttrss.newsboat == nil {
                table.add("tt-rss initial sync, \(what), ours / newsboat", String(format: "%.2f s / not installed", ttrss.initial.seconds), "")
            } else {
                table.add("tt-rss initial sync, \(what), ours / newsboat",
                          String(format: "%.2f / %.2f s (%.1f×)", ttrss.initial.seconds, theirs.seconds, theirs.seconds / ttrss.initial.seconds),
                          "≥ 2× faster")
                table.add("  peak RSS, ours / newsboat", String(format: "%.0f / %.0f MB", ttrss.initial.peakRSS, theirs.peakRSS), "ours lower")
            }
            table.add("tt-rss incremental sync, \(SyncBench.changedArticles) articles changed",
                      String(format: "%d requests, %.2f s", ttrss.incrementalRequests, ttrss.incrementalSeconds), "≤ 5 requests, < 1 s")
        } catch let unavailable as SyncBench.Unavailable {
            table.add("tt-rss sync", "no server: \(unavailable.reason)", "")
        }
        progress("Sync with FreshRSS's Google Reader API, \(what): feed-reader --sync and its floor")
        do {
            let greader = try SyncBench.runGoogleReader(options)
            report("greader_sync_initial_s", greader.initial.seconds)
            report("greader_sync_floor_s", greader.floorSeconds)
            report("greader_sync_peak_rss_mb", greader.initial.peakRSS)
            report("greader_sync_incremental_requests", Double(greader.incrementalRequests))
            report("greader_sync_incremental_s", greader.incrementalSeconds)
            plot.addSync("greader", seconds: greader.initial.seconds)
            plot.addSync("greader_floor", seconds: greader.floorSeconds)
            plot.addSync("greader_incremental", seconds: greader.incrementalSeconds)
            table.add("Google Reader API initial sync, \(what), ours / floor, medians of \(SyncBench.googleReaderRounds(options))",
                      String(format: "%.2f / %.2f s (%.2f×)", greader.initial.seconds, greader.floorSeconds,
                             greader.initial.seconds / greader.floorSeconds), "≤ 1.5×")
            table.add("  peak RSS, ours, highest", String(format: "%.0f MB", greader.initial.peakRSS), "< 100 MB")
            table.add("Google Reader API incremental sync, \(SyncBench.changedArticles) articles changed",
                      String(format: "%d requests, %.2f s", greader.incrementalRequests, greader.incrementalSeconds), "≤ 5 requests, < 1 s")
        } catch let unavailable as SyncBench.Unavailable {
            table.add("Google Reader API sync", "no server: \(unavailable.reason)", "")
        }
    }

    if options.includes("sync-scale") { try SyncScaleBench.run(options, table: &table, report: report) }

    let needsFeeds = ["parse", "python", "feedparser-rs", "reader"].contains(where: options.includes)
    let files = needsFeeds ? try ParseBench.generate(options) : nil
    var rss = 0.0
    if let files, options.includes("parse") {
        progress("Parsing: FeedCore on \(options.feedItems)-item feeds")
        rss = try ParseBench.feedCore(files.rss, expectedEntries: options.feedItems, options)
        let atom = try ParseBench.feedCore(files.atom, expectedEntries: options.feedItems, options)
        report("parse_mb_s_rss", rss)
        report("parse_mb_s_atom", atom)
        let sizes = String(format: "%.1f / %.1f MB", Double(files.rssBytes) / 1e6, Double(files.atomBytes) / 1e6)
        table.add("FeedCore RSS / Atom (\(sizes))", String(format: "%.1f / %.1f MB/s", rss, atom), "")
    }

    if let files, options.includes("python") {
        progress("Parsing: Python feedparser")
        let feedparser = ParseBench.python(module: "feedparser", files: [files.rss, files.atom],
                                           expectedEntries: options.feedItems, options)
        let feedparserRSS = feedparser?[files.rss] ?? 0, feedparserAtom = feedparser?[files.atom] ?? 0
        report("feedparser_mb_s_rss", feedparserRSS)
        report("feedparser_mb_s_atom", feedparserAtom)
        // 0 when feedparser is missing: every key stays a number.
        let ratio = feedparserRSS > 0 ? rss / feedparserRSS : 0
        report("parse_vs_feedparser_ratio", ratio)
        table.add("feedparser RSS / Atom", feedparser == nil ? "not installed (figures 0)"
                  : String(format: "%.2f / %.2f MB/s", feedparserRSS, feedparserAtom), "")
        table.add("FeedCore / feedparser, RSS", ratio > 0 ? String(format: "%.0f×", ratio) : "–", "≥ 30×")
    }

    if let files, options.includes("feedparser-rs") {
        progress("Parsing: FeedCore and feedparser-rs in alternation, \(ParseBench.pairs(options)) pairs a format")
        ParseBench.addRows(try ParseBench.compareWithFeedparserRS(files, options), to: &table, report)
    }

    if options.includes("search") {
        progress("Search: \(SearchBench.entries(options)) stored entries, one query per keystroke")
        let search = try SearchBench.run(options)
        report("search_ms_100k", search.median)
        report("search_slowest_ms_100k", search.slowest)
        report("search_cpu_ms_100k", search.cpuMedian)
        report("search_cpu_slowest_ms_100k", search.cpuSlowest)
        table.add("search, one keystroke, \(SearchBench.entries(options) / 1000)k entries (median / slowest)",
                  String(format: "%.1f / %.1f ms", search.median, search.slowest), "< 20 ms")
        table.add("the same, the query's CPU time (median / slowest)",
                  String(format: "%.1f / %.1f ms", search.cpuMedian, search.cpuSlowest), "< 20 ms")
        progress("Search in the reader's window: \(SearchBench.entries(options)) stored entries, typed a key at a time")
        let window = try SearchBench.runInWindow(options)
        report("search_keystroke_cpu_ms_100k", window.cpuMedian)
        report("search_keystroke_cpu_slowest_ms_100k", window.cpuSlowest)
        report("search_keystroke_latency_ms_100k", window.latencyMedian)
        table.add("search keystroke in the window, main-thread CPU (median / slowest)",
                  String(format: "%.1f / %.1f ms", window.cpuMedian, window.cpuSlowest), "< 20 ms")
        table.add("search keystroke in the window, key to last frame (median / slowest)",
                  String(format: "%.0f / %.0f ms", window.latencyMedian, window.latencySlowest), "")
    }

    if options.includes("shell-search") {
        progress("GNOME Shell's search: \(SearchBench.entries(options)) stored entries, the provider asked a key at a time over D-Bus")
        let shell = try ShellSearchBench.run(options)
        report("shell_search_ms_100k", shell.median)
        report("shell_search_slowest_ms_100k", shell.slowest)
        table.add("GNOME Shell search, results and metas over D-Bus, \(SearchBench.entries(options) / 1000)k entries (median / slowest)",
                  String(format: "%.1f / %.1f ms", shell.median, shell.slowest), "< 50 ms")
    }

    if options.includes("integrity") {
        progress("Start-up database check: \(SearchBench.entries(options)) stored entries")
        let check = try IntegrityBench.run(options)
        report("integrity_check_ms_100k", check.median)
        table.add("start-up database check, \(SearchBench.entries(options) / 1000)k entries (median / slowest)",
                  String(format: "%.1f / %.1f ms", check.median, check.slowest), "< 100 ms")
    }

    if RulesBench.sections.contains(where: options.includes) { try RulesBench.addRows(options, to: &table, report) }

    if let files, options.includes("reader") {
        progress("Feed reader: store of \(options.feedItems) entries, startups and scrolling")
        let dataHome = try ReaderBench.makeStore(from: files.rss, expectedEntries: options.feedItems)
        let reader = try ReaderBench.run(executable: ReaderBench.executable(), dataHome: dataHome,
                                         scrolled: options.feedItems, options)
        report("reader_startup_ms", reader.startupMilliseconds)
        report("reader_peak_rss_mb", reader.peakRSSMegabytes)
        table.add("feed-reader exec → first frame", String(format: "%.0f ms", reader.startupMilliseconds), "< 400 ms")
        table.add("feed-reader peak RSS at its first frame", String(format: "%.0f MB", reader.firstFrameRSSMegabytes), "")
        table.add("feed-reader peak RSS, \(reader.entriesShown) entries scrolled",
                  String(format: "%.0f MB", reader.peakRSSMegabytes), "< 150 MB")

        let large = SearchBench.entries(options)
        // Pages come a few a second, so scrolling through all 100,000 would take the bench over
        // ten minutes: the large store's peak is taken after as many entries as the figure above.
        let scrolled = min(large, ReaderBench.largeStoreScrolledEntries)
        progress("Feed reader: store of \(large) entries in \(large / 100) feeds, startups and scrolling \(scrolled)")
        let scaled = try ReaderBench.run(executable: ReaderBench.executable(), alternatingWith: ReaderBench.windowExecutable(),
                                         dataHome: try LargeStore.shared(options).dataHome, scrolled: scrolled, options)
        report("reader_startup_ms_100k", scaled.startupMilliseconds)
        report("reader_peak_rss_mb_100k", scaled.peakRSSMegabytes)
        report("window_startup_ms_100k", scaled.windowStartupMilliseconds)
        report("launcher_overhead_ms", scaled.launcherOverheadMilliseconds)
        table.add("feed-reader exec → first frame, \(large / 1000)k entries in \(large / 100) feeds",
                  String(format: "%.0f ms", scaled.startupMilliseconds), "≤ 250 ms")
        table.add("  feed-reader-window started directly, in alternation",
                  String(format: "%.0f ms", scaled.windowStartupMilliseconds), "")
        table.add("  the launcher's share, median of the pairs' differences",
                  String(format: "%.1f ms", scaled.launcherOverheadMilliseconds), "< 20 ms")
        table.add("feed-reader peak RSS, \(large / 1000)k stored, \(scaled.entriesShown) scrolled",
                  String(format: "%.0f MB", scaled.peakRSSMegabytes), "< 150 MB")
    }

    if options.includes("extract") {
        progress("Full article: feed-reader --extract on a 200 KB page")
        let extract = try ExtractBench.run(executable: ReaderBench.executable(), options)
        report("extract_200k_ms", extract.milliseconds)
        report("extract_200k_peak_rss_mb", extract.peakRSSMegabytes)
        table.add("feed-reader --extract, \(extract.pageBytes / 1000) KB page (exec to exit)",
                  String(format: "%.0f ms", extract.milliseconds), "< 3000 ms")
        table.add("feed-reader --extract peak RSS", String(format: "%.0f MB", extract.peakRSSMegabytes), "< 150 MB")
        progress("Full article: an entry in the reader's window, plain then full")
        let display = try ExtractBench.runInWindow(executable: ReaderBench.executable(), options)
        report("article_plain_ms", display.plainMilliseconds)
        report("article_plain_rss_mb", display.plainRSSMegabytes)
        report("article_full_200k_ms", display.fullMilliseconds)
        report("article_full_200k_rss_mb", display.fullRSSMegabytes)
        table.add("entry shown plain: select → article loaded", String(format: "%.0f ms", display.plainMilliseconds), "")
        table.add("  then full article, 200 KB page: button → loaded", String(format: "%.0f ms", display.fullMilliseconds), "< 2000 ms")
        table.add("reader + WebKit resident memory, plain / full", String(format: "%.0f / %.0f MB", display.plainRSSMegabytes,
                                                                         display.fullRSSMegabytes), "")
    }

    let scaleFirstFrame = options.includes("scale") ? try ScaleBench.section(options, table: &table, report: report) : nil
    if options.includes("scale-newsboat") {
        // --print-unread and the store's size, each beside newsboat's on the same entries.
        try NewsboatScaleBench.report(dataHome: try ScaleBench.store(options).dataHome, entries: ScaleBench.entries(options),
                                      firstFrame: scaleFirstFrame, options, table: &table, report)
    }

    table.print(title: options.quick ? "refresh-bench --quick (short runs, smaller data: not figures to judge)"
                                     : "refresh-bench: medians of \(options.runs) runs after \(options.warmUps) warm-ups unless a row says otherwise")
    if let path = options.plotData { try plot.write(to: path) }
    return figures
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data("refresh-bench: \(message)…\n".utf8))
}

/// The table people read.
struct BenchTable {
    private var rows: [(String, String, String)] = []

    mutating func add(_ name: String, _ value: String, _ target: String) { rows.append((name, value, target)) }

    func print(title: String) {
        let nameWidth = rows.map(\.0.count).max() ?? 0, valueWidth = rows.map(\.1.count).max() ?? 0
        Swift.print(title)
        for (name, value, target) in rows {
            let padded = name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            let paddedValue = String(repeating: " ", count: max(0, valueWidth - value.count)) + value
            Swift.print("  \(padded)  \(paddedValue)  \(target.isEmpty ? "" : "target \(target)")")
        }
    }
}

ParseBench.serveIfWorker()
if CommandLine.arguments.contains("--help") {
    print(BenchOptions.usage)
    exit(0)
}
do {
    let figures = try onMainActor { try runBench() }
    if CommandLine.arguments.contains(FirstPullBench.childFlag) {
        print(String(format: "%.3f", figures[0].value))
        exit(0)
    }
    let fields = figures.map { "\"\($0.key)\": \(String(format: "%.3f", $0.value))" }
    print("{" + fields.joined(separator: ", ") + "}")
} catch {
    FileHandle.standardError.write(Data("refresh-bench: \(error)\n".utf8))
    exit(1)
}
