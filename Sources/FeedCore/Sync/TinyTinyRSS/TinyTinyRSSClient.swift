import Foundation
import Synchronization

/// Sends tt-rss API calls, keeping the session: it logs in when it has none and again, once
/// per call, when the server answers NOT_LOGGED_IN (session expired, server restarted, password
/// changed). Every request carries the same User-Agent, which the session is bound to.
final class TinyTinyRSSClient: Sendable {
    /// The one User-Agent every request sends: a session id is refused under another.
    static let userAgent = "feed-reader/1.0 (FeedCore; tt-rss sync)"
    /// The largest answer read: a page of 200 articles with their content stays far below it.
    static let answerLimit = 32 * 1024 * 1024
    static let timeout = Duration.seconds(30)
    /// Redirects followed within the server's origin, re-sending the call to the new address.
    static let redirectLimit = 5

    let credentials: SyncCredentials
    let endpoint: URL
    private let session = Mutex<String?>(nil)

    init(credentials: SyncCredentials) {
        self.credentials = credentials
        endpoint = Self.endpoint(for: credentials.server)
    }

    /// The API's address: the server's address with `api/` added, unless it names the API already.
    static func endpoint(for server: URL) -> URL {
        let text = server.absoluteString
        if text.hasSuffix("/api/") { return server }
        if text.hasSuffix("/api") { return URL(string: text + "/") ?? server }
        return URL(string: (text.hasSuffix("/") ? text : text + "/") + "api/") ?? server
    }

    /// Logs in, replacing the session.
    func logIn() async throws(SyncError) {
        let reply: TinyTinyRSSLogin
        do {
            reply = try await send("login", ["user": credentials.user, "password": credentials.password], sid: nil)
        } catch where error.code == .badResponse {
            // Login is the first call: an answer that is not the API's means another kind of server.
            throw SyncError(.notThisKindOfServer, error.detail)
        }
        session.withLock { $0 = reply.session_id }
    }

    /// Calls `operation` with `parameters`, logging in first or again when needed.
    func call<Content: Decodable>(_ operation: String, _ parameters: [String: any Sendable]) async throws(SyncError) -> Content {
        try await call(operation, parameters, opening: Self.decoded)
    }

    /// Calls `operation` with `parameters`, its reply opened by `open`, logging in first or again
    /// when needed.
    func call<Content>(_ operation: String, _ parameters: [String: any Sendable],
                       opening open: (String, Data) throws(SyncError) -> TinyTinyRSSReply<Content>) async throws(SyncError) -> Content {
        if session.withLock({ $0 }) == nil { try await logIn() }
        do {
            return try await send(operation, parameters, sid: session.withLock { $0 }, opening: open)
        } catch where error.detail == "NOT_LOGGED_IN" {
            try await logIn()
            return try await send(operation, parameters, sid: session.withLock { $0 }, opening: open)
        }
    }

    /// The reply of `operation` decoded by JSONDecoder.
    private static func decoded<Content: Decodable>(_ operation: String, _ data: Data) throws(SyncError) -> TinyTinyRSSReply<Content> {
        do {
            return try JSONDecoder().decode(TinyTinyRSSReply<Content>.self, from: data)
        } catch {
            throw SyncError(.badResponse, "\(operation): the answer is not the tt-rss API's: \(Self.describe(error))")
        }
    }

    /// One call, its reply decoded by JSONDecoder.
    private func send<Content: Decodable>(_ operation: String, _ parameters: [String: any Sendable], sid: String?) async throws(SyncError) -> Content {
        try await send(operation, parameters, sid: sid, opening: Self.decoded)
    }

    /// One call: a POST of a JSON body, its reply's envelope opened by `open`.
    private func send<Content>(_ operation: String, _ parameters: [String: any Sendable], sid: String?,
                               opening open: (String, Data) throws(SyncError) -> TinyTinyRSSReply<Content>) async throws(SyncError) -> Content {
        var fields: [String: Any] = parameters
        fields["op"] = operation
        if let sid { fields["sid"] = sid }
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: fields)
        } catch {
            throw SyncError(.badResponse, "the request could not be written: \(error)")
        }
        switch try open(operation, try await post(body)) {
        case let .success(content):
            return content
        case let .failure(code):
            switch code {
            case "LOGIN_ERROR": throw SyncError(.wrongCredentials, code)
            case "API_DISABLED": throw SyncError(.apiDisabled, code)
            default: throw SyncError(.serverError, code)
            }
        }
    }

    /// POSTs `body` to the API and returns the answer's body. A redirect is followed only within
    /// the server's origin: the body holds the password or the session, which another host, or
    /// plain http after https, must never receive.
    private func post(_ body: Data) async throws(SyncError) -> Data {
        var url = endpoint
        for _ in 0...Self.redirectLimit {
            let result = await HTTPTransfer(url: url, headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
                                            userAgent: Self.userAgent, limit: Self.answerLimit, timeout: Self.timeout, body: body).perform()
            let hop: HTTPHop
            switch result {
            case let .success(answer): hop = answer
            case let .failure(failure): throw Self.error(for: failure)
            }
            switch hop.status {
            case 200..<300:
                return hop.body
            case 300..<400:
                guard let next = Redirect.target(of: hop, from: url) else {
                    throw SyncError(.badResponse, "HTTP \(hop.status) without a usable Location")
                }
                guard Redirect.keepsOrigin(next, of: url) else { throw .moved(to: next.absoluteString) }
                url = next
            case 429:
                throw .rateLimited(until: hop.retryDate)
            case 401, 403:
                throw SyncError(.wrongCredentials, "HTTP \(hop.status)")
            case 404, 405, 501:
                throw SyncError(.notThisKindOfServer, "HTTP \(hop.status) at \(url.absoluteString)")
            case 500..<600:
                throw SyncError(.serverError, "HTTP \(hop.status)")
            default:
                throw SyncError(.badResponse, "HTTP \(hop.status)")
            }
        }
        throw SyncError(.badResponse, "more than \(Self.redirectLimit) redirects")
    }

    private static func error(for failure: HTTPHopFailure) -> SyncError {
        switch failure {
        case .tooLarge: SyncError(.badResponse, "the answer is larger than \(ByteCount.text(answerLimit))")
        case .timedOut: SyncError(.timeout, "no answer within \(timeout)")
        case .cancelled: SyncError(.unreachable, "cancelled")
        case let .unsupportedEncoding(coding): SyncError(.badResponse, "unsupported compression \(coding)")
        case let .corruptEncoding(coding): SyncError(.badResponse, "damaged \(coding) data")
        case let .network(network):
            switch network {
            case .secureConnectionFailed: SyncError(.tls, "the secure connection failed")
            case .cannotFindHost: SyncError(.unreachable, "host not found")
            case .cannotConnect: SyncError(.unreachable, "connection refused")
            case .connectionLost: SyncError(.unreachable, "connection lost")
            case let .other(message): SyncError(.unreachable, message)
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let DecodingError.dataCorrupted(context): "malformed JSON (\(context.debugDescription))"
        case let DecodingError.keyNotFound(key, _): "no \"\(key.stringValue)\""
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context):
            "unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}

/// A reply's envelope opened: its content when `status` is 0, its error code otherwise.
enum TinyTinyRSSReply<Content> {
    case success(Content)
    case failure(String)
}

extension TinyTinyRSSReply: Decodable where Content: Decodable {
    private enum Keys: String, CodingKey { case status, content }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if try container.decode(Int.self, forKey: .status) == 0 {
            self = .success(try container.decode(Content.self, forKey: .content))
        } else {
            self = .failure(try container.decode(TinyTinyRSSFailure.self, forKey: .content).error)
        }
    }
}
