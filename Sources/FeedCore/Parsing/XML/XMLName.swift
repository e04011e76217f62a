/// The XML vocabularies a feed reader understands, by namespace URI.
enum FeedNamespace: String {
    case atom = "http://www.w3.org/2005/Atom"
    case atom03 = "http://purl.org/atom/ns#"
    case rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    case rss10 = "http://purl.org/rss/1.0/"
    case rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    case dublinCore = "http://purl.org/dc/elements/1.1/"
    case dcTerms = "http://purl.org/dc/terms/"
    case content = "http://purl.org/rss/1.0/modules/content/"
    case media = "http://search.yahoo.com/mrss/"
    case itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    /// RSS 1.0's syndication module: how often the feed changes (`sy:updatePeriod`, `sy:updateFrequency`).
    case syndication = "http://purl.org/rss/1.0/modules/syndication/"
    /// The namespace of the pre-2.0 RSS drafts that some generators still declare on `rss`.
    case userlandRSS = "http://backend.userland.com/rss2"

    var isAtom: Bool { self == .atom || self == .atom03 }
}

/// The local names of the elements a feed reader reads.
enum FeedElement: String {
    case rss, RDF, feed, entry, channel, item, image, url, name
    case title, link, description, subtitle, tagline, id, icon, logo, author, guid, pubDate, enclosure
    case summary, content, published, issued, created, updated, modified, creator, date, encoded
    case group, thumbnail
    case ttl, updatePeriod, updateFrequency
}

/// An element's namespace, classified once per distinct URI in a document.
struct XMLNamespace {
    /// The URI as written; empty for no namespace.
    let uri: String
    let known: FeedNamespace?

    init(uri: String) {
        self.uri = uri
        known = FeedNamespace(rawValue: uri)
    }

    var isNone: Bool { uri.isEmpty }
}

/// An element's local name, classified once per distinct name in a document.
struct XMLName {
    /// The name as written, for nested markup and messages.
    let local: String
    let known: FeedElement?

    init(_ local: String) {
        self.local = local
        known = FeedElement(rawValue: local)
    }
}
