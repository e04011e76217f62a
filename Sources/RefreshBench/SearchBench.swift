import FeedCore
import Foundation

/// `search_ms_100k`: one search keystroke's query (an FTS5 match, ranked, first page) over
/// 100,000 stored entries in 1,000 feeds (``LargeStore``), as the reader runs it while someone types.
@MainActor
enum SearchBench {
    /// Entries in the store (100,000; 10,000 when quick), spread over feeds of 100 each.
    static func entries(_ options: BenchOptions) -> Int { options.quick ? 10_000 : 100_000 }

    /// What is typed, a keystroke at a time: common and rare words, one and two of them.
    static let typed = ["refresh", "gesture tou", "performance memory", "zebra"]

    /// The median and the slowest keystroke's query, in milliseconds: wall-clock time, and the
    /// process's CPU time (the query's own work: this thread only waits for it), which a loaded
    /// machine's scheduler does not stretch.
    struct QueryResult {
        var median: Double, slowest: Double
        var cpuMedian: Double, cpuSlowest: Double
    }

    /// Types every text a key at a time, once untimed (SQLite's cache fills) and then `runs / 5` times,
    /// searching `store` (the large store by default).
    static func run(_ options: BenchOptions, in store: FeedStore? = nil) throws -> QueryResult {
        let store = try store ?? LargeStore.shared(options).store
        var times: [Double] = [], cpuTimes: [Double] = []
        for pass in 0..<(1 + max(1, options.runs / 5)) {
            for text in typed {
                for length in 1...text.count {
                    let query = String(text.prefix(length))
                    let started = Clock.nanoseconds(), startedCPU = processCPUNanoseconds()
                    let result = blocking { try await store.search(query).count }
                    guard case .success = result else { throw BenchError("search for \(query) failed: \(result)") }
                    guard pass > 0 else { continue }
                    times.append(Double(Clock.nanoseconds() - started) / 1e6)
                    cpuTimes.append(Double(processCPUNanoseconds() - startedCPU) / 1e6)
                }
            }
        }
        return QueryResult(median: Stats.median(times), slowest: times.max() ?? 0,
                           cpuMedian: Stats.median(cpuTimes), cpuSlowest: cpuTimes.max() ?? 0)
    }

    private static func processCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// A keystroke in the running reader: its main thread's CPU time and the time from the key
    /// to the last frame it painted, in milliseconds.
    struct WindowResult {
        var cpuMedian: Double, cpuSlowest: Double
        var latencyMedian: Double, latencySlowest: Double
    }

    /// Types ``typed`` into the search bar of the release feed-reader on the large store, a key
    /// at a time, through the probe (ReaderProbe/reader-probe.c); medians and slowest of every keystroke.
    static func runInWindow(_ options: BenchOptions) throws -> WindowResult {
        let dataHome = try LargeStore.shared(options).dataHome
        var cpu: [Double] = [], latency: [Double] = []
        for _ in 0..<(options.quick ? 1 : 2) {
            let lines = try ReaderBench.launch(ReaderBench.executable(), dataHome: dataHome, probe: .search, entries: 0, typed: typed)
            let keystrokes = typed.map(\.count).reduce(0, +)
            guard let cpuList = lines["search-cpu-us"], let latencyList = lines["search-latency-us"],
                  case let cpuTimes = cpuList.split(separator: ",").compactMap({ Double($0) }), cpuTimes.count == keystrokes,
                  case let latencies = latencyList.split(separator: ",").compactMap({ Double($0) }), latencies.count == keystrokes else {
                throw BenchError("the reader probe reported no search keystrokes: \(lines)")
            }
            cpu += cpuTimes.map { $0 / 1000 }
            latency += latencies.map { $0 / 1000 }
        }
        return WindowResult(cpuMedian: Stats.median(cpu), cpuSlowest: cpu.max() ?? 0,
                            latencyMedian: Stats.median(latency), latencySlowest: latency.max() ?? 0)
    }
}

/// The large store the search and the reader's scale figures share: 100,000 generated entries
/// (10,000 when quick) in feeds of 100 each, made once per run.
@MainActor
enum LargeStore {
    private static var made: (dataHome: URL, store: FeedStore)?

    /// The store, made on first use in its own XDG_DATA_HOME.
    static func shared(_ options: BenchOptions) throws -> (dataHome: URL, store: FeedStore) {
        if let made { return made }
        let count = SearchBench.entries(options)
        let generator = FeedGenerator(items: count, targetBytes: count * 500)
        let parsed = try FeedParser(maxDocumentSize: count * 600).parse(generator.rss())
        let dataHome = BenchFiles.directory.appendingPathComponent("large-store", isDirectory: true)
        try? FileManager.default.removeItem(at: dataHome)
        let store = try FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": dataHome.path])
        let stored = blocking {
            for (index, start) in stride(from: 0, to: parsed.entries.count, by: 100).enumerated() {
                let subscription = try await store.addFeed(url: URL(string: "https://bench.example.org/\(index)/feed.xml")!)
                let chunk = ParsedFeed(format: .rss, feed: parsed.feed, entries: Array(parsed.entries[start..<min(start + 100, parsed.entries.count)]))
                let result = FetchResult(request: subscription.request, outcome: .fetched(chunk, validators: CacheValidators()))
                try await store.apply(result, toFeed: subscription.id)
            }
            return try await store.entryCount()
        }
        guard case let .success(stored) = stored, stored == count else {
            throw BenchError("the large store holds \(stored) entries, not \(count)")
        }
        made = (dataHome, store)
        return (dataHome, store)
    }
}
