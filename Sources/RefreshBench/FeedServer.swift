import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A local HTTP/1.1 server for the refresh comparison: feed `i` at `/feeds/i.xml`, with an ETag
/// that an `If-None-Match` of the same value turns into a 304, each answer after 20-80 ms as
/// from a server across the internet. One thread per connection; every answer closes it.
final class FeedServer: @unchecked Sendable {
    private(set) var port: UInt16 = 0
    private let listener: Int32
    private let bodies: [Data]
    private let lock = NSLock()
    private var served = (full: 0, notModified: 0)

    /// Serves `bodies` on 127.0.0.1 at a free port.
    init(bodies: [Data]) throws {
        self.bodies = bodies
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchError("the feed server has no socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            close(listener)
            throw BenchError("the feed server cannot listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// The address of feed `index`.
    func url(ofFeed index: Int) -> URL { URL(string: "http://127.0.0.1:\(port)/feeds/\(index).xml")! }

    /// Answers served since the last call: with a body, and 304s.
    func takeCounts() -> (full: Int, notModified: Int) {
        lock.lock()
        defer { lock.unlock() }
        let counts = served
        served = (0, 0)
        return counts
    }

    /// Stops accepting; connections being answered finish.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            Thread.detachNewThread { [self] in answer(connection) }
        }
    }

    /// A request's head as read from `connection` (at most 64 KB); nil when the client left first.
    static func readRequest(from connection: Int32) -> [UInt8]? {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while request.count < 65_536 {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return nil }
            request += buffer[0..<count]
            if request.firstRange(of: end) != nil { break }
        }
        return request
    }

    private func answer(_ connection: Int32) {
        defer { close(connection) }
        guard let request = Self.readRequest(from: connection) else { return }
        let text = String(decoding: request, as: UTF8.self)
        let lines = text.split(separator: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2, parts[1].hasPrefix("/feeds/"), parts[1].hasSuffix(".xml"),
              let index = Int(parts[1].dropFirst("/feeds/".count).dropLast(".xml".count)),
              bodies.indices.contains(index) else {
            Self.send(connection, head: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", body: nil)
            return
        }
        let etag = "\"feed-\(index)-v1\""
        let sentTag = lines.dropFirst().first { $0.lowercased().hasPrefix("if-none-match:") }
            .map { $0.dropFirst("if-none-match:".count).trimmingCharacters(in: .whitespaces) }
        // The same delay for a feed in every run and for both programs: 20 to 80 ms.
        usleep(useconds_t((20 + (index * 37) % 61) * 1000))
        let notModified = sentTag == etag
        lock.lock()
        if notModified { served.notModified += 1 } else { served.full += 1 }
        lock.unlock()
        if notModified {
            Self.send(connection, head: "HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\nConnection: close\r\n\r\n", body: nil)
        } else {
            let body = bodies[index]
            Self.send(connection, head: "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml; charset=utf-8\r\n"
                     + "ETag: \(etag)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", body: body)
        }
    }

    /// Writes `head` and `body` to `connection`, giving up when the client has gone.
    static func send(_ connection: Int32, head: String, body: Data?) {
        var bytes = Data(head.utf8)
        if let body { bytes.append(body) }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(connection, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
