import Foundation

extension ParsedFeed {
    /// A JSON summary of the feed for `feed-reader --parse`: `id`, `title`, `link`, `warnings`
    /// (what was mended to read it, in English) and `entries` (each with `id`, `title`, `link`, `published` as
    /// ISO 8601, the update time when that is all there is, and `summary`), pretty-printed with
    /// sorted keys. Missing values are written as `null` so every key is always present.
    public func jsonSummary() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(FeedSummary(self))
    }
}

private struct FeedSummary: Encodable {
    var id: String
    var title: String?
    var link: String?
    var warnings: [String]
    var entries: [EntrySummary]

    init(_ parsed: ParsedFeed) {
        id = parsed.feed.id
        title = parsed.feed.title
        link = parsed.feed.link?.absoluteString
        warnings = parsed.warnings.map(\.englishWarning)
        entries = parsed.entries.map(EntrySummary.init)
    }

    enum CodingKeys: String, CodingKey {
        case id, title, link, warnings, entries
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(link, forKey: .link)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(entries, forKey: .entries)
    }
}

private struct EntrySummary: Encodable {
    var id: String
    var title: String?
    var link: String?
    var published: String?
    var summary: String?

    init(_ entry: Entry) {
        id = entry.id
        title = entry.title
        link = entry.linkString
        // An entry dated only by its last update (common in Atom) is dated by that.
        published = entry.date.map(FeedDate.iso8601String(from:))
        summary = entry.summary
    }

    enum CodingKeys: String, CodingKey {
        case id, title, link, published, summary
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(link, forKey: .link)
        try container.encode(published, forKey: .published)
        try container.encode(summary, forKey: .summary)
    }
}
