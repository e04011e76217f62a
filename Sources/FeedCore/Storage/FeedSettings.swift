import Foundation
import GRDB

/// What a person set for one feed, over the app's defaults: how often it is refreshed, whether
/// at all, and how long its entries are kept.
public struct FeedSettings: Sendable, Hashable {
    /// The time between two background refreshes of the feed; nil for the app's interval.
    public var refreshInterval: TimeInterval?
    /// Refresh leaves the feed alone, background and pulled alike; the feed and its entries stay.
    public var isPaused: Bool
    /// Its entries are kept this many days, as `Retention.days`; nil for the app's setting.
    public var keepDays: Int?
    /// Only this many of its newest entries are kept (starred ones always); nil for no limit.
    public var keepNewest: Int?

    public init(refreshInterval: TimeInterval? = nil, isPaused: Bool = false, keepDays: Int? = nil, keepNewest: Int? = nil) {
        self.refreshInterval = refreshInterval
        self.isPaused = isPaused
        self.keepDays = keepDays
        self.keepNewest = keepNewest
    }

    /// The shortest refresh interval a feed may have: more often would only load its server.
    public static let shortestRefreshInterval: TimeInterval = 5 * 60

    /// Checks that every value makes sense: an interval of at least five minutes, a retention of
    /// at least a day and a newest count of at least one.
    public func validate() throws(FeedSettingsError) {
        if let refreshInterval, !(refreshInterval >= Self.shortestRefreshInterval) { throw .intervalTooShort }
        if let keepDays, keepDays < 1 { throw .retentionTooShort }
        if let keepNewest, keepNewest < 1 { throw .retentionTooShort }
    }
}

/// A feed setting that cannot be kept.
public enum FeedSettingsError: ReasonedError, Sendable, Equatable {
    /// A refresh interval under `FeedSettings.shortestRefreshInterval`, zero or negative.
    case intervalTooShort
    /// Entries kept for less than a day, or fewer than one.
    case retentionTooShort

    public var reason: ErrorReason {
        switch self {
        case .intervalTooShort: ErrorReason(.feedIntervalTooShort, [.limit: String(Int(FeedSettings.shortestRefreshInterval / 60))])
        case .retentionTooShort: ErrorReason(.feedRetentionTooShort)
        }
    }
}

extension FeedSettings {
    /// Reads the settings columns of a `feeds` row.
    init(row: Row) {
        refreshInterval = row["refreshInterval"]
        isPaused = row["isPaused"] ?? false
        keepDays = row["keepDays"]
        keepNewest = row["keepNewest"]
    }
}

extension FeedStore {
    /// Replaces a feed's settings, once checked.
    ///
    /// - Throws: `FeedSettingsError` for a value that makes no sense, nothing changed then;
    ///   `FeedStoreError.feedNotFound` when there is no such feed.
    public func setSettings(_ settings: FeedSettings, forFeed feedID: Int64) async throws {
        try settings.validate()
        try await writing { db in
            try db.execute(sql: "UPDATE feeds SET refreshInterval = ?, isPaused = ?, keepDays = ?, keepNewest = ? WHERE id = ?",
                           arguments: [settings.refreshInterval, settings.isPaused, settings.keepDays, settings.keepNewest, feedID])
            guard db.changesCount > 0 else { throw FeedStoreError.feedNotFound(id: feedID) }
        }
    }

    /// `v20-feed-settings`: each feed's own refresh interval, pause and retention.
    static func addFeedSettings(in db: Database) throws {
        try db.alter(table: "feeds") { table in
            table.add(column: "refreshInterval", .double)
            table.add(column: "isPaused", .boolean).notNull().defaults(to: false)
            table.add(column: "keepDays", .integer)
            table.add(column: "keepNewest", .integer)
        }
    }
}
