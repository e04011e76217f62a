import FeedCore
import Foundation

/// `reader_startup_ms` and `reader_peak_rss_mb` (and their `_100k` forms): the release
/// feed-reader, started on a store in a temporary XDG_DATA_HOME, with ``ReaderProbe`` telling
/// when its first frame of entries was painted, and its peak resident memory once every page was
/// scrolled through.
@MainActor
enum ReaderBench {
    /// Entries scrolled through on the large store (``LargeStore``).
    static let largeStoreScrolledEntries = 10_000

    struct Result {
        var startupMilliseconds: Double
        var peakRSSMegabytes: Double
        /// Peak resident memory when the first frame is painted, before any scrolling.
        var firstFrameRSSMegabytes: Double
        var entriesShown: Int
    }

    /// Fills a store from `feed` (parsed by FeedCore, saved as a fetch would save it) in a new
    /// data folder; returns the folder to use as XDG_DATA_HOME.
    static func makeStore(from feed: URL, expectedEntries: Int) throws -> URL {
        let dataHome = BenchFiles.directory.appendingPathComponent("reader-data", isDirectory: true)
        try? FileManager.default.removeItem(at: dataHome)
        let parsed = try FeedParser().parse(try Data(contentsOf: feed), url: feed)
        let store = try FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": dataHome.path])
        let stored = blocking {
            let subscription = try await store.addFeed(url: feed)
            let result = FetchResult(request: subscription.request,
                                     outcome: .fetched(parsed, validators: CacheValidators()))
            try await store.apply(result, toFeed: subscription.id)
            return try await store.entryCount()
        }
        guard case let .success(count) = stored, count == expectedEntries else {
            throw BenchError("the reader's store holds \(stored) entries, not \(expectedEntries)")
        }
        return dataHome
    }

    /// Starts the reader `options.runs` times for the first frame (after `warmUps` untimed starts)
    /// and a few times to scroll through the first `scrolled` entries; medians of each.
    static func run(executable: URL, dataHome: URL, scrolled entries: Int, _ options: BenchOptions) throws -> Result {
        var startups: [Double] = [], startupPeaks: [Double] = []
        for index in 0..<(options.warmUps + options.runs) {
            let started = Clock.nanoseconds()
            let lines = try launch(executable, dataHome: dataHome, probe: .firstFrame, entries: entries)
            guard let frame = lines["first-frame-ns"].flatMap(UInt64.init) else {
                throw BenchError("the reader probe printed no first-frame time")
            }
            if index >= options.warmUps {
                startups.append(Double(frame - started) / 1e6)
                startupPeaks.append((lines["vmhwm-kb"].flatMap(Double.init) ?? 0) / 1024)
            }
        }
        var peaks: [Double] = []
        for _ in 0..<(options.quick ? 1 : 3) {
            let lines = try launch(executable, dataHome: dataHome, probe: .scrollToEnd, entries: entries)
            guard let kilobytes = lines["vmhwm-kb"].flatMap(Double.init), let shown = lines["entries"].flatMap(Int.init) else {
                throw BenchError("the reader probe printed no peak memory")
            }
            guard shown == entries else { throw BenchError("feed-reader listed \(shown) of \(entries) entries") }
            peaks.append(kilobytes / 1024)
        }
        return Result(startupMilliseconds: Stats.median(startups), peakRSSMegabytes: Stats.median(peaks),
                      firstFrameRSSMegabytes: Stats.median(startupPeaks), entriesShown: entries)
    }

    /// Runs the reader with the probe in `probe` mode, in fresh XDG folders around `dataHome`;
    /// returns the `key=value` pairs of the probe's `feed-reader-bench` line. A reader that hangs is killed.
    static func launch(_ executable: URL, dataHome: URL, probe: ReaderProbe.Mode,
                       entries: Int, typed: [String] = []) throws -> [String: String] {
        let scratch = BenchFiles.directory.appendingPathComponent("reader-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = scratch.appendingPathComponent("cache").path
        environment["GSETTINGS_BACKEND"] = "memory"
        environment.merge(try ReaderProbe.environment(probe, entries: entries, typed: typed)) { $1 }
        let process = Process()
        process.executableURL = executable
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 600, execute: watchdog)
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        var pairs: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("feed-reader-bench ") {
            for field in line.split(separator: " ").dropFirst() {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { pairs[String(parts[0])] = String(parts[1]) }
            }
        }
        return pairs
    }

    /// The feed-reader next to this executable (the same build), or `$REFRESH_BENCH_FEED_READER`.
    static func executable() -> URL {
        if let path = ProcessInfo.processInfo.environment["REFRESH_BENCH_FEED_READER"] { return URL(fileURLWithPath: path) }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("feed-reader")
    }
}

/// Runs async `body` to completion from synchronous code, waiting on this thread; the work runs
/// on the cooperative pool, never on the main thread that waits.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    nonisolated(unsafe) var result: Result<T, any Error>?
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { result = .success(try await body()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    return result!
}
