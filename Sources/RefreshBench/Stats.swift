import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock every figure is timed with, and the summaries the bench reports.
enum Clock {
    /// Nanoseconds on CLOCK_MONOTONIC: the same clock in every process, so the feed reader's
    /// first-frame time can be subtracted from the moment the bench started it.
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Runs `body` and returns how long it took, in nanoseconds.
    @inline(__always)
    static func time(_ body: () throws -> Void) rethrows -> UInt64 {
        let start = nanoseconds()
        try body()
        return nanoseconds() - start
    }
}

enum Stats {
    /// The median; the mean of the two middle values for an even count. 0 for no values.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The `p`-th percentile (0...100) by linear interpolation between closest ranks.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = p / 100 * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}

/// What a run of the bench asked for on its command line.
struct BenchOptions {
    /// `--quick`: few repetitions and smaller data, only to check that every figure comes out.
    var quick = false

    /// `--only=SECTION,...` (of ``sections``): those sections alone, for profiling one (under
    /// callgrind, say); the JSON line then lacks the other figures.
    var only: Set<String>?

    /// Every section, in the order a run takes them; `meson-helpers/bench --help` describes each.
    static let sections = ["core", "header", "pull", "listbox", "textview", "first-pull", "refresh", "refresh-hosts", "sync",
                           "sync-scale", "parse", "python", "feedparser-rs", "search", "shell-search", "integrity", "rules-apply",
                           "rules-refresh", "rules-sync", "rules-reader", "reader", "extract", "scale", "scale-newsboat"]
    /// Sections a run takes only when `--only` names them: each takes minutes of its own (the
    /// million-entry store, 5,000 feeds from 250 hosts, a sync of 200,000 articles).
    static let onRequest: Set<String> = ["scale", "scale-newsboat", "refresh-hosts", "sync-scale"]
    /// How to call it, for `--help`.
    static let usage = "refresh-bench [--quick] [--only=SECTION,...] [--plot-data=FILE]\nsections: " + sections.joined(separator: " ")

    /// `--plot-data=FILE`: where to write every frame time and the refresh figures as JSON, for
    /// the chart `./meson-helpers/bench --plot` draws.
    var plotData: String?

    init(arguments: [String]) {
        quick = arguments.contains("--quick")
        if let argument = arguments.first(where: { $0.hasPrefix("--only=") }) {
            only = Set(argument.dropFirst("--only=".count).split(separator: ",").map(String.init))
        }
        if let argument = arguments.first(where: { $0.hasPrefix("--plot-data=") }) {
            plotData = String(argument.dropFirst("--plot-data=".count))
        }
    }

    /// Whether the section called `name` runs.
    func includes(_ name: String) -> Bool { only?.contains(name) ?? !Self.onRequest.contains(name) }

    /// A section `--only` names that the bench does not have.
    var unknownSection: String? { only?.subtracting(Self.sections).sorted().first }

    /// Timed repetitions of each measurement; the reported figure is their median.
    var runs: Int { quick ? 2 : 15 }
    /// Untimed repetitions first: caches, lazily created GTK state, page faults.
    var warmUps: Int { quick ? 1 : 3 }
    /// Items in each generated feed (and entries in the reader's store).
    var feedItems: Int { quick ? 1_000 : 10_000 }
    /// The generated feeds' size in bytes: 5 MB for 10,000 items, the same per item when quick.
    var feedBytes: Int { feedItems * 500 }
}
