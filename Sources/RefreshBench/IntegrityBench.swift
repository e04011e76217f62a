import FeedCore
import Foundation

/// `integrity_check_ms_100k`: the page check every start runs (`DatabaseFileCheck`) over a
/// closed store of 100,000 entries, the size `PRAGMA quick_check` takes seconds to read.
enum IntegrityBench {
    /// The median and the slowest check in milliseconds.
    static func run(_ options: BenchOptions) throws -> (median: Double, slowest: Double) {
        let path = try closedStorePath(entries: SearchBench.entries(options))
        var times: [Double] = []
        for _ in 0..<max(3, options.runs) {
            let started = Clock.nanoseconds()
            if let problem = DatabaseFileCheck.check(path: path) { throw BenchError("the bench store is damaged: \(problem)") }
            times.append(Double(Clock.nanoseconds() - started) / 1e6)
        }
        times.sort()
        return (times[times.count / 2], times.last ?? 0)
    }

    /// The search bench's store, closed so its log is folded into the file as after a normal quit.
    private static func closedStorePath(entries: Int) throws -> String {
        _ = try SearchBench.makeStore(entries: entries)
        return FeedStore.databaseURL(environment: ["XDG_DATA_HOME": BenchFiles.directory.appendingPathComponent("search-data").path]).path
    }
}
