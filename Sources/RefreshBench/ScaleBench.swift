import FeedCore
import Foundation

/// `--only=scale`: the reader on a million entries in 5,000 feeds (``ScaleStore``; 5,000 in 25
/// when quick), the size heavy readers complain about. Left out of a run without `--only`: making
/// the store alone takes minutes. `REFRESH_BENCH_SCALE_STORE` names a folder to keep the store in
/// between runs; a store there of the right size, every entry unread, is used again.
@MainActor
enum ScaleBench {
    static func entries(_ options: BenchOptions) -> Int { options.quick ? 5_000 : 1_000_000 }
    static func feeds(_ options: BenchOptions) -> Int { options.quick ? 25 : 5_000 }

    struct Result {
        var reader: ReaderBench.Result
        var search: SearchBench.QueryResult
        /// The store reads of the sidebar's every count, in milliseconds (median / slowest).
        var sidebarCounts: (median: Double, slowest: Double)
        /// Mark All as Read on every entry, and its Undo, in seconds (medians).
        var markAllRead: Double, undo: Double
        var integrityCheck: (median: Double, slowest: Double)
    }

    /// The store's data folder (its XDG_DATA_HOME), made on first use or found kept.
    private static var made: (dataHome: URL, store: FeedStore)?

    static func store(_ options: BenchOptions) throws -> (dataHome: URL, store: FeedStore) {
        if let made { return made }
        let entries = entries(options), feeds = feeds(options)
        let kept = ProcessInfo.processInfo.environment["REFRESH_BENCH_SCALE_STORE"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        let dataHome = kept ?? BenchFiles.directory.appendingPathComponent("scale-store", isDirectory: true)
        if kept != nil, let store = try? FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": dataHome.path]),
           case .success(true) = blocking({
               let (stored, unread, feedCount) = try await (store.entryCount(), store.entryCount(unreadOnly: true), store.feeds().count)
               guard stored == entries && unread == entries && feedCount == feeds else { return false }
               // A store kept from an older build waits for its search index after the upgrade,
               // which the window would take in at its first start, and a first search wait on.
               try await store.indexSearchBacklog()
               // Its feeds checked now, as a store just made has them: otherwise the reader's
               // background refresh falls due during the runs and fetches the made-up addresses.
               let checked = try await store.feeds().map { (result: FetchResult(request: $0.request, outcome: .notModified), feedID: $0.id) }
               for batch in stride(from: 0, to: checked.count, by: 500) {
                   for result in try await store.apply(Array(checked[batch..<min(batch + 500, checked.count)])) { _ = try result.get() }
               }
               return true
           }) {
            made = (dataHome, store)
        } else {
            made = (dataHome, try ScaleStore.make(entries: entries, feeds: feeds, at: dataHome))
        }
        return made!
    }

    static func run(_ options: BenchOptions) throws -> Result {
        let (dataHome, store) = try store(options)
        let entries = entries(options)
        let integrity = try IntegrityBench.run(options, dataHome: dataHome)
        let reader = try ReaderBench.run(executable: ReaderBench.executable(), dataHome: dataHome,
                                         scrolled: min(entries, ReaderBench.largeStoreScrolledEntries), options)
        let search = try SearchBench.run(options, in: store)
        let counts = try timeSidebarCounts(store, expected: entries, options)
        let (mark, undo) = try timeMarkAllRead(store, expected: entries, options)
        return Result(reader: reader, search: search, sidebarCounts: counts, markAllRead: mark, undo: undo,
                      integrityCheck: integrity)
    }

    /// The store reads behind the sidebar's counts (``LibraryModel``'s after marks):
    /// `unreadCounts()`, every feed's and folder's unread count, Starred's, the saved searches' and labels'.
    private static func timeSidebarCounts(_ store: FeedStore, expected: Int,
                                          _ options: BenchOptions) throws -> (median: Double, slowest: Double) {
        var times: [Double] = []
        for index in 0..<(options.warmUps + options.runs) {
            let started = Clock.nanoseconds()
            let result = blocking {
                try await store.unreadCounts().feeds.values.reduce(0, +)
            }
            let elapsed = Double(Clock.nanoseconds() - started) / 1e6
            guard case .success(expected) = result else { throw BenchError("the sidebar's counts came to \(result), not \(expected) unread") }
            if index >= options.warmUps { times.append(elapsed) }
        }
        return (Stats.median(times), times.max() ?? 0)
    }

    /// Mark All as Read on every entry, then its Undo, as the window does them; each leaves the
    /// store as it must (none unread, then all). Medians in seconds.
    private static func timeMarkAllRead(_ store: FeedStore, expected: Int, _ options: BenchOptions) throws -> (Double, Double) {
        var marks: [Double] = [], undos: [Double] = []
        for _ in 0..<(options.quick ? 1 : 3) {
            var started = Clock.nanoseconds()
            let marked = blocking { try await store.markAllRead() }
            marks.append(Double(Clock.nanoseconds() - started) / 1e9)
            guard case let .success(ids) = marked, ids.count == expected,
                  case .success(0) = blocking({ try await store.entryCount(unreadOnly: true) }) else {
                throw BenchError("Mark All as Read failed or left entries unread: \(marked)")
            }
            started = Clock.nanoseconds()
            let undone = blocking { try await store.setRead(false, entryIDs: ids) }
            undos.append(Double(Clock.nanoseconds() - started) / 1e9)
            guard case .success = undone, case .success(expected) = blocking({ try await store.entryCount(unreadOnly: true) }) else {
                throw BenchError("Undo of Mark All as Read failed or left entries read: \(undone)")
            }
        }
        return (Stats.median(marks), Stats.median(undos))
    }
}

extension ScaleBench {
    /// Runs the section and adds its rows to `table` and its figures through `report`; returns
    /// the first frame's time, for the newsboat section's comparison when both run.
    static func section(_ options: BenchOptions, table: inout BenchTable, report: (String, Double) -> Void) throws -> Double {
        let entries = entries(options), feeds = feeds(options)
        let size = "\(entries.formatted()) entries in \(feeds.formatted()) feeds"
        progress("Scale: \(size), the store made or found kept, then start-up, memory, search, counts and Mark All as Read")
        let scale = try run(options)
        report("reader_startup_ms_1m", scale.reader.startupMilliseconds)
        report("reader_first_frame_rss_mb_1m", scale.reader.firstFrameRSSMegabytes)
        report("reader_peak_rss_mb_1m", scale.reader.peakRSSMegabytes)
        report("search_ms_1m", scale.search.median)
        report("search_slowest_ms_1m", scale.search.slowest)
        report("sidebar_counts_ms_1m", scale.sidebarCounts.median)
        report("mark_all_read_s_1m", scale.markAllRead)
        report("mark_all_read_undo_s_1m", scale.undo)
        report("integrity_check_ms_1m", scale.integrityCheck.median)
        table.add("feed-reader exec → first frame, \(size)", String(format: "%.0f ms", scale.reader.startupMilliseconds), "≤ 300 ms")
        table.add("  peak RSS at its first frame", String(format: "%.0f MB", scale.reader.firstFrameRSSMegabytes), "≤ 150 MB")
        table.add("  peak RSS, \(scale.reader.entriesShown.formatted()) entries scrolled",
                  String(format: "%.0f MB", scale.reader.peakRSSMegabytes), "≤ 200 MB")
        table.add("search, one keystroke, \(size) (median / slowest)",
                  String(format: "%.1f / %.1f ms", scale.search.median, scale.search.slowest), "≤ 20 ms")
        table.add("the sidebar's unread counts, \(size) (median / slowest)",
                  String(format: "%.1f / %.1f ms", scale.sidebarCounts.median, scale.sidebarCounts.slowest), "≤ 50 ms")
        table.add("Mark All as Read on \(entries.formatted()) entries, then Undo",
                  String(format: "%.2f / %.2f s", scale.markAllRead, scale.undo), "≤ 1 s")
        table.add("start-up database check, \(size) (median / slowest)",
                  String(format: "%.1f / %.1f ms", scale.integrityCheck.median, scale.integrityCheck.slowest), "≤ 100 ms")
        return scale.reader.startupMilliseconds
    }
}
