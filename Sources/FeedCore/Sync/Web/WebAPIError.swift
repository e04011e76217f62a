import Foundation

/// Why a request to a sync service's web API failed, sorted by what the person can do about it.
public enum WebAPIError: Error, Sendable, Hashable {
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
}
