import Foundation

/// When background refresh fetches which feeds: each feed about `interval` (or its own
/// `FeedSettings.refreshInterval`) after it was last tried, but not more often than the feed
/// says it changes (its `ttl` or `sy:updatePeriod`, up to a day), never before its server allows
/// (`StoredFeed.nextFetch`, which holds a `Retry-After`), never while paused, and spread out so
/// feeds added together (a first run, an import) do not all come due at one moment.
public struct BackgroundSchedule: Sendable, Hashable {
    /// The time between two fetches of a feed, before spreading.
    public var interval: TimeInterval
    /// The shortest wait between two wake-ups, so feeds falling due close together are fetched together.
    public var shortestWait: TimeInterval

    /// The share of `interval` a feed's turn is pushed back by at most to spread feeds apart.
    static let spreadShare = 0.25
    /// The longest a feed's declared interval holds it back, so a wrong `ttl` of a year still lets it be read daily.
    static let longestDeclaredInterval: TimeInterval = 24 * 3600

    /// Creates a schedule fetching each feed every `interval`.
    public init(interval: TimeInterval, shortestWait: TimeInterval = 60) {
        self.interval = interval
        self.shortestWait = shortestWait
    }

    /// When `feed` is next due; nil when it was never tried and is due at once, `.distantFuture` while paused.
    public func turn(of feed: StoredFeed, pausedHosts: [String: HostBackoff] = [:]) -> Date? {
        guard !feed.settings.isPaused else { return .distantFuture }
        guard let lastAttempt = feed.lastAttempt else { return nil }
        let turn = lastAttempt + interval(of: feed) * (1 + Self.spreadShare * Self.spread(feed.id))
        let hostPause = PollingPolicy.hostKey(for: feed.url).flatMap { pausedHosts[$0]?.until }
        return [turn, feed.nextFetch, hostPause].compactMap { $0 }.max()
    }

    /// The time between two fetches of `feed`, before spreading: its own interval or the app's,
    /// but never shorter than what the feed declares, up to `longestDeclaredInterval`.
    public func interval(of feed: StoredFeed) -> TimeInterval {
        max(feed.settings.refreshInterval ?? interval, min(feed.declaredInterval ?? 0, Self.longestDeclaredInterval))
    }

    /// The feeds due at `now`, in list order.
    public func dueFeeds(_ feeds: [StoredFeed], pausedHosts: [String: HostBackoff] = [:], at now: Date) -> [StoredFeed] {
        feeds.filter { feed in turn(of: feed, pausedHosts: pausedHosts).map { $0 <= now } ?? true }
    }

    /// When to wake next after `now`: the earliest turn of a feed not paused, but not sooner than
    /// `shortestWait`; one interval on when there are no such feeds.
    public func nextWake(_ feeds: [StoredFeed], pausedHosts: [String: HostBackoff] = [:], after now: Date) -> Date {
        let earliest = feeds.filter { !$0.settings.isPaused }.map { turn(of: $0, pausedHosts: pausedHosts) ?? now }.min() ?? now + interval
        return max(earliest, now + shortestWait)
    }

    /// A feed's fixed place in [0, 1): successive ids land far apart (the golden ratio's
    /// fractional part), so a batch of new feeds spreads over the whole window.
    static func spread(_ id: Int64) -> Double {
        let value = Double(id) * 0.618_033_988_749_895
        return value - value.rounded(.down)
    }
}
