import GRDB

/// An entry's plain-text summary is most often the text of its HTML summary, kept beside it: the
/// `summary` column then holds NULL and the text is made again when read, where keeping it was an
/// eighth of the store (docs/performance.md, Scale). An empty `summary` beside an HTML one says
/// there is no plain summary, so none is made. A row stored before keeps its summary as it was,
/// and reads the same; the search index reads `summary` only for an entry without any HTML.
extension FeedStore {
    /// The `summary` column's value for `entry`.
    static func storedSummary(of entry: Entry) -> String? {
        guard let html = entry.summaryHTML else { return entry.summary }
        guard let summary = entry.summary else { return "" }
        return HTMLText.plainText(fromHTML: html) == summary ? nil : summary
    }

    /// The summary a row's `summary` and `summaryHTML` columns give.
    static func summary(stored: String?, html: String?) -> String? {
        guard let stored else { return html.map(HTMLText.plainText(fromHTML:)).flatMap { $0.isEmpty ? nil : $0 } }
        return stored.isEmpty ? nil : stored
    }

    /// The summary of a row of `entries`, in SQL; the first `prefixLength` characters when given.
    static func summaryExpression(prefixLength: Int? = nil) -> String {
        let text = prefixLength.map { "feed_plain_text_prefix(entries.summaryHTML, \($0))" } ?? "feed_plain_text(entries.summaryHTML)"
        let summary = "CASE WHEN entries.summary IS NULL THEN NULLIF(\(text), '') ELSE NULLIF(entries.summary, '') END"
        return prefixLength.map { "substr(\(summary), 1, \($0))" } ?? summary
    }

    /// `feed_plain_text_prefix(html, length)`: the first `length` characters of `feed_plain_text(html)`,
    /// reading the HTML no further than they need.
    static let plainTextPrefixFunction = DatabaseFunction("feed_plain_text_prefix", argumentCount: 2, pure: true) { values in
        guard let html = String.fromDatabaseValue(values[0]), let length = Int.fromDatabaseValue(values[1]) else { return nil }
        return HTMLText.plainTextPrefix(fromHTML: html, length: length)
    }
}
