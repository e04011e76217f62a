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

    /// Creates a request from what a user typed: a URL, or a file path (relative paths are taken
    /// from the current directory). Text that starts with a scheme and a colon, as `javascript:…`
    /// or `data:…`, is a URL, so that a scheme not read is said to be one rather than a missing
    /// file; `./name:x` names such a file.
    public init(location: String) {
        let trimmed = location.trimmingWhitespace
        if let scheme = Self.scheme(of: trimmed) {
            self.init(url: URL(string: trimmed) ?? URL(string: scheme + ":")!)
        } else {
            self.init(url: URL(fileURLWithPath: trimmed))
        }
    }

    /// The scheme `text` starts with (RFC 3986: a letter, then letters, digits, "+", "-" or
    /// "." up to a colon), or nil.
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else { return nil }
        let scheme = text[..<colon]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return String(scheme)
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
