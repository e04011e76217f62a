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
