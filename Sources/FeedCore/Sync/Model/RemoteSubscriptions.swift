import Foundation

/// An id the server gave an article, a feed or a category, kept as text whatever the service uses.
public typealias RemoteID = String

/// A service's position in its stream of articles, opaque to the engine (tt-rss: the highest article id seen).
public typealias SyncCursor = String

/// A category on the server: a folder of the account here.
public struct RemoteCategory: Sendable, Hashable {
    public var id: RemoteID
    public var title: String

    public init(id: RemoteID, title: String) {
        self.id = id
        self.title = title
    }
}

/// A feed the account is subscribed to on the server.
public struct RemoteFeed: Sendable, Hashable {
    public var id: RemoteID
    public var url: URL
    public var title: String?
    /// The site's address, when the service tells it.
    public var link: URL?
    /// The category it is in, or nil outside any.
    public var categoryID: RemoteID?

    public init(id: RemoteID, url: URL, title: String?, link: URL? = nil, categoryID: RemoteID?) {
        self.id = id
        self.url = url
        self.title = title
        self.link = link
        self.categoryID = categoryID
    }
}

/// The categories and feeds of an account, in the server's order.
public struct RemoteSubscriptions: Sendable, Hashable {
    public var categories: [RemoteCategory]
    public var feeds: [RemoteFeed]

    public init(categories: [RemoteCategory], feeds: [RemoteFeed]) {
        self.categories = categories
        self.feeds = feeds
    }
}
