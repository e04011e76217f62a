import Foundation

/// What to fetch: a feed's address and the validators from its last successful fetch.
public struct FeedRequest: Sendable, Hashable {
    /// The feed's address: http, https or file.
    public var url: URL
    /// Sent as `If-None-Match` / `If-Modified-Since` so an unchanged feed costs a 304 and no parsing.
    public var validators: CacheValidators

    /// Creates a request for `url`, conditional on `validators` when any are set.
    public init(url: URL, validators: CacheValidators = CacheValidators()) {
        self.url = url
        self.validators = validators
    }

    /// Creates a request from what a user typed: an http(s) or file URL, or a file path
    /// (relative paths are taken from the current directory).
    public init(location: String) {
        let trimmed = location.trimmingWhitespace
        if trimmed.contains("://"), let url = URL(string: trimmed) {
            self.init(url: url)
        } else {
            self.init(url: URL(fileURLWithPath: trimmed))
        }
    }
}

/// HTTP cache validators a server sent with a feed.
public struct CacheValidators: Sendable, Hashable {
    /// The `ETag` response header.
    public var etag: String?
    /// The `Last-Modified` response header, kept verbatim as servers compare it textually.
    public var lastModified: String?

    /// Creates validators.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}
