import Foundation

/// The readable article of an entry's web page, as extracted from it and sanitized: what the
/// reader shows instead of the feed's own text when asked for the full article.
public struct FullArticle: Sendable, Hashable {
    /// The article's title as the page gives it, when one was found.
    public var title: String?
    /// The article's body, sanitized (`HTMLSanitizer`) with its links resolved against `pageURL`.
    public var html: String
    /// The page it was extracted from, after redirects.
    public var pageURL: URL
    /// When it was extracted.
    public var extractedAt: Date

    /// Creates an article; `html` must already be sanitized.
    public init(title: String?, html: String, pageURL: URL, extractedAt: Date = Date()) {
        self.title = title
        self.html = html
        self.pageURL = pageURL
        self.extractedAt = extractedAt
    }
}
