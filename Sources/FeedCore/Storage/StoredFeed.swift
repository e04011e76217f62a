import Foundation
import GRDB

/// A subscribed feed as the store keeps it, with its unread count.
public struct StoredFeed: Sendable, Hashable, Identifiable {
    /// The store's identifier for the feed.
    public var id: Int64
    /// Where the feed is fetched from; updated after a permanent redirect.
    public var url: URL
    /// The title from the last successful fetch.
    public var title: String?
    /// The web site the feed belongs to.
    public var link: URL?
    /// The feed's image or icon.
    public var iconURL: URL?
    /// Validators for the next conditional fetch.
    public var validators: CacheValidators
    /// When the feed was last fetched successfully (including "not modified").
    public var lastFetched: Date?
    /// When it was last fetched or tried, whatever came of it.
    public var lastAttempt: Date?
    /// The earliest its server lets it be fetched again; nil for any time.
    public var nextFetch: Date?
    /// Why the last fetch failed; nil after a success.
    public var lastError: ErrorReason?
    /// What the last fetched document got wrong though it was read (see `ParsedFeed.warnings`).
    public var lastWarnings: [ErrorReason]
    /// The folder the feed is in, or nil.
    public var folderID: Int64?
    /// The feed's place in the list, starting at 0.
    public var position: Int
    /// How many of its entries are unread.
    public var unreadCount: Int
    /// The sync account the feed belongs to, or nil for a subscription of this reader's own.
    public var accountID: Int64? = nil
    /// Whether its entries show the full article from their web pages instead of the feed's text.
    public var alwaysShowsFullArticle = false
    /// What a person set for this feed over the app's defaults.
    public var settings = FeedSettings()
    /// How seldom the feed said it changes when last fetched (`Feed.updateInterval`); nil when it said nothing.
    public var declaredInterval: TimeInterval?

    /// A conditional request for the feed's next refresh, with its own `User-Agent`; without
    /// credentials, which `FeedLibrary` adds from the Secret Service.
    public var request: FeedRequest {
        FeedRequest(url: url, validators: validators, userAgent: settings.userAgent)
    }

    /// Whether its entries' links may name local files: only a feed the user subscribed to as a
    /// local file, never a web feed nor a synced one, whose addresses a server chooses.
    public var linksMayNameFiles: Bool {
        accountID == nil && url.isFileURL
    }
}

extension StoredFeed: FetchableRecord {
    /// Reads a `feeds` row joined with its `unreadCount`. Columns are named in lower case, as
    /// GRDB keeps a statement's: a name in any other case misses, and is lowercased (an
    /// allocation and a Unicode mapping) at each read, which was most of reading 5,000 feeds.
    public init(row: Row) throws {
        id = row["id"]
        guard let url = row.url("url") else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "feed \(id) has no address that can be read")
        }
        self.url = url
        title = row["title"]
        link = row.url("link")
        iconURL = row.url("iconurl")
        validators = CacheValidators(etag: row["etag"], lastModified: row["lastmodified"])
        lastFetched = row.utcDate("lastfetched")
        nextFetch = row.utcDate("nextfetch")
        lastAttempt = row.utcDate("lastattempt")
        lastError = (row["lasterrorcode"] as String?).map { ErrorReason(storedCode: $0, storedDetails: row["lasterrordetails"]) }
        lastWarnings = ErrorReason.warnings(stored: row["lastwarnings"])
        folderID = row["folderid"]
        position = row["position"]
        unreadCount = row["unreadcount"] ?? 0
        accountID = row["accountid"]
        alwaysShowsFullArticle = row["alwaysshowsfullarticle"] ?? false
        settings = FeedSettings(row: row)
        declaredInterval = row["declaredinterval"]
    }
}

extension Row {
    /// The address in `column`, parsed by Foundation's `URL`: GRDB's own conversion goes through
    /// `NSURL`, some 40 µs an address here: most of the time reading 1,000 feeds took.
    func url(_ column: String) -> URL? {
        (self[column] as String?).flatMap { URL(string: $0) }
    }
}
