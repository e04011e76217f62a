import Foundation

/// An article as a service delivers it, with its state on the server.
public struct RemoteArticle: Sendable, Hashable {
    public var id: RemoteID
    public var feedID: RemoteID
    public var title: String?
    public var link: URL?
    public var author: String?
    public var published: Date?
    public var updated: Date?
    /// The body as HTML (unsanitized: the article view sanitizes what it shows).
    public var content: String?
    public var enclosures: [Enclosure]
    public var isRead: Bool
    public var isStarred: Bool

    public init(id: RemoteID, feedID: RemoteID, title: String?, link: URL?, author: String?, published: Date?, updated: Date?,
                content: String?, enclosures: [Enclosure] = [], isRead: Bool, isStarred: Bool) {
        self.id = id
        self.feedID = feedID
        self.title = title
        self.link = link
        self.author = author
        self.published = published
        self.updated = updated
        self.content = content
        self.enclosures = enclosures
        self.isRead = isRead
        self.isStarred = isStarred
    }
}

/// One page of articles and where the next one starts.
public struct ArticlePage: Sendable, Hashable {
    public var articles: [RemoteArticle]
    /// The cursor to ask the next page with; once `isLast`, the cursor the next sync starts from.
    public var nextCursor: SyncCursor?
    public var isLast: Bool

    public init(articles: [RemoteArticle], nextCursor: SyncCursor?, isLast: Bool) {
        self.articles = articles
        self.nextCursor = nextCursor
        self.isLast = isLast
    }
}
