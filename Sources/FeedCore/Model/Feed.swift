import Foundation

/// A feed's own metadata, as published in its channel or header.
public struct Feed: Sendable, Hashable {
    /// A stable identifier: the Atom `id` or JSON Feed `feed_url`, else the site link, else the feed's URL.
    public var id: String
    /// The feed's title as plain text.
    public var title: String?
    /// The web site the feed belongs to.
    public var link: URL?
    /// A short description of the feed as plain text.
    public var description: String?
    /// An image representing the feed: RSS `image`, Atom `icon`/`logo`, JSON Feed `icon`/`favicon`.
    public var iconURL: URL?
    /// How seldom the feed says it changes, so is worth asking for: RSS `ttl`, or the syndication
    /// module's `sy:updatePeriod` divided by `sy:updateFrequency`; nil when it says nothing.
    public var updateInterval: TimeInterval?

    /// Creates feed metadata.
    public init(id: String, title: String? = nil, link: URL? = nil, description: String? = nil, iconURL: URL? = nil,
                updateInterval: TimeInterval? = nil) {
        self.id = id
        self.title = title
        self.link = link
        self.description = description
        self.iconURL = iconURL
        self.updateInterval = updateInterval
    }
}
