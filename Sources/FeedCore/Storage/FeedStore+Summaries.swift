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

    /// The summary a row's `summary` and `summaryHTML` columns give; made from the HTML no
    /// further than its first `length` characters when given (a list's).
    static func summary(stored: String?, html: String?, length: Int? = nil) -> String? {
        if let stored { return stored.isEmpty ? nil : stored }
        guard let html else { return nil }
        let text = length.map { HTMLText.plainTextPrefix(fromHTML: html, length: $0) } ?? HTMLText.plainText(fromHTML: html)
        return text.isEmpty ? nil : text
    }

    /// The summary of a row of `entries`, in SQL (`feed_summary`); its first `length` characters when given.
    static func summaryExpression(length: Int? = nil) -> String {
        length.map { "substr(feed_summary(entries.summary, entries.summaryHTML, \($0)), 1, \($0))" }
            ?? "feed_summary(entries.summary, entries.summaryHTML, NULL)"
    }

    /// `feed_summary(summary, summaryHTML, length)`: `summary(stored:html:length:)` in SQL.
    static let summaryFunction = DatabaseFunction("feed_summary", argumentCount: 3, pure: true) { values in
        summary(stored: String.fromDatabaseValue(values[0]), html: String.fromDatabaseValue(values[1]),
                length: Int.fromDatabaseValue(values[2]))
    }
}
