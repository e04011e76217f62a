import Foundation

/// Why talking to a sync server failed, as a code the app words in the user's language, with
/// technical details kept apart for a "details" view or a log (never shown as the message).
public struct SyncError: Error, Sendable, Hashable {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The server refused the user name or password.
        case wrongCredentials
        /// The user's API access is switched off on the server (tt-rss: Preferences, "Enable API").
        case apiDisabled
        /// Something answered at the address, but not the kind of server the account is for.
        case notThisKindOfServer
        /// The secure connection could not be set up: certificate or TLS trouble.
        case tls
        /// The host could not be found or did not accept the connection, or the connection broke.
        case unreachable
        /// No complete answer arrived in time.
        case timeout
        /// The server's answer could not be read: malformed, cut short, too large or not what the API promises.
        case badResponse
        /// The server answered with an error of its own (an HTTP 5xx, an API error).
        case serverError
        /// The server refused to subscribe to a feed: not a feed, could not be downloaded, and the like.
        case subscriptionRefused
        /// The server sends the account's requests to another address (another host, port or
        /// scheme, or not the web), which is never followed: the detail is that address.
        case moved
        /// The server asks to wait (HTTP 429): the detail is when to try again, in ISO 8601, or
        /// empty when it did not say.
        case rateLimited
    }

    public var code: Code
    /// What exactly happened, in English, for details and logs.
    public var detail: String

    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }
}

extension SyncError: CustomStringConvertible {
    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}

extension SyncError {
    /// The longest wait a server's Retry-After is taken for: a longer one could stop an
    /// account's syncs for good.
    static let longestWait: TimeInterval = 24 * 60 * 60

    /// The server sends requests to `address`, which is not followed.
    static func moved(to address: String) -> SyncError {
        SyncError(.moved, address)
    }

    /// The server asks to wait until `date` (at most `longestWait` from now), or for a while.
    static func rateLimited(until date: Date?, now: Date = Date()) -> SyncError {
        SyncError(.rateLimited, date.map { min($0, now + longestWait).formatted(.iso8601) } ?? "")
    }

    /// Where the server sends requests, for `.moved`.
    public var movedTo: String? { code == .moved && !detail.isEmpty ? detail : nil }

    /// When the server asked to be asked again, for `.rateLimited`.
    public var retryAfter: Date? { code == .rateLimited ? try? Date(detail, strategy: .iso8601) : nil }
}

extension HTTPHop {
    /// When a 429 answer asks to be asked again, from its `Retry-After`; nil when it does not say.
    var retryDate: Date? {
        let now = Date()
        return ServerDirectives(headers: headers, receivedAt: now).retryAfter.map { now + $0 }
    }
}

/// Where a redirect points, and whether an API call may follow it.
enum Redirect {
    /// The absolute address a 3xx answer's `Location` names, relative to `url`; nil without one.
    static func target(of hop: HTTPHop, from url: URL) -> URL? {
        hop.headers["location"].flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
    }

    /// Whether `target` has the origin of `url`: the same scheme, host and port, so the request
    /// (a password, a session) goes nowhere else and never from https to http.
    static func keepsOrigin(_ target: URL, of url: URL) -> Bool {
        target.scheme?.lowercased() == url.scheme?.lowercased() && target.host?.lowercased() == url.host?.lowercased()
            && effectivePort(target) == effectivePort(url)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
