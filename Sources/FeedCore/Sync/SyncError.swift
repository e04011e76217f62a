import Foundation

/// Why talking to a sync server failed, as a code the app words in the user's language, with
/// technical details kept apart for a "details" view or a log (never shown as the message).
public struct SyncError: Error, Sendable, Hashable {
    /// Which problem it is, from the one list of codes (the `sync.` ones).
    public var code: ErrorCode
    /// What exactly happened, in English, for details and logs.
    public var detail: String

    public init(_ code: ErrorCode, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }
}

extension SyncError: ReasonedError {
    /// The code with its detail: the address a `.moved` names, the date a `.rateLimited` gives,
    /// otherwise the English words from below, kept for the details only.
    public var reason: ErrorReason {
        guard !detail.isEmpty else { return ErrorReason(code) }
        switch code {
        case .moved: return ErrorReason(code, [.url: detail])
        case .rateLimited: return ErrorReason(code, [.date: detail])
        default: return ErrorReason(code, [.technical: detail])
        }
    }

    /// The raw values versions before v22 stored in `accounts.lastErrorCode`, by their code now.
    static let legacyCodes: [String: ErrorCode] = [
        "wrongCredentials": .wrongCredentials, "apiDisabled": .apiDisabled, "notThisKindOfServer": .notThisKindOfServer,
        "tls": .tls, "unreachable": .unreachable, "timeout": .timeout, "badResponse": .badResponse,
        "serverError": .serverError, "subscriptionRefused": .subscriptionRefused, "moved": .moved, "rateLimited": .rateLimited,
    ]
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
