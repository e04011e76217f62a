import Foundation

/// What `--plot-data=FILE` writes for `./meson-helpers/bench --plot`: every timed pull frame,
/// ours and the baseline's, per kind of content, and the refresh and sync comparisons' seconds.
struct PlotData {
    private var frames: [String: [String: [Double]]] = [:]
    private var refresh: [String: Double] = [:]
    private var refreshFeeds = 0
    private var sync: [String: Double] = [:]

    mutating func add(_ pull: PullBench.Result, content: PullContent) {
        frames[content.rawValue] = ["ours": pull.ourFrames, "baseline": pull.baselineFrames]
    }

    /// One refresh's seconds under `key`; `feeds` says how many feeds each refresh fetched.
    mutating func addRefresh(_ key: String, seconds: Double, feeds: Int) {
        refresh[key] = seconds
        refreshFeeds = feeds
    }

    /// One sync's seconds under `key` (`ttrss`, `newsboat_ttrss`, `greader_floor`, …).
    mutating func addSync(_ key: String, seconds: Double) {
        sync[key] = seconds
    }

    func write(to path: String) throws {
        let object: [String: Any] = ["frames_us": frames, "refresh_s": refresh, "refresh_feeds": refreshFeeds, "sync_s": sync]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }
}
