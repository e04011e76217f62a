/// The syndication format a document was written in.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// RSS 0.91, 0.92 or 2.0: an `rss` root element.
    case rss
    /// RSS 1.0 or 0.90: an RDF document.
    case rdf
    /// Atom 1.0.
    case atom
    /// Atom 0.3, the pre-standard draft.
    case atom03
    /// JSON Feed 1.0 or 1.1.
    case jsonFeed
}
