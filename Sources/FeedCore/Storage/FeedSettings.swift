import Foundation
import GRDB

/// What a person set for one feed, over the app's defaults: how often it is refreshed, whether
/// at all, how long its entries are kept, whether its new entries are announced, and how it is
/// asked for (a `User-Agent`, a user name whose password the Secret Service keeps).
public struct FeedSettings: Sendable, Hashable {
    /// The time between two background refreshes of the feed; nil for the app's interval.
    public var refreshInterval: TimeInterval?
    /// Refresh leaves the feed alone, background and pulled alike; the feed and its entries stay.
    public var isPaused: Bool
    /// Its entries are kept this many days, as `Retention.days`; nil for the app's setting.
    public var keepDays: Int?
    /// Only this many of its newest entries are kept (starred ones always); nil for no limit.
    public var keepNewest: Int?
    /// Its new entries are announced in a notification; a rule's "notify" announces its own anyway.
    public var notifiesNewEntries: Bool
    /// The `User-Agent` sent for it instead of the reader's; nil for the reader's.
    public var userAgent: String?
    /// The user name sent with HTTP Basic authentication; its password is in the Secret Service
    /// (`SecretKey.feed(_:user:)`). Nil for none.
    public var authUser: String?

    public init(refreshInterval: TimeInterval? = nil, isPaused: Bool = false, keepDays: Int? = nil, keepNewest: Int? = nil,
                notifiesNewEntries: Bool = true, userAgent: String? = nil, authUser: String? = nil) {
        self.refreshInterval = refreshInterval
        self.isPaused = isPaused
        self.keepDays = keepDays
        self.keepNewest = keepNewest
        self.notifiesNewEntries = notifiesNewEntries
        self.userAgent = userAgent
        self.authUser = authUser
    }

    /// The shortest refresh interval a feed may have: more often would only load its server.
    public static let shortestRefreshInterval: TimeInterval = 5 * 60

    /// Checks that every value makes sense: an interval of at least five minutes, a retention of
    /// at least a day and a newest count of at least one, a `User-Agent` of printable characters
    /// on one line (no header can be slipped in with it), a user name without a colon, which
    /// Basic authentication cannot carry.
    public func validate() throws(FeedSettingsError) {
        if let refreshInterval, !(refreshInterval >= Self.shortestRefreshInterval) { throw .intervalTooShort }
        if let keepDays, keepDays < 1 { throw .retentionTooShort }
        if let keepNewest, keepNewest < 1 { throw .retentionTooShort }
        if let userAgent, userAgent.isEmpty || userAgent.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || !$0.isASCII }) {
            throw .invalidUserAgent
        }
        if let authUser, authUser.isEmpty || authUser.contains(":") || authUser.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidUserName
        }
    }
}

/// A feed setting that cannot be kept.
public enum FeedSettingsError: ReasonedError, Sendable, Equatable {
    /// A refresh interval under `FeedSettings.shortestRefreshInterval`, zero or negative.
    case intervalTooShort
    /// Entries kept for less than a day, or fewer than one.
    case retentionTooShort
    /// A `User-Agent` that is empty, spans lines or holds characters a header cannot.
    case invalidUserAgent
    /// A user name that is empty, holds a colon or control characters.
    case invalidUserName

    public var reason: ErrorReason {
        switch self {
        case .intervalTooShort: ErrorReason(.feedIntervalTooShort, [.limit: String(Int(FeedSettings.shortestRefreshInterval / 60))])
        case .retentionTooShort: ErrorReason(.feedRetentionTooShort)
        case .invalidUserAgent: ErrorReason(.feedInvalidUserAgent)
        case .invalidUserName: ErrorReason(.feedInvalidUserName)
        }
    }
}

extension FeedSettings {
    /// Reads the settings columns of a `feeds` row, named in lower case as `StoredFeed(row:)` says why.
    init(row: Row) {
        refreshInterval = row["refreshinterval"]
        isPaused = row["ispaused"] ?? false
        keepDays = row["keepdays"]
        keepNewest = row["keepnewest"]
        notifiesNewEntries = row["notifiesnewentries"] ?? true
        userAgent = row["useragent"]
        authUser = row["authuser"]
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
            try db.execute(sql: """
                UPDATE feeds SET refreshInterval = ?, isPaused = ?, keepDays = ?, keepNewest = ?,
                    notifiesNewEntries = ?, userAgent = ?, authUser = ? WHERE id = ?
                """, arguments: [settings.refreshInterval, settings.isPaused, settings.keepDays, settings.keepNewest,
                                 settings.notifiesNewEntries, settings.userAgent, settings.authUser, feedID])
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

    /// `v25-feed-fetch-settings`: whether a feed's new entries are announced, the `User-Agent` and
    /// user name it is fetched with, and the interval it declares (`Feed.updateInterval`).
    static func addFeedFetchSettings(in db: Database) throws {
        try db.alter(table: "feeds") { table in
            table.add(column: "notifiesNewEntries", .boolean).notNull().defaults(to: true)
            table.add(column: "userAgent", .text)
            table.add(column: "authUser", .text)
            table.add(column: "declaredInterval", .double)
        }
    }
}

extension SyncServiceKind {
    /// Not a sync service: the passwords of feeds behind HTTP authentication are kept under it.
    public static let feedAuthentication = SyncServiceKind(rawValue: "feed")
}

extension SecretKey {
    /// Where the password of `user` for the feed at `url` is kept.
    public static func feed(_ url: URL, user: String) -> SecretKey {
        SecretKey(kind: .feedAuthentication, server: url, user: user)
    }
}
