/// Namespace URIs of the XML vocabularies a feed reader understands.
enum FeedNamespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let dcTerms = "http://purl.org/dc/terms/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let media = "http://search.yahoo.com/mrss/"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    /// The namespace of the pre-2.0 RSS drafts that some generators still declare on `rss`.
    static let userlandRSS = "http://backend.userland.com/rss2"

    static func isAtom(_ uri: String) -> Bool { uri == atom || uri == atom03 }
}
