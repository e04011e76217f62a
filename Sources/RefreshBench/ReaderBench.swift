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
        /// With a window program to alternate with: its own start-up, exec to first frame (median), and
        /// the median of the launcher's start-up less the window program's in the same pair.
        var windowStartupMilliseconds = 0.0, launcherOverheadMilliseconds = 0.0
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
    /// and a few times to scroll through the first `scrolled` entries; medians of each. With
    /// `window` (the window program, which the launcher execs), each start is paired with one of
    /// it started directly, the pair's order swapped every time, so the launcher's share is
    /// measured under the same load.
    static func run(executable: URL, alternatingWith window: URL? = nil, dataHome: URL, scrolled entries: Int,
                    _ options: BenchOptions) throws -> Result {
        var startups: [Double] = [], startupPeaks: [Double] = [], windowStartups: [Double] = [], overheads: [Double] = []
        func firstFrame(_ program: URL) throws -> (milliseconds: Double, peakMegabytes: Double) {
            let started = Clock.nanoseconds()
            let lines = try launch(program, dataHome: dataHome, probe: .firstFrame, entries: entries)
            guard let frame = lines["first-frame-ns"].flatMap(UInt64.init) else {
                throw BenchError("the reader probe printed no first-frame time from \(program.lastPathComponent)")
            }
            return (Double(frame - started) / 1e6, (lines["vmhwm-kb"].flatMap(Double.init) ?? 0) / 1024)
        }
        for index in 0..<(options.warmUps + options.runs) {
            var windowFirst: Double?
            if let window, index % 2 == 1 { windowFirst = try firstFrame(window).milliseconds }
            let reader = try firstFrame(executable)
            if let window, index % 2 == 0 { windowFirst = try firstFrame(window).milliseconds }
            if index >= options.warmUps {
                startups.append(reader.milliseconds)
                startupPeaks.append(reader.peakMegabytes)
                if let windowFirst {
                    windowStartups.append(windowFirst)
                    overheads.append(reader.milliseconds - windowFirst)
                }
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
                      firstFrameRSSMegabytes: Stats.median(startupPeaks), entriesShown: entries,
                      windowStartupMilliseconds: Stats.median(windowStartups), launcherOverheadMilliseconds: Stats.median(overheads))
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

    /// The window program beside ``executable()``, which the launcher execs.
    static func windowExecutable() -> URL {
        executable().deletingLastPathComponent().appendingPathComponent("feed-reader-window")
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
