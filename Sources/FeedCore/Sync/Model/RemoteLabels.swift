import Foundation

/// The labels a server has on its articles, as a service lists them after a sync's articles.
public struct RemoteLabels: Sendable, Hashable {
    /// The articles of each label, by the label's name (cleaned as names made here are).
    public var articles: [String: Set<RemoteID>]
    /// Whether a label not listed is on no article of the server: true where any label can be
    /// put on an article (the Google Reader API makes one when first used); false for tt-rss,
    /// whose API cannot make a label, so a label it does not have stays on the entries here.
    public var coversEveryLabel: Bool

    public init(articles: [String: Set<RemoteID>], coversEveryLabel: Bool) {
        self.articles = articles
        self.coversEveryLabel = coversEveryLabel
    }

    /// The most labels taken from one server: a list of 100,000 names is cut there, in the
    /// server's order, rather than asked about one request each.
    static let maximumCount = 500

    /// The names a server gave, cleaned and bounded: control characters out, those left empty or
    /// too long dropped, at most `maximumCount` of them, two that clean to one name merged.
    static func cleaned<ID>(_ listed: [(id: ID, name: String)]) -> [(id: ID, name: String)] {
        var kept: [(id: ID, name: String)] = []
        for label in listed {
            guard kept.count < maximumCount else { break }
            if let name = LabelName.fromServer(label.name) { kept.append((label.id, name)) }
        }
        return kept
    }
}
