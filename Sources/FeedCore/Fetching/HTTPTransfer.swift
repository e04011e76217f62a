import CCurl
import Foundation

/// The answer to one HTTP request, before any redirect is followed.
struct HTTPHop: Sendable {
    var status: Int
    /// The response's header fields by lowercased name; repeated fields are joined with ", ".
    var headers: [String: String]
    /// The decoded body; empty unless the status is 2xx, as nothing else is read.
    var body: Data
}

/// Why one HTTP request produced no answer.
enum HTTPHopFailure: Error, Equatable {
    case tooLarge
    case timedOut
    case cancelled
    case unsupportedEncoding(String)
    case corruptEncoding(String)
    case network(NetworkFailure)
}

/// What went wrong on the wire, sorted the way the person reading the feed list can act on it.
public enum NetworkFailure: Sendable, Hashable {
    /// The server's name did not resolve.
    case cannotFindHost
    /// The server refused the connection or could not be reached.
    case cannotConnect
    /// The connection broke during the transfer.
    case connectionLost
    /// TLS failed: a bad certificate, no common cipher and the like.
    case secureConnectionFailed
    /// Anything else, in libcurl's words.
    case other(String)
}

/// One HTTP request run by libcurl on a thread of its own, enforcing a size cap and an overall deadline.
///
/// libcurl is used directly, not through URLSession: on Linux URLSession always decompresses and
/// queues every received piece for its delegate without waiting, so a fast or compressed body is
/// read far past any cap before the delegate can refuse it. Here each piece is decoded and counted
/// in curl's write callback, which stops the transfer at once when the cap is passed.
/// Redirects are handed back rather than followed, so the fetcher can tell permanent moves apart.
final class HTTPTransfer: @unchecked Sendable {
    /// The codings `ContentDecoder` undoes; curl's own decoding is off as it cannot be capped.
    static let acceptedEncodings = "gzip, deflate"

    private let transfer: CurlTransfer
    private let receiver: Receiver

    /// Prepares a GET of `url` with `headers` (a POST of `body` when given), keeping at most
    /// `limit` body bytes and giving up after `timeout`.
    init(url: URL, headers: [(String, String)], userAgent: String, limit: Int, timeout: Duration, body: Data? = nil) {
        receiver = Receiver(limit: limit)
        var lines = (headers + [("Accept-Encoding", Self.acceptedEncodings)]).map { name, value in "\(name): \(value)" }
        if body != nil {
            // Without a value curl drops the header: a larger POST would otherwise wait up to a
            // second for a 100 Continue that PHP's built-in server and many others never send.
            lines.append("Expect:")
        }
        transfer = CurlTransfer(url: url, userAgent: userAgent, headers: lines)
        let easy = transfer.easy
        let milliseconds = max(1, Int(timeout.timeInterval * 1000))
        ccurl_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0)
        ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        // Refuses at the headers a Content-Length over the cap: a compressed body that large is too.
        ccurl_setopt_size(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        if let body {
            // curl copies the body, so it need not outlive this call.
            ccurl_setopt_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            var bytes = [UInt8](body) + [0]
            ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, &bytes)
        }
    }

    /// Runs the request on a new thread; cancelling the calling task stops it at once.
    func perform() async -> Result<HTTPHop, HTTPHopFailure> {
        await transfer.onItsOwnThread { self.run() }
    }

    /// Drives the transfer until it finishes or is cancelled; blocks the calling thread.
    private func run() -> Result<HTTPHop, HTTPHopFailure> {
        switch transfer.drive(delivering: receiver) {
        case let .success(code): receiver.outcome(of: code)
        case .failure(.cancelled): .failure(.cancelled)
        case let .failure(.libcurl(words)): .failure(.network(.other(words)))
        }
    }
}

/// What curl's callbacks collect for one transfer; touched only on the transfer's thread.
private final class Receiver: CurlReceiver {
    /// Why a callback stopped the transfer, since curl reports every such stop as a write error.
    private enum Stop {
        /// The status needs no body: the answer is complete without it.
        case bodyNotNeeded
        case failed(HTTPHopFailure)
    }

    private let limit: Int
    private var status = 0
    private var headers: [String: String] = [:]
    private var decoder: ContentDecoder?
    private var stop: Stop?

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes one header line; a status line starts a new response (after a 100 Continue, say).
    func header(_ line: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: line, as: UTF8.self).trimmingWhitespace
        if text.hasPrefix("HTTP/") {
            let fields = text.split(separator: " ", maxSplits: 2)
            status = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
            headers = [:]
        } else if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].trimmingWhitespace.lowercased()
            let value = text[text.index(after: colon)...].trimmingWhitespace
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return line.count
    }

    /// Takes one piece of body; returning less than its size makes curl stop the transfer.
    func body(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard (200..<300).contains(status) else {
            stop = .bodyNotNeeded
            return 0
        }
        do throws(ContentDecodingError) {
            if decoder == nil {
                decoder = try ContentDecoder(contentEncoding: headers["content-encoding"], limit: limit)
            }
            try decoder?.decode(bytes)
            return bytes.count
        } catch {
            stop = .failed(Self.failure(for: error))
            return 0
        }
    }

    /// The transfer's result once curl finished with `code`.
    func outcome(of code: CURLcode) -> Result<HTTPHop, HTTPHopFailure> {
        switch (code, stop) {
        case (CURLE_OK, _), (CURLE_WRITE_ERROR, .bodyNotNeeded):
            do throws(ContentDecodingError) {
                try decoder?.finish()
            } catch {
                return .failure(Self.failure(for: error))
            }
            return .success(HTTPHop(status: status, headers: headers, body: decoder?.body ?? Data()))
        case (CURLE_WRITE_ERROR, .failed(let failure)):
            return .failure(failure)
        case (CURLE_FILESIZE_EXCEEDED, _):
            return .failure(.tooLarge)
        case (CURLE_OPERATION_TIMEDOUT, _):
            return .failure(.timedOut)
        default:
            return .failure(.network(NetworkFailure(curlCode: code)))
        }
    }

    private static func failure(for error: ContentDecodingError) -> HTTPHopFailure {
        switch error {
        case .tooLarge: .tooLarge
        case let .unsupported(coding): .unsupportedEncoding(coding)
        case let .corrupt(coding): .corruptEncoding(coding)
        }
    }
}
