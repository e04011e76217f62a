import Foundation

/// What to fetch: a feed's address and the validators from its last successful fetch.
public struct FeedRequest: Sendable, Hashable {
    /// The feed's address: http, https or file.
    public var url: URL
    /// Sent as `If-None-Match` / `If-Modified-Since` so an unchanged feed costs a 304 and no parsing.
    public var validators: CacheValidators
    /// The `User-Agent` to send instead of the fetcher's, for a server that refuses it.
    public var userAgent: String?
    /// Sent with HTTP Basic authentication to the feed's own origin only, and only over https or
    /// to this computer or its local network (`ServerAddress.sendsPasswordInClear`).
    public var credentials: HTTPCredentials?

    /// Creates a request for `url`, conditional on `validators` when any are set.
    public init(url: URL, validators: CacheValidators = CacheValidators(), userAgent: String? = nil, credentials: HTTPCredentials? = nil) {
        self.url = url
        self.validators = validators
        self.userAgent = userAgent
        self.credentials = credentials
    }

    /// The `Authorization` header for a request to `target` on the way to this feed: only while
    /// the redirects stay on the feed's own scheme, host and port, so a server cannot send the
    /// password elsewhere, and never in clear text over another network.
    func authorization(for target: URL) -> String? {
        guard let credentials, Self.origin(of: target) == Self.origin(of: url), !ServerAddress.sendsPasswordInClear(target) else { return nil }
        return "Basic " + Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
    }

    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
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

/// A user name and password for a feed behind HTTP authentication; the password comes from the
/// Secret Service for each refresh and is never stored by the reader, nor printed: a request or
/// a result written to a log shows the user name alone.
public struct HTTPCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "\(user):•••" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["user": user]) }
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
