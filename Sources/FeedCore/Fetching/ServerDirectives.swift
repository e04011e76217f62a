import Foundation

/// What a server's answer said about when it wants to be asked again.
public struct ServerDirectives: Sendable, Hashable {
    /// How long the answer stays fresh, in seconds from now: `Cache-Control: max-age` less the `Age`
    /// a cache in between held it, else `Expires` less `Date`; 0 for `no-cache` or `no-store`.
    public var maxAge: TimeInterval?
    /// `Retry-After` in seconds from when the answer was sent (a date is taken against the answer's `Date`).
    public var retryAfter: TimeInterval?

    /// Creates directives.
    public init(maxAge: TimeInterval? = nil, retryAfter: TimeInterval? = nil) {
        self.maxAge = maxAge
        self.retryAfter = retryAfter
    }

    /// Reads the directives in response headers keyed by lowercased name; `receivedAt` stands in
    /// for a missing or unreadable `Date` when `Retry-After` is a date.
    init(headers: [String: String], receivedAt: Date) {
        let sentAt = headers["date"].flatMap(FeedDate.parse) ?? receivedAt
        if let maxAge = headers["cache-control"].flatMap(Self.maxAge(inCacheControl:)) {
            let age = headers["age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { TimeInterval(max(0, $0)) } ?? 0
            self.maxAge = max(0, maxAge - age)
        } else if let expires = headers["expires"] {
            // An unreadable Expires, such as "0", means already expired (RFC 9111 5.3).
            maxAge = FeedDate.parse(expires).map { max(0, $0.timeIntervalSince(sentAt)) } ?? 0
        }
        retryAfter = headers["retry-after"].flatMap { Self.retryAfter($0, sentAt: sentAt) }
    }

    /// The freshness lifetime a `Cache-Control` value grants a private cache, or nil when it says nothing.
    static func maxAge(inCacheControl value: String) -> TimeInterval? {
        var maxAge: TimeInterval?
        for directive in value.split(separator: ",") {
            let pair = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch pair[0].lowercased() {
            case "no-cache", "no-store":
                return 0
            case "max-age" where pair.count == 2:
                // RFC 9111 allows the quoted form; a negative or unreadable age is ignored like a missing one.
                if let seconds = Int(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0 {
                    maxAge = TimeInterval(seconds)
                }
            default:
                continue
            }
        }
        return maxAge
    }

    /// A `Retry-After` value in seconds: delay-seconds, or an HTTP date less `sentAt`; nil when unreadable.
    static func retryAfter(_ value: String, sentAt: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? TimeInterval(seconds) : nil
        }
        guard let date = FeedDate.parse(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(sentAt))
    }
}
