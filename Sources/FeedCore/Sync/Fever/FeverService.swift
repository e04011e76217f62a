import Foundation

/// The Fever API as a sync service: FreshRSS (BASE/api/fever.php, or its base address), Miniflux,
/// tt-rss's Fever plugin. Groups are folders. Fever cannot subscribe, unsubscribe or move a feed,
/// and marks items one at a time.
public struct FeverService: SyncService {
    public static let kind = SyncServiceKind(rawValue: "fever")

    public static let capabilities = SyncCapabilities(canSubscribe: false, canUnsubscribe: false, canMoveFeeds: false,
                                                      articleBatchLimit: 50, articlePageLimit: FeverClient.itemsPerCall)

    let client: FeverClient

    public init(credentials: SyncCredentials) {
        client = FeverClient(endpoint: credentials.server, user: credentials.user, password: credentials.password)
    }

    public func logIn() async throws(SyncError) {
        try await syncing { () async throws(WebAPIError) in try await client.logIn() }
    }

    public func subscriptions(known: [RemoteID: URL]) async throws(SyncError) -> RemoteSubscriptions {
        try await syncing { () async throws(WebAPIError) in
            let groups = try await client.groups()
            return Self.remoteSubscriptions(groups: groups, feeds: try await client.feeds())
        }
    }

    /// The groups and feeds as the engine takes them, each feed in the first group listing it,
    /// found through a dictionary (a search of the groups per feed took minutes for many feeds).
    static func remoteSubscriptions(groups: [FeverGroup], feeds: [FeverFeed]) -> RemoteSubscriptions {
        var groupOfFeed: [Int64: Int64] = [:]
        for group in groups {
            for feedID in group.feedIDs where groupOfFeed[feedID] == nil { groupOfFeed[feedID] = group.id }
        }
        return RemoteSubscriptions(
            categories: groups.map { RemoteCategory(id: String($0.id), title: $0.title) },
            feeds: feeds.compactMap { feed in
                feed.url.map { url in
                    RemoteFeed(id: String(feed.id), url: url, title: feed.title, link: feed.siteURL,
                               categoryID: groupOfFeed[feed.id].map { String($0) })
                }
            })
    }

    /// The cursor is the highest item id stored; `since_id` brings the next 50 above it, oldest first.
    public func articles(since cursor: SyncCursor?) async throws(SyncError) -> ArticlePage {
        let since = cursor.flatMap(Int64.init) ?? 0
        let items = try await syncing { () async throws(WebAPIError) in try await client.items(since: since) }
        let highest = max(since, items.map(\.id).max() ?? since)
        let articles = items.map { item in
            RemoteArticle(id: String(item.id), feedID: String(item.feedID), title: item.title, link: item.url, author: item.author,
                          published: item.created, updated: nil, content: item.html, isRead: item.isRead, isStarred: item.isSaved)
        }
        return ArticlePage(articles: articles, nextCursor: String(highest), isLast: items.count < FeverClient.itemsPerCall)
    }

    public func unreadArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        try await syncing { () async throws(WebAPIError) in Set(try await client.unreadItemIDs().map(String.init)) }
    }

    public func starredArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        try await syncing { () async throws(WebAPIError) in Set(try await client.savedItemIDs().map(String.init)) }
    }

    public func send(_ change: SyncChange) async throws(SyncError) {
        switch change {
        case let .setRead(isRead, ids):
            try await mark(ids, as: isRead ? .read : .unread)
        case let .setStarred(isStarred, ids):
            try await mark(ids, as: isStarred ? .saved : .unsaved)
        case .subscribe, .unsubscribe, .move:
            throw SyncError(.serverError, "the Fever API cannot change subscriptions")
        case .setLabel:
            throw SyncError(.serverError, "the Fever API has no labels")
        case let .markAllRead(scope, before):
            try await syncing { () async throws(WebAPIError) in
                switch scope {
                case let .feed(id): try await client.markFeedRead(Int64(id) ?? -1, before: before)
                case let .category(id): try await client.markGroupRead(Int64(id) ?? -1, before: before)
                // Group 0 is every feed.
                case .account: try await client.markGroupRead(0, before: before)
                }
            }
        }
    }

    private func mark(_ ids: [RemoteID], as state: FeverClient.ItemState) async throws(SyncError) {
        try await syncing { () async throws(WebAPIError) in
            for id in ids.compactMap({ Int64($0) }) {
                try await client.mark(item: id, as: state)
            }
        }
    }
}
