import Foundation

/// What a server's answer said about when it wants to be asked again.
public struct ServerDirectives: Sendable, Hashable {
    /// `Cache-Control: max-age` in seconds: the answer stays fresh this long; 0 for `no-cache` or `no-store`.
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
        maxAge = headers["cache-control"].flatMap(Self.maxAge(inCacheControl:))
        retryAfter = headers["retry-after"].flatMap { value in
            let sentAt = headers["date"].flatMap(FeedDate.parse) ?? receivedAt
            return Self.retryAfter(value, sentAt: sentAt)
        }
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
