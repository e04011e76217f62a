import Foundation

/// New articles, page by page.
///
/// tt-rss's time for a `getHeadlines` page grows with the articles its query has to consider, not
/// with those it returns, so a first sync pages category by category (each category's feeds, the
/// uncategorized ones, then the archived articles, which together are every article), where
/// every-article paging (feed -4) would weigh all of the account's articles at each page. Later
/// syncs, and first syncs of a user who switched categories off, page feed -4 after `since_id`.
///
/// Both page newest first with `skip`: an article arriving meanwhile pushes older ones onto a
/// later page, never past it. A first sync's next cursor is the newest article id on the server
/// before its first page, not the highest id it saw: an article arriving in a category already
/// paged has a lower id than one arriving later in a category paged after it, and a `since_id`
/// of the latter would skip it.
extension TinyTinyRSSService {
    public func articles(since cursor: SyncCursor?) async throws(SyncError) -> ArticlePage {
        switch ArticlesCursor(cursor) {
        case let .everyArticle(sinceID, skip, highest):
            if sinceID == 0, skip == 0, let sources = hints.headlineSources {
                return try await sourcePage(mark: try await newestArticleID(), skip: 0, sources: sources)
            }
            return try await everyArticlePage(sinceID: sinceID, skip: skip, highest: highest)
        case let .bySource(mark, skip, sources):
            return try await sourcePage(mark: mark, skip: skip, sources: sources)
        }
    }

    /// One page of feed -4 after `sinceID`; the highest id seen becomes the next sync's cursor.
    private func everyArticlePage(sinceID: Int64, skip: Int, highest: Int64) async throws(SyncError) -> ArticlePage {
        var parameters = Self.pageParameters(skip: skip)
        parameters["feed_id"] = -4
        if sinceID > 0 { parameters["since_id"] = sinceID }
        let articles = try await client.headlines(parameters)
        let newHighest = articles.compactMap { Int64($0.id) }.max().map { max($0, highest) } ?? highest
        let isLast = articles.count < Self.headlineLimit
        let next: ArticlesCursor = isLast ? .everyArticle(sinceID: newHighest, skip: 0, highest: newHighest)
                                          : .everyArticle(sinceID: sinceID, skip: skip + articles.count, highest: newHighest)
        return ArticlePage(articles: articles, nextCursor: next.text, isLast: isLast)
    }

    /// One page of the first of `sources`; a source whose page is not full is done. A category
    /// paged feed by feed pages its feeds in turn, lowest id first, from the one its source names;
    /// a feed added meanwhile below it holds only articles newer than the mark, which the next
    /// sync fetches.
    private func sourcePage(mark: Int64, skip: Int, sources: [HeadlineSource]) async throws(SyncError) -> ArticlePage {
        var sources = sources, skip = skip
        while let source = sources.first {
            let target: HeadlineSource, rest: [HeadlineSource]
            if let from = source.feedsFrom {
                guard let feeds = hints.feeds(inCategory: source.id) else {
                    // No tree of categories this time: the category whole, from its start.
                    sources[0] = HeadlineSource(id: source.id, isCategory: true)
                    skip = 0
                    continue
                }
                guard let index = feeds.firstIndex(where: { $0 >= from }) else {
                    (sources, skip) = (Array(sources.dropFirst()), 0)
                    continue
                }
                sources[0].feedsFrom = feeds[index]
                target = HeadlineSource(id: feeds[index], isCategory: false)
                rest = feeds.indices.contains(index + 1) ? [HeadlineSource(id: source.id, isCategory: true, feedsFrom: feeds[index + 1])] : []
            } else {
                target = source
                rest = []
            }
            var parameters = Self.pageParameters(skip: skip)
            parameters["feed_id"] = target.id
            parameters["is_cat"] = target.isCategory
            let articles = try await client.headlines(parameters)
            let isFull = articles.count == Self.headlineLimit
            let left = isFull ? sources : rest + sources.dropFirst()
            let next: ArticlesCursor = left.isEmpty ? .next(after: mark)
                                                    : .bySource(mark: mark, skip: isFull ? skip + articles.count : 0, sources: left)
            return ArticlePage(articles: articles, nextCursor: next.text, isLast: left.isEmpty)
        }
        return ArticlePage(articles: [], nextCursor: ArticlesCursor.next(after: mark).text, isLast: true)
    }

    /// The id of the newest article on the server (0 when it has none). The first of feed -4 in
    /// tt-rss's order is recent but not always the newest (a feed's articles stored in one update
    /// share their time, and a filter's score puts older ones first), so the ids after it follow,
    /// for `newestProbePages` pages at most: what arrives beyond them comes with the next sync.
    private func newestArticleID() async throws(SyncError) -> Int64 {
        var newest = try await headlineIDs(after: nil, limit: 1).max() ?? 0
        for _ in 0..<Self.newestProbePages {
            let after = try await headlineIDs(after: newest, limit: Self.headlineLimit)
            let highest = after.max() ?? 0
            // A page holding nothing newer would be asked for again forever.
            if after.count < Self.headlineLimit || highest <= newest { return max(newest, highest) }
            newest = highest
        }
        return newest
    }

    /// The most pages of ids `newestArticleID` reads after the first: 10,000 articles arriving
    /// while it asks is no server at rest.
    static let newestProbePages = 50

    /// The ids of a page of feed -4, after the article id `since` when there is one.
    private func headlineIDs(after since: Int64?, limit: Int) async throws(SyncError) -> [Int64] {
        var parameters: [String: any Sendable] = [
            "feed_id": -4, "view_mode": "all_articles", "limit": limit, "show_content": false, "show_excerpt": false,
        ]
        if let since { parameters["since_id"] = since }
        let page: [TinyTinyRSSHeadlineID] = try await client.call("getHeadlines", parameters)
        return page.compactMap(\.id.int64)
    }

    private static func pageParameters(skip: Int) -> [String: any Sendable] {
        ["view_mode": "all_articles", "show_content": true, "include_attachments": true, "limit": headlineLimit, "skip": skip]
    }
}

/// A feed or category `getHeadlines` pages through in a first sync, or a category paged feed by
/// feed from the feed `feedsFrom`.
struct HeadlineSource: Hashable {
    var id: Int64
    var isCategory: Bool
    /// For a category paged feed by feed: the lowest id of its feeds left to page.
    var feedsFrom: Int64?

    /// Every category holding a feed directly (0 for the uncategorized feeds; a nested category's
    /// articles are its own, as `include_nested` is off), then the archived articles (feed 0:
    /// starred articles of feeds unsubscribed from), in the tree's order: together, every article.
    /// A category holding more than `feedsPagedTogether` feeds is paged feed by feed, from its
    /// lowest feed id (`feeds(inCategories:)` lists them).
    static func covering(_ feeds: [(id: RemoteID, title: String?, categoryID: RemoteID?)],
                         feedsPagedTogether: Int = feedsPagedTogether) -> [HeadlineSource] {
        let feedsIn = Self.feeds(inCategories: feeds)
        var sources: [HeadlineSource] = []
        var seen = Set<Int64>()
        for feed in feeds {
            let category = Self.category(of: feed)
            guard seen.insert(category).inserted else { continue }
            let inIt = feedsIn[category] ?? []
            sources.append(HeadlineSource(id: category, isCategory: true, feedsFrom: inIt.count > feedsPagedTogether ? inIt.first : nil))
        }
        return sources + [HeadlineSource(id: 0, isCategory: false)]
    }

    /// Each category's feed ids (0 for the uncategorized feeds), lowest first, each once.
    static func feeds(inCategories feeds: [(id: RemoteID, title: String?, categoryID: RemoteID?)]) -> [Int64: [Int64]] {
        var found: [Int64: Set<Int64>] = [:]
        for feed in feeds {
            if let id = Int64(feed.id) { found[category(of: feed), default: []].insert(id) }
        }
        return found.mapValues { $0.sorted() }
    }

    private static func category(of feed: (id: RemoteID, title: String?, categoryID: RemoteID?)) -> Int64 {
        feed.categoryID.flatMap { Int64($0) } ?? 0
    }

    /// The most feeds a category may hold and still be paged whole. tt-rss sorts every article of
    /// a category at each of its pages (PostgreSQL sorting the rows with their content, on disk
    /// past its 4 MB of work memory), so a page's time grows with the category: 20,000 articles
    /// in 500 feeds took 0.6 s of the database a page of 200 against 1 ms for a feed's page, and
    /// 200,000 articles paged by category weigh 20,000 at each of 1,000 pages. A feed's page is
    /// a request of its own, so small categories stay paged whole.
    static let feedsPagedTogether = 100

    /// "c5" for category 5, "f0" for feed 0, "c5>123" for category 5 paged feed by feed from feed 123.
    var text: String { (isCategory ? "c" : "f") + String(id) + (feedsFrom.map { ">" + String($0) } ?? "") }

    init(id: Int64, isCategory: Bool, feedsFrom: Int64? = nil) {
        self.id = id
        self.isCategory = isCategory
        self.feedsFrom = isCategory ? feedsFrom : nil
    }

    init?(_ text: Substring) {
        guard let kind = text.first, kind == "c" || kind == "f" else { return nil }
        let parts = text.dropFirst().split(separator: ">", maxSplits: 1, omittingEmptySubsequences: false)
        guard let id = Int64(parts[0]) else { return nil }
        var from: Int64?
        if parts.count == 2 {
            guard kind == "c", let feed = Int64(parts[1]) else { return nil }
            from = feed
        }
        self.init(id: id, isCategory: kind == "c", feedsFrom: from)
    }
}

/// Where `articles(since:)` is.
enum ArticlesCursor: Equatable {
    /// Paging feed -4 after the article id `sinceID`: `skip` headlines read, `highest` the
    /// highest id seen, which becomes the next sync's cursor.
    case everyArticle(sinceID: Int64, skip: Int, highest: Int64)
    /// A first sync paging `sources` in turn: `skip` headlines of the first read; `mark` the
    /// newest article id before the first page, which becomes the next sync's cursor.
    case bySource(mark: Int64, skip: Int, sources: [HeadlineSource])

    /// The cursor a next sync starts from: the articles after `id`.
    static func next(after id: Int64) -> ArticlesCursor { .everyArticle(sinceID: id, skip: 0, highest: id) }

    /// Reads a stored cursor's lone id, "since,skip,highest" or "mark:skip:c5,c0,f0"; nil or
    /// anything else starts over.
    init(_ text: String?) {
        let text = text ?? ""
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3, let mark = Int64(parts[0]), let skip = Int(parts[1]) {
            let sources = parts[2].split(separator: ",").map(HeadlineSource.init)
            if !sources.isEmpty, !sources.contains(nil) {
                self = .bySource(mark: mark, skip: skip, sources: sources.compactMap { $0 })
                return
            }
        }
        let numbers = text.split(separator: ",").compactMap { Int64($0) }
        switch numbers.count {
        case 1: self = .next(after: numbers[0])
        case 3: self = .everyArticle(sinceID: numbers[0], skip: Int(numbers[1]), highest: numbers[2])
        default: self = .next(after: 0)
        }
    }

    var text: String {
        switch self {
        case let .everyArticle(sinceID, skip, highest):
            skip == 0 && sinceID == highest ? String(highest) : "\(sinceID),\(skip),\(highest)"
        case let .bySource(mark, skip, sources):
            "\(mark):\(skip):" + sources.map(\.text).joined(separator: ",")
        }
    }
}
