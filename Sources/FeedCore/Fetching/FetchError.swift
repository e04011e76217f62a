import Foundation

/// Why a feed could not be fetched, worded for the person reading the feed list.
public enum FetchError: Error, Sendable, Hashable {
    /// The server answered with an error status.
    case httpStatus(Int)
    /// No complete answer arrived in time.
    case timedOut(after: Duration)
    /// The body, its announced length or what it decompresses to exceeded the fetcher's size limit.
    case tooLarge(limit: Int)
    /// The server compressed the body in a way the fetcher does not decode (it asks for gzip or deflate only).
    case unsupportedEncoding(String)
    /// The body's compressed data is damaged or cut short.
    case corruptEncoding(String)
    /// The server kept redirecting.
    case tooManyRedirects(limit: Int)
    /// A redirect had no usable `Location`, or pointed outside http and https.
    case badRedirect(String)
    /// A redirect pointed to a local file, which is never followed.
    case redirectToLocalFile(String)
    /// The URL's scheme is not http, https or file.
    case unsupportedScheme(String)
    /// A `file:` address came from elsewhere (a web feed's or a sync server's link) and was not
    /// opened: only the user's own addresses and local feeds' links may name local files.
    case localFileRefused
    /// A file URL or path names nothing.
    case fileNotFound(path: String)
    /// A file exists but could not be read.
    case unreadableFile(path: String, reason: String)
    /// A local path names a directory, pipe, device or socket, which is refused before reading:
    /// a pipe may never end and a device such as /dev/zero never does.
    case notAFile(path: String, kind: FileKind)
    /// The connection to `host` failed: DNS, refused connection, TLS and the like.
    case network(NetworkFailure, host: String)
    /// The body arrived but is not a usable feed.
    case invalidFeed(FeedParseError)
    /// The task fetching the feed was cancelled.
    case cancelled
}

extension FetchError: CustomStringConvertible, LocalizedError {
    /// The error in words for the person using the app.
    public var description: String {
        switch self {
        case let .httpStatus(code):
            HTTPStatus.reasonPhrase(for: code).map { "Server returned \(code) \($0)" } ?? "Server returned HTTP status \(code)"
        case let .timedOut(duration):
            "Timed out after \(Self.seconds(duration)) s"
        case let .tooLarge(limit):
            "Feed is larger than the \(ByteCount.text(limit)) limit"
        case let .tooManyRedirects(limit):
            "Too many redirects (more than \(limit))"
        case let .badRedirect(reason):
            "Bad redirect: \(reason)"
        case let .redirectToLocalFile(target):
            "Refused a redirect to the local file \(target)"
        case let .unsupportedScheme(scheme):
            "Unsupported address type \"\(scheme)\" (use http, https or a file)"
        case .localFileRefused:
            "Refused to open a local file named by a feed or a server"
        case let .fileNotFound(path):
            "No such file: \(path)"
        case let .unsupportedEncoding(encoding):
            "Server sent the feed in an unsupported compression (\(encoding))"
        case let .corruptEncoding(encoding):
            "Server sent damaged \(encoding) data"
        case let .unreadableFile(path, reason):
            "Could not read \(path): \(reason)"
        case let .notAFile(path, kind):
            "Could not read \(path): it is \(kind.phrase), not a file"
        case let .network(failure, host):
            switch failure {
            case .cannotFindHost: "Could not find the server \(host)"
            case .cannotConnect: "Could not connect to \(host)"
            case .connectionLost: "The connection to \(host) was lost"
            case .secureConnectionFailed: "Secure connection to \(host) failed"
            case let .other(reason): "Network error talking to \(host): \(reason)"
            }
        case let .invalidFeed(error):
            error.description
        case .cancelled:
            "Cancelled"
        }
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// Whole seconds without a fraction ("15"), otherwise one decimal ("0.5").
    static func seconds(_ duration: Duration) -> String {
        let components = duration.components
        let value = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
    }
}

extension FetchError {
    /// What a local path names when it is not a regular file.
    public enum FileKind: Sendable, Hashable {
        case directory
        case namedPipe
        case device
        case socket

        /// The kind's stored name in an `ErrorReason`.
        public var code: String {
            switch self {
            case .directory: "directory"
            case .namedPipe: "named-pipe"
            case .device: "device"
            case .socket: "socket"
            }
        }

        /// The kind with its article, as it reads in a sentence.
        var phrase: String {
            switch self {
            case .directory: "a directory"
            case .namedPipe: "a named pipe"
            case .device: "a device"
            case .socket: "a socket"
            }
        }
    }
}

/// Reason phrases for the statuses feed servers commonly send.
enum HTTPStatus {
    static func reasonPhrase(for code: Int) -> String? {
        phrases[code]
    }

    private static let phrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
        404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 412: "Precondition Failed", 414: "URI Too Long",
        415: "Unsupported Media Type", 418: "I'm a Teapot", 429: "Too Many Requests",
        451: "Unavailable For Legal Reasons", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
        300: "Multiple Choices", 305: "Use Proxy",
    ]
}

extension FetchError: ReasonedError {
    /// The error as a code and the values its sentence needs.
    public var reason: ErrorReason {
        switch self {
        case let .httpStatus(code): ErrorReason(.httpStatus, [.status: String(code)])
        case let .timedOut(duration): ErrorReason(.timedOut, [.seconds: Self.seconds(duration)])
        case let .tooLarge(limit): ErrorReason(.tooLarge, [.bytes: String(limit)])
        case let .unsupportedEncoding(encoding): ErrorReason(.unsupportedEncoding, [.encoding: encoding])
        case let .corruptEncoding(encoding): ErrorReason(.corruptEncoding, [.encoding: encoding])
        case let .tooManyRedirects(limit): ErrorReason(.tooManyRedirects, [.limit: String(limit)])
        case let .badRedirect(reason): ErrorReason(.badRedirect, [.technical: reason])
        case let .redirectToLocalFile(target): ErrorReason(.redirectToLocalFile, [.technical: target])
        case let .unsupportedScheme(scheme): ErrorReason(.unsupportedScheme, [.scheme: scheme])
        case .localFileRefused: ErrorReason(.localFileRefused)
        case let .fileNotFound(path): ErrorReason(.fileNotFound, [.path: path])
        case let .unreadableFile(path, reason): ErrorReason(.unreadableFile, [.path: path, .technical: reason])
        case let .notAFile(path, kind): ErrorReason(.notAFile, [.path: path, .kind: kind.code])
        case let .network(failure, host):
            switch failure {
            case .cannotFindHost: ErrorReason(.hostNotFound, [.host: host])
            case .cannotConnect: ErrorReason(.cannotConnect, [.host: host])
            case .connectionLost: ErrorReason(.connectionLost, [.host: host])
            case .secureConnectionFailed: ErrorReason(.secureConnectionFailed, [.host: host])
            case let .other(reason): ErrorReason(.network, [.host: host, .technical: reason])
            }
        case let .invalidFeed(error): error.reason
        case .cancelled: ErrorReason(.cancelled)
        }
    }
}
