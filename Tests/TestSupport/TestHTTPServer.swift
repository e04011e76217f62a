import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 and an ephemeral port that serves canned responses.
///
/// Each connection gets one response and is closed. Socket reads and writes time out after a few seconds and
/// handlers only ever sleep briefly, so a test cannot leave it running; `stop()` closes the listener.
public final class TestHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names are lowercased.
        public var headers: [String: String]
        /// What a POST sent, as long as its Content-Length says.
        public var body = Data()
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)] = []
        public var body = Data()
        /// How long to wait before answering, to provoke timeouts.
        public var delay: TimeInterval = 0
        /// Omit Content-Length and end the body by closing the connection.
        public var omitContentLength = false
        /// When set, the body (with its Content-Length) goes out in 64 KB pieces this far apart,
        /// as from a slow server: a download's progress shows between them.
        public var pieceInterval: TimeInterval?
        /// When set, the body is sent chunked: `body` first, then each piece this returns until it
        /// returns nil or the client hangs up, so a body can be endless.
        public var chunks: (@Sendable () -> Data?)?

        public init(status: Int, headers: [(String, String)] = [], body: Data = Data(), delay: TimeInterval = 0,
                    omitContentLength: Bool = false, chunks: (@Sendable () -> Data?)? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.omitContentLength = omitContentLength
            self.chunks = chunks
        }

        public static func ok(_ body: Data, headers: [(String, String)] = []) -> Response {
            Response(status: 200, headers: [("Content-Type", "application/xml")] + headers, body: body)
        }

        public static func status(_ status: Int, headers: [(String, String)] = []) -> Response {
            Response(status: status, headers: headers)
        }
    }

    public typealias Handler = @Sendable (Request) -> Response

    public let port: UInt16
    private let listener: Int32
    private let handler: Handler
    private let lock = NSCondition()
    private var received: [Request] = []
    private var inFlight = 0
    private var peakInFlight = 0
    private var finished = 0
    private var sentBodyBytes = 0
    private var cutByClient = 0
    private var accepted = 0

    public init(handler: @escaping Handler) throws {
        self.handler = handler
        (listener, port) = try TestHTTPServer.listen()
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    /// Opens a listening socket on 127.0.0.1 with a port the kernel picks.
    private static func listen() throws -> (socket: Int32, port: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// The server's URL for `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Every request received so far, in arrival order.
    public var requests: [Request] {
        lock.withLock { received }
    }

    /// Every connection accepted so far, those that never sent a request (a browser's
    /// preconnect) included.
    public var connections: Int {
        lock.withLock { accepted }
    }

    /// The most requests that were being answered at the same moment.
    public var maximumConcurrentRequests: Int {
        lock.withLock { peakInFlight }
    }

    /// Responses that ended because the client closed the connection; one whose client stopped
    /// reading but kept the connection open ends only at the send timeout, and is not counted.
    public var responsesCutByClient: Int {
        lock.withLock { cutByClient }
    }

    /// Body bytes the server managed to hand to the kernel, over all responses that finished.
    public var bodyBytesSent: Int {
        lock.withLock { sentBodyBytes }
    }

    /// Waits until `count` responses were sent completely or cut off by the client hanging up;
    /// false if that takes longer than `timeout`.
    public func waitForFinishedResponses(_ count: Int, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return lock.withLock {
            while finished < count {
                if !lock.wait(until: deadline) { return false }
            }
            return true
        }
    }

    /// Stops listening at once; new connections to the port are refused.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Serves until `stop()`, then closes the listener: closed any earlier, its descriptor number
    /// could be handed to another test's server and this loop would accept that server's connections.
    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                close(listener)
                return
            }
            lock.withLock { accepted += 1 }
            Thread.detachNewThread { self.serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // An endless body stops when the client hangs up, or after this long with the client not
        // reading: long enough for a client that stopped at its limit to hang up while every suite
        // of a full run shares two cores (5 s was not), and a client that never does still shows.
        var sendTimeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        lock.withLock {
            received.append(request)
            inFlight += 1
            peakInFlight = max(peakInFlight, inFlight)
        }
        let response = handler(request)
        if response.delay > 0 {
            Thread.sleep(forTimeInterval: response.delay)
        }
        lock.withLock { inFlight -= 1 }
        var head = "HTTP/1.1 \(response.status) Canned\r\n"
        for (name, value) in response.headers {
            head += "\(name): \(value)\r\n"
        }
        if response.chunks != nil {
            head += "Transfer-Encoding: chunked\r\n"
        } else if !response.omitContentLength {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        var sent = 0
        if send(connection, Data(head.utf8)) {
            sent = sendBody(of: response, to: connection)
        }
        lock.withLock {
            sentBodyBytes += sent
            finished += 1
            lock.broadcast()
        }
    }

    /// Sends the body, chunked when the response has chunks; returns the body bytes sent.
    private func sendBody(of response: Response, to connection: Int32) -> Int {
        if let interval = response.pieceInterval {
            var sent = 0
            while sent < response.body.count {
                if sent > 0 { Thread.sleep(forTimeInterval: interval) }
                let piece = response.body[sent..<min(response.body.count, sent + 65_536)]
                guard send(connection, Data(piece)) else { return sent }
                sent += piece.count
            }
            return sent
        }
        guard let next = response.chunks else {
            return send(connection, response.body) ? response.body.count : 0
        }
        var sent = 0
        var piece: Data? = response.body
        while let data = piece {
            if !data.isEmpty {
                let framed = Data("\(String(data.count, radix: 16))\r\n".utf8) + data + Data("\r\n".utf8)
                guard send(connection, framed) else { return sent }
                sent += data.count
            }
            piece = next()
        }
        _ = send(connection, Data("0\r\n\r\n".utf8))
        return sent
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.count < 65_536 {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if buffer.range(of: Data("\r\n\r\n".utf8)) != nil { break }
        }
        guard let headEnd = buffer.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headEnd.upperBound...])
        let length = min(headers["content-length"].flatMap { Int($0) } ?? 0, 16 << 20)
        while body.count < length {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { break }
            body.append(contentsOf: chunk[0..<count])
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    /// Writes all of `data`, false when the client hung up first or stopped reading for the send
    /// timeout; MSG_NOSIGNAL keeps a hang-up from killing the test run with SIGPIPE.
    private func send(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 {
                    if errno == EPIPE || errno == ECONNRESET {
                        lock.withLock { cutByClient += 1 }
                    }
                    return false
                }
                offset += sent
            }
            return true
        }
    }
}
