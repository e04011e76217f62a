import Foundation

/// One item of a feed: an RSS `item`, an Atom `entry` or a JSON Feed item.
public struct Entry: Sendable, Hashable {
    /// A stable identifier within its feed: the guid or id, else the link, else a hash of title and date.
    public var id: String
    /// The title as plain text.
    public var title: String?
    /// The entry's web page as the text of an absolute URL (its `absoluteString`): kept as text,
    /// as it is stored and written as text, and a `URL` made only for what opens it.
    public private(set) var linkString: String?
    /// The author's name.
    public var author: String?
    /// When the entry was first published.
    public var published: Date?
    /// When the entry was last changed.
    public var updated: Date?
    /// A short summary as plain text.
    public var summary: String?
    /// The same summary as HTML, as published (plain-text summaries escaped).
    public var summaryHTML: String?
    /// The full body as HTML.
    public var content: String?
    /// Attached media, such as podcast episodes.
    public var enclosures: [Enclosure]

    /// The entry's web page, resolved to an absolute URL.
    public var link: URL? {
        get { linkString.flatMap { URL(string: $0) } }
        set { linkString = newValue?.absoluteString }
    }

    /// Creates an entry.
    public init(
        id: String,
        title: String? = nil,
        link: URL? = nil,
        author: String? = nil,
        published: Date? = nil,
        updated: Date? = nil,
        summary: String? = nil,
        summaryHTML: String? = nil,
        content: String? = nil,
        enclosures: [Enclosure] = []
    ) {
        self.init(id: id, title: title, linkString: link?.absoluteString, author: author, published: published, updated: updated,
                  summary: summary, summaryHTML: summaryHTML, content: content, enclosures: enclosures)
    }

    /// Creates an entry whose link is the text of an absolute URL, as `resolveAddress` gives it.
    init(id: String, title: String?, linkString: String?, author: String?, published: Date?, updated: Date?,
         summary: String?, summaryHTML: String?, content: String?, enclosures: [Enclosure]) {
        self.id = id
        self.title = title
        self.linkString = linkString
        self.author = author
        self.published = published
        self.updated = updated
        self.summary = summary
        self.summaryHTML = summaryHTML
        self.content = content
        self.enclosures = enclosures
    }

    /// The date to sort by: the publication date, else the last update.
    public var date: Date? { published ?? updated }
}
