/// The result of parsing a feed document: its metadata and its entries in document order.
public struct ParsedFeed: Sendable, Hashable {
    /// The format the document was written in.
    public var format: FeedFormat
    /// The feed's metadata.
    public var feed: Feed
    /// The entries, in the order the document lists them.
    public var entries: [Entry]
    /// What was wrong with the document and read anyway, as codes (empty for a well-formed feed).
    public var warnings: [ErrorReason]

    /// Creates a parsed feed.
    public init(format: FeedFormat, feed: Feed, entries: [Entry], warnings: [ErrorReason] = []) {
        self.format = format
        self.feed = feed
        self.entries = entries
        self.warnings = warnings
    }
}
