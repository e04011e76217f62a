import Foundation

/// Why a request to a sync service's web API failed, sorted by what the person can do about it.
enum WebAPIError: Error, Sendable, Hashable {
    /// The server refused the user name or password.
    case unauthorized
    /// The server has its API switched off (FreshRSS: Settings, Authentication, "Allow API access").
    case apiDisabled
    /// The address answers, but not as this API: a web page, another service, nothing.
    case notTheService
    /// The server's host name could not be resolved.
    case cannotFindHost(String)
    /// Nothing accepted a connection at the server's address.
    case cannotConnect(String)
    /// The connection broke before the answer was complete.
    case connectionLost(String)
    /// TLS failed: a bad or untrusted certificate, or no common protocol.
    case secureConnectionFailed(String)
    /// Another network failure, with libcurl's reason.
    case network(String)
    /// No complete answer arrived in time.
    case timedOut
    /// The answer was larger than the client's limit.
    case tooLarge(limit: Int)
    /// The server answered with an error status this API does not explain further.
    case httpStatus(Int)
    /// The answer was not in the form this API promises.
    case malformedAnswer
    /// The server turned the request down and said why, in its own words (a feed it cannot fetch, say).
    case refused(String)
    /// The task was cancelled.
    case cancelled
    /// The server sends the request to another address, which is not followed.
    case moved(to: String)
    /// The server asks to wait (HTTP 429), until the date when it says.
    case rateLimited(until: Date?)
    /// A list of ids longer than this.
    case tooManyIDs(Int)
}

extension WebAPIError {
    /// Whether the API may be beneath the address instead (FreshRSS's base address): nothing
    /// answered as the API there, or it sent the request elsewhere.
    var mayBeBeneath: Bool {
        switch self {
        case .notTheService, .moved: true
        default: false
        }
    }

    /// The error for a 3xx answer to a request for `url`: another origin is `.moved`, and the
    /// same origin (a login form, say) `sameOrigin`.
    static func redirect(_ hop: HTTPHop, from url: URL, sameOrigin: WebAPIError) -> WebAPIError {
        guard let target = Redirect.target(of: hop, from: url) else { return .httpStatus(hop.status) }
        return Redirect.keepsOrigin(target, of: url) ? sameOrigin : .moved(to: target.absoluteString)
    }
}

extension WebAPIError {
    /// The sync layer's error for this failure, which the app words in the user's language.
    var syncError: SyncError {
        switch self {
        case .unauthorized: SyncError(.wrongCredentials)
        case .apiDisabled: SyncError(.apiDisabled)
        case .notTheService: SyncError(.notThisKindOfServer)
        case let .cannotFindHost(host): SyncError(.unreachable, "host \(host) not found")
        case let .cannotConnect(host): SyncError(.unreachable, "could not connect to \(host)")
        case let .connectionLost(host): SyncError(.unreachable, "the connection to \(host) was lost")
        case let .secureConnectionFailed(host): SyncError(.tls, "the secure connection to \(host) failed")
        case let .network(reason): SyncError(.unreachable, reason)
        case .timedOut: SyncError(.timeout)
        case let .tooLarge(limit): SyncError(.badResponse, "the answer is larger than \(ByteCount.text(limit))")
        case let .httpStatus(status): SyncError(.serverError, "HTTP \(status)")
        case .malformedAnswer: SyncError(.badResponse)
        case let .refused(reason): SyncError(.subscriptionRefused, reason)
        case .cancelled: SyncError(.unreachable, "cancelled")
        case let .moved(address): .moved(to: address)
        case let .rateLimited(date): .rateLimited(until: date)
        case .tooManyIDs: SyncLimits.tooManyIDs
        }
    }
}

/// Runs a client call, turning its failure into the sync layer's error.
func syncing<Value>(_ call: () async throws(WebAPIError) -> Value) async throws(SyncError) -> Value {
    do {
        return try await call()
    } catch {
        throw error.syncError
    }
}
