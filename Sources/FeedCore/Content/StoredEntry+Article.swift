import Foundation

extension StoredEntry {
    /// The entry's body as safe HTML for display: its content, else its summary, sanitized with
    /// relative URLs resolved against the entry's page (or `fallbackBase`, the feed's address).
    public func articleHTML(fallbackBase: URL? = nil) -> String {
        let published = content ?? summaryHTML ?? summary.map { "<p>" + MarkupEscaping.escaped($0) + "</p>" } ?? ""
        return HTMLSanitizer.sanitize(published, base: link ?? fallbackBase)
    }
}
