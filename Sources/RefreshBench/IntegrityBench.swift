import FeedCore
import Foundation

/// `integrity_check_ms_100k`: the page check every start runs before the store opens
/// (`DatabaseFileCheck`, `Extent.atStart`) over a store of 100,000 entries (``LargeStore``), the
/// size `PRAGMA quick_check` takes seconds to read; the whole file's check runs once the window
/// shows, off the start's path.
@MainActor
enum IntegrityBench {
    /// The median and the slowest check in milliseconds, of the store in `dataHome` (the large store's by default).
    static func run(_ options: BenchOptions, dataHome: URL? = nil) throws -> (median: Double, slowest: Double) {
        // Read as a start reads it: through the write-ahead log the open store keeps.
        let dataHome = try dataHome ?? LargeStore.shared(options).dataHome
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": dataHome.path]).path
        var times: [Double] = []
        for _ in 0..<max(3, options.runs) {
            let started = Clock.nanoseconds()
            if let problem = DatabaseFileCheck.check(path: path, extent: .atStart) { throw BenchError("the bench store is damaged: \(problem)") }
            times.append(Double(Clock.nanoseconds() - started) / 1e6)
        }
        times.sort()
        return (times[times.count / 2], times.last ?? 0)
    }
}
