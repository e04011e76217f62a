import Foundation
import Synchronization

/// Tiny Tiny RSS's JSON API (API level 15 and later).
///
/// Measured facts it relies on: the session is bound to the User-Agent it logged in with, so it
/// always sends the same one; `article_ids` must be a comma-separated string; `getHeadlines`
/// gives at most 200 headlines, paged with `skip`; article ids grow, so `since_id` finds new ones.
/// How articles are paged: TinyTinyRSSService+Articles.swift.
public struct TinyTinyRSSService: SyncService {
    public static let kind = SyncServiceKind(rawValue: "tt-rss")

    /// tt-rss's API cannot move a feed to another category.
    public static let capabilities = SyncCapabilities(canSubscribe: true, canUnsubscribe: true, canMoveFeeds: false,
                                                      articleBatchLimit: 500, articlePageLimit: headlineLimit, syncsLabels: true)

    /// The most headlines `getHeadlines` returns at once.
    static let headlineLimit = 200

    /// The most ids asked for in one answer without a limit: about 2 s of a loaded server's work.
    static let unboundedListLimit = 2_000

    let credentials: SyncCredentials
    let client: TinyTinyRSSClient
    let hints = TinyTinyRSSSyncHints()

    public init(credentials: SyncCredentials) {
        self.credentials = credentials
        client = TinyTinyRSSClient(credentials: credentials)
    }

    public func logIn() async throws(SyncError) {
        try await client.logIn()
    }

    /// One `getFeedTree` call in a steady state: the tree holds the categories (empty ones too)
    /// and every feed in its category, but no feed addresses, so `getFeeds` is asked only when
    /// the tree holds a feed not stored here. With categories switched off in the user's
    /// preferences the tree is flat, and `getCategories` and `getFeeds` are asked instead.
    public func subscriptions(known: [RemoteID: URL]) async throws(SyncError) -> RemoteSubscriptions {
        let tree: TinyTinyRSSFeedTree = try await client.call("getFeedTree", ["include_empty": true])
        hints.setUnreadTotal(tree.unreadTotal)
        guard tree.hasCategories else {
            hints.setLabels(nil)
            hints.setSources(nil, feeds: [:])
            return try await listedSubscriptions()
        }
        hints.setLabels(tree.labels())
        let placed = tree.placedFeeds()
        hints.setSources(HeadlineSource.covering(placed), feeds: HeadlineSource.feeds(inCategories: placed))
        var addresses = known
        if placed.contains(where: { addresses[$0.id] == nil }) {
            let feeds: [TinyTinyRSSFeed] = try await client.call("getFeeds", ["cat_id": -3])
            for feed in feeds {
                if let url = URL(string: feed.feed_url) { addresses[feed.id.text] = url }
            }
        }
        return RemoteSubscriptions(
            categories: tree.folders().map { RemoteCategory(id: $0.id, title: $0.title) },
            feeds: placed.compactMap { feed in
                addresses[feed.id].map { RemoteFeed(id: feed.id, url: $0, title: feed.title, categoryID: feed.categoryID) }
            })
    }

    /// The categories and feeds from `getCategories` and `getFeeds`, for a tree without categories.
    private func listedSubscriptions() async throws(SyncError) -> RemoteSubscriptions {
        let categories: [TinyTinyRSSCategory] = try await client.call("getCategories", ["include_empty": true])
        // -3 lists every feed, each with its category; 0 is "Uncategorized", not a folder here.
        let feeds: [TinyTinyRSSFeed] = try await client.call("getFeeds", ["cat_id": -3])
        return RemoteSubscriptions(
            categories: categories.filter { (Int($0.id.text) ?? 0) > 0 }.map { RemoteCategory(id: $0.id.text, title: $0.title) },
            feeds: feeds.filter { (Int($0.id.text) ?? 0) > 0 }.compactMap { feed in
                guard let url = URL(string: feed.feed_url) else { return nil }
                let category = feed.cat_id.flatMap { (Int($0.text) ?? 0) > 0 ? $0.text : nil }
                return RemoteFeed(id: feed.id.text, url: url, title: feed.title, categoryID: category)
            })
    }

    /// Skipped when the feed tree of this sync counted no unread article at all.
    public func unreadArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        let total = hints.takeUnreadTotal()
        if total == 0 { return [] }
        return try await headlineIDs(feedID: -4, viewMode: "unread", expected: total)
    }

    public func starredArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        try await headlineIDs(feedID: -1, viewMode: "all_articles", expected: nil)
    }
    /// The labels come with the feed tree (none there: the user has none); a flat tree has
    /// none, and `getLabels` is asked. Then each label's articles, one `getHeadlines` each.
    public func labelledArticles() async throws(SyncError) -> RemoteLabels? {
        var listed = hints.takeLabels()
        if listed == nil {
            listed = try await serverLabels()
        }
        var articles: [String: Set<RemoteID>] = [:]
        for label in RemoteLabels.cleaned(listed ?? []) {
            articles[label.name, default: []].formUnion(try await headlineIDs(feedID: label.id, viewMode: "all_articles", expected: nil))
        }
        return RemoteLabels(articles: articles, coversEveryLabel: false)
    }

    /// The user's labels from `getLabels`, each by its feed id (-1025 and below).
    private func serverLabels() async throws(SyncError) -> [(id: Int, name: String)] {
        let labels: [TinyTinyRSSLabel] = try await client.call("getLabels", [:])
        return labels.compactMap { label in label.id.int64.map { (Int($0), label.caption) } }
    }

    public func send(_ change: SyncChange) async throws(SyncError) {
        switch change {
        case let .setLabel(name, isOn, ids):
            // The API cannot make a label: one the server does not have stays on this computer.
            guard !ids.isEmpty, let label = try await serverLabels().first(where: { LabelName.fromServer($0.name) == name }) else { return }
            let _: TinyTinyRSSIgnored = try await client.call("setArticleLabel", [
                "article_ids": ids.joined(separator: ","), "label_id": label.id, "assign": isOn,
            ])
        case let .setRead(isRead, ids):
            try await updateArticles(ids, field: 2, mode: isRead ? 0 : 1)
        case let .setStarred(isStarred, ids):
            try await updateArticles(ids, field: 0, mode: isStarred ? 1 : 0)
        case let .subscribe(url, category):
            var parameters: [String: any Sendable] = ["feed_url": url.absoluteString]
            if let category, let id = Int(category) { parameters["category_id"] = id }
            let reply: TinyTinyRSSSubscription = try await client.call("subscribeToFeed", parameters)
            // 0: subscribed already, 1: subscribed; the others say why it was refused.
            guard reply.status.code <= 1 else {
                throw SyncError(.subscriptionRefused, "code \(reply.status.code)" + (reply.status.message.map { ": \($0)" } ?? ""))
            }
        case let .unsubscribe(feedID):
            do {
                let _: TinyTinyRSSIgnored = try await client.call("unsubscribeFeed", ["feed_id": Int(feedID) ?? 0])
            } catch where error.detail == "FEED_NOT_FOUND" {
                // Gone already, by another client or an earlier try whose answer was lost.
            }
        case .move:
            throw SyncError(.serverError, "tt-rss cannot move feeds")
        // catchupFeed takes no time: what the server got since the change was made is marked read too.
        case let .markAllRead(scope, _):
            let (feedID, isCategory): (Int, Bool) = switch scope {
            case let .feed(id): (Int(id) ?? 0, false)
            case let .category(id): (Int(id) ?? 0, true)
            case .account: (-4, false)
            }
            let _: TinyTinyRSSIgnored = try await client.call("catchupFeed", ["feed_id": feedID, "is_cat": isCategory])
        }
    }

    private func updateArticles(_ ids: [RemoteID], field: Int, mode: Int) async throws(SyncError) {
        guard !ids.isEmpty else { return }
        let _: TinyTinyRSSIgnored = try await client.call("updateArticle", [
            "article_ids": ids.joined(separator: ","), "field": field, "mode": mode,
        ])
    }

    /// The ids of every headline of a feed in a view mode.
    ///
    /// tt-rss caps a positive `limit` at 200, but a negative one sets no limit at all (its
    /// headline query adds a LIMIT only for a positive one), so a list expected to be modest comes
    /// in one answer. A server that caps it anyway answers 200, and the pages of 200 follow.
    /// A list expected to be long comes in pages of 200 from the start: each page is a request
    /// of its own, none long enough to meet the timeout. A page bringing no new id ends the list
    /// (a server repeating itself); one longer than `SyncLimits.listedIDs` fails.
    private func headlineIDs(feedID: Int, viewMode: String, expected: Int?) async throws(SyncError) -> Set<RemoteID> {
        var ids = Set<RemoteID>()
        var skip = 0
        var limit = (expected ?? 0) <= Self.unboundedListLimit ? -1 : Self.headlineLimit
        while true {
            let page: [TinyTinyRSSHeadlineID] = try await client.call("getHeadlines", [
                "feed_id": feedID, "view_mode": viewMode, "limit": limit, "skip": skip,
                "show_content": false, "show_excerpt": false,
            ])
            let known = ids.count
            ids.formUnion(page.map(\.id.text))
            guard ids.count <= SyncLimits.listedIDs else { throw SyncLimits.tooManyIDs }
            guard page.count == Self.headlineLimit, ids.count > known else { return ids }
            skip += page.count
            limit = Self.headlineLimit
        }
    }
}

/// What one call of a sync learnt for a later one: the unread total the feed tree counted, and
/// the categories a first sync pages through (nil when the tree is flat).
final class TinyTinyRSSSyncHints: Sendable {
    private let unreadTotal = Mutex<Int?>(nil)
    private let labels = Mutex<[(id: Int, name: String)]?>(nil)
    private let sources = Mutex<[HeadlineSource]?>(nil)
    private let feedsInCategories = Mutex<[Int64: [Int64]]>([:])

    /// The sources a first sync pages, and each category's feeds, lowest id first, for a
    /// category paged feed by feed.
    func setSources(_ found: [HeadlineSource]?, feeds: [Int64: [Int64]]) {
        sources.withLock { $0 = found }
        feedsInCategories.withLock { $0 = feeds }
    }

    var headlineSources: [HeadlineSource]? { sources.withLock { $0 } }

    /// The feeds of `category` the last feed tree placed in it, lowest id first; nil when the
    /// tree was flat or held no such category.
    func feeds(inCategory category: Int64) -> [Int64]? { feedsInCategories.withLock { $0[category] } }

    func setUnreadTotal(_ total: Int?) { unreadTotal.withLock { $0 = total } }

    func setLabels(_ found: [(id: Int, name: String)]?) { labels.withLock { $0 = found } }

    /// The labels the feed tree listed, once; nil when it listed none (a flat tree) or was taken.
    func takeLabels() -> [(id: Int, name: String)]? {
        labels.withLock { labels in
            defer { labels = nil }
            return labels
        }
    }

    /// The total, once: a later sync without a feed tree of its own lists the unread ids in full.
    func takeUnreadTotal() -> Int? {
        unreadTotal.withLock { total in
            defer { total = nil }
            return total
        }
    }
}
