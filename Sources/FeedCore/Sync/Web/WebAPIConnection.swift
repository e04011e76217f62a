import Foundation

/// Sends a sync service's API requests over the project's libcurl layer, with one User-Agent, a
/// size cap and a deadline, and turns transport failures into `WebAPIError`s.
struct WebAPIConnection: Sendable {
    var userAgent: String
    /// The largest answer read; a full state list of a large account is a few MB.
    var maxBodySize: Int
    var timeout: Duration

    init(userAgent: String = "feed-reader/1.0 (FeedCore)", maxBodySize: Int = 64 << 20, timeout: Duration = .seconds(30)) {
        self.userAgent = userAgent
        self.maxBodySize = maxBodySize
        self.timeout = timeout
    }

    /// GETs `url`, or POSTs `form` as application/x-www-form-urlencoded when given.
    func send(_ url: URL, headers: [(String, String)] = [], form: [(String, String)]? = nil) async throws(WebAPIError) -> HTTPHop {
        var headers = headers
        var body: Data?
        if let form {
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = Data(Self.formEncoded(form).utf8)
        }
        let result = await HTTPTransfer(url: url, headers: headers, userAgent: userAgent, limit: maxBodySize, timeout: timeout, body: body).perform()
        switch result {
        case let .success(hop):
            return hop
        case let .failure(failure):
            throw error(for: failure, host: url.host ?? url.absoluteString)
        }
    }

    /// Fields encoded as an HTML form does, repeated names kept in order (Google Reader's `i=`).
    /// Written into one buffer: a page of Google Reader items is asked for by 250 ids, and the
    /// next page's request waits for this (docs/performance.md, Sync).
    static func formEncoded(_ fields: [(String, String)]) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 2 })
        for (index, field) in fields.enumerated() {
            if index > 0 { encoded.append(UInt8(ascii: "&")) }
            appendEscaped(field.0, to: &encoded)
            encoded.append(UInt8(ascii: "="))
            appendEscaped(field.1, to: &encoded)
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Everything but unreserved characters percent-encoded, so `+`, `&`, `=` and `/` in values survive.
    private static func appendEscaped(_ text: String, to escaped: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                escaped.append(byte)
            } else {
                escaped.append(UInt8(ascii: "%"))
                escaped.append(hexDigits[Int(byte >> 4)])
                escaped.append(hexDigits[Int(byte & 0xF)])
            }
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private func error(for failure: HTTPHopFailure, host: String) -> WebAPIError {
        switch failure {
        case .tooLarge: .tooLarge(limit: maxBodySize)
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .unsupportedEncoding, .corruptEncoding: .malformedAnswer
        case let .network(network):
            switch network {
            case .cannotFindHost: .cannotFindHost(host)
            case .cannotConnect: .cannotConnect(host)
            case .connectionLost: .connectionLost(host)
            case .secureConnectionFailed: .secureConnectionFailed(host)
            case let .other(reason): .network(reason)
            }
        }
    }
}
