import Foundation

/// One kind of sync server: what an account's `service` column holds and `--service` names.
public struct SyncServiceKind: RawRepresentable, Sendable, Hashable, Codable {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

/// What a service can and cannot do, so the engine and the app never ask for the impossible.
public struct SyncCapabilities: Sendable, Hashable {
    /// Feeds can be subscribed to through the service (Fever cannot).
    public var canSubscribe: Bool
    /// Feeds can be unsubscribed from through the service.
    public var canUnsubscribe: Bool
    /// Feeds can be moved between categories through the service.
    public var canMoveFeeds: Bool
    /// The most article ids one read or star change may carry.
    public var articleBatchLimit: Int
    /// The most articles one page of `articles(since:)` brings.
    public var articlePageLimit: Int
    /// Labels on articles sync with the server (Fever has none: they stay on this computer).
    public var syncsLabels: Bool

    public init(canSubscribe: Bool, canUnsubscribe: Bool, canMoveFeeds: Bool, articleBatchLimit: Int, articlePageLimit: Int,
                syncsLabels: Bool = false) {
        self.canSubscribe = canSubscribe
        self.canUnsubscribe = canUnsubscribe
        self.canMoveFeeds = canMoveFeeds
        self.articleBatchLimit = articleBatchLimit
        self.articlePageLimit = articlePageLimit
        self.syncsLabels = syncsLabels
    }
}

/// Where and as whom a service logs in.
public struct SyncCredentials: Sendable, Hashable {
    /// The server's address as the person typed it (the service adds its API's path).
    public var server: URL
    public var user: String
    public var password: String

    public init(server: URL, user: String, password: String) {
        self.server = server
        self.user = user
        self.password = password
    }
}

/// A sync server's API, as the engine uses it: every service (tt-rss, Google Reader API, Fever)
/// implements this and nothing else; the queue, the merge rules and storage are the engine's.
///
/// A service keeps its own session: it logs in when first needed and again by itself when the
/// server says the session ended. Every call may throw only `SyncError`.
public protocol SyncService: Sendable {
    /// The kind an account of this service is stored as.
    static var kind: SyncServiceKind { get }

    /// Makes a service for `credentials`; nothing is sent before the first call.
    init(credentials: SyncCredentials)

    /// What every account of this service can do.
    static var capabilities: SyncCapabilities { get }

    /// Logs in (again), checking the address, the credentials and that the API is switched on.
    func logIn() async throws(SyncError)

    /// The account's categories and feeds as the server has them now; `known` holds the address
    /// of each feed stored here, which a service may reuse rather than ask for again.
    func subscriptions(known: [RemoteID: URL]) async throws(SyncError) -> RemoteSubscriptions

    /// One page of the articles the server received after `cursor` (all it keeps for nil), content
    /// included; call again with the page's `nextCursor` until `isLast`.
    func articles(since cursor: SyncCursor?) async throws(SyncError) -> ArticlePage

    /// The ids of every article the server has unread now.
    func unreadArticleIDs() async throws(SyncError) -> Set<RemoteID>

    /// The ids of every article the server has starred now.
    func starredArticleIDs() async throws(SyncError) -> Set<RemoteID>

    /// The labels the server has on its articles now; nil for a service without labels.
    func labelledArticles() async throws(SyncError) -> RemoteLabels?

    /// Sends one change; read, star and label changes carry at most `capabilities.articleBatchLimit` ids.
    /// A subscription the server refuses throws `.subscriptionRefused`, dropped from the queue.
    func send(_ change: SyncChange) async throws(SyncError)
}

extension SyncService {
    public var capabilities: SyncCapabilities { Self.capabilities }

    public func labelledArticles() async throws(SyncError) -> RemoteLabels? { nil }
}
