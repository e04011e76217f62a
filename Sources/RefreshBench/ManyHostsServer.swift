import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The feeds of many sites for `--only=refresh-hosts`: one listening socket on each of the
/// loopback addresses 127.0.0.2, 127.0.0.3… (Linux routes all of 127/8 to `lo`), feed `i` at
/// `/feeds/i.xml` on host `i % hosts`, with what servers across the internet do: 20 to 80 ms an
/// answer, ETags turning a matching `If-None-Match` into a 304, a few hosts rate-limiting every
/// request with 429 and `Retry-After`, a few feeds slow. It counts, per host, the most requests
/// it was answering at once.
final class ManyHostsServer: @unchecked Sendable {
    /// What the server answered since the last ``takeCounts()``.
    struct Counts: Equatable {
        var full = 0
        var notModified = 0
        var tooManyRequests = 0
        /// The most requests any one host was answering at the same moment.
        var maxPerHost = 0
    }

    let hosts: Int
    let feeds: Int
    /// How long a rate-limited host asks to be left alone, in seconds: longer than any run.
    static let retryAfter = 3600
    /// How long a slow feed takes to answer, in milliseconds.
    static let slowMilliseconds = 1500

    private let bodies: [Data]
    private var listeners: [Int32] = []
    private(set) var ports: [UInt16] = []
    private let lock = NSLock()
    private var counts = Counts()
    private var inFlight: [Int]
    private let stopped = Atomic(false)

    /// Serves `bodies` (one a feed) from `hosts` loopback addresses.
    init(bodies: [Data], hosts: Int) throws {
        precondition(hosts >= 1 && hosts <= 254 && bodies.count >= hosts)
        self.bodies = bodies
        self.hosts = hosts
        feeds = bodies.count
        inFlight = Array(repeating: 0, count: hosts)
        for host in 0..<hosts {
            do {
                let (listener, port) = try Self.listen(on: Self.address(ofHost: host))
                listeners.append(listener)
                ports.append(port)
            } catch {
                listeners.forEach { close($0) }
                throw error
            }
        }
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// The loopback address of host `host`: 127.0.0.2 for the first.
    static func address(ofHost host: Int) -> String { "127.0.0.\(host + 2)" }

    /// The host that serves feed `index`.
    func host(ofFeed index: Int) -> Int { index % hosts }

    /// The address of feed `index`.
    func url(ofFeed index: Int) -> URL {
        let host = host(ofFeed: index)
        return URL(string: "http://\(Self.address(ofHost: host)):\(ports[host])/feeds/\(index).xml")!
    }

    /// Hosts answering every request with 429: one in 50, the last ones, at least one.
    var throttledHosts: Range<Int> { (hosts - max(1, hosts / 50))..<hosts }

    /// Whether feed `index` takes ``slowMilliseconds`` to answer: one in 100.
    static func isSlow(feed index: Int) -> Bool { index % 100 == 37 }

    /// Feeds on throttled hosts.
    var throttledFeeds: Int { (0..<feeds).filter { throttledHosts.contains(host(ofFeed: $0)) }.count }

    /// Answers since the last call, and the most any host answered at once since then.
    func takeCounts() -> Counts {
        lock.withLock {
            let taken = counts
            counts = Counts()
            return taken
        }
    }

    /// Stops accepting; connections being answered finish.
    func stop() { stopped.store(true, ordering: .sequentiallyConsistent) }

    private static func listen(on host: String) throws -> (Int32, UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchError("the feed server has no socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(listener, 128) == 0 else {
            let error = errno
            close(listener)
            throw BenchError("the feed server cannot listen on \(host): errno \(error)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// One thread polls every host's socket and hands each connection to a thread of its own.
    private func acceptConnections() {
        var polled = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        defer { listeners.forEach { close($0) } }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            // A short timeout, so that stop() is seen without a wake-up pipe.
            guard poll(&polled, nfds_t(polled.count), 100) > 0 else { continue }
            for host in polled.indices where polled[host].revents & Int16(POLLIN) != 0 {
                let connection = accept(polled[host].fd, nil, nil)
                guard connection >= 0 else { continue }
                // Counted from the moment it is accepted, which is after the client connected,
                // to just before the answer goes out, before the client can send another: the
                // count is never more than the client had under way.
                lock.withLock {
                    inFlight[host] += 1
                    counts.maxPerHost = max(counts.maxPerHost, inFlight[host])
                }
                Thread.detachNewThread { [self] in answer(connection, host: host) }
            }
        }
    }

    private func answer(_ connection: Int32, host: Int) {
        defer { close(connection) }
        var answered = false
        defer { if !answered { lock.withLock { inFlight[host] -= 1 } } }
        guard let request = FeedServer.readRequest(from: connection) else { return }
        let lines = String(decoding: request, as: UTF8.self).split(separator: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2, parts[1].hasPrefix("/feeds/"), parts[1].hasSuffix(".xml"),
              let index = Int(parts[1].dropFirst("/feeds/".count).dropLast(".xml".count)),
              bodies.indices.contains(index), self.host(ofFeed: index) == host else {
            finish(connection, host: host, &answered, head: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let etag = "\"feed-\(index)-v1\""
        let sentTag = lines.dropFirst().first { $0.lowercased().hasPrefix("if-none-match:") }
            .map { $0.dropFirst("if-none-match:".count).trimmingCharacters(in: .whitespaces) }
        // The same delay for a feed in every run and for both programs.
        usleep(useconds_t((Self.isSlow(feed: index) ? Self.slowMilliseconds : 20 + (index * 37) % 61) * 1000))
        if throttledHosts.contains(host) {
            lock.withLock { counts.tooManyRequests += 1 }
            finish(connection, host: host, &answered, head: "HTTP/1.1 429 Too Many Requests\r\nRetry-After: \(Self.retryAfter)\r\n"
                   + "Content-Length: 0\r\nConnection: close\r\n\r\n")
        } else if sentTag == etag {
            lock.withLock { counts.notModified += 1 }
            finish(connection, host: host, &answered, head: "HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\nConnection: close\r\n\r\n")
        } else {
            lock.withLock { counts.full += 1 }
            let body = bodies[index]
            finish(connection, host: host, &answered, head: "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml; charset=utf-8\r\n"
                   + "ETag: \(etag)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", body: body)
        }
    }

    /// Leaves the host's count, then sends the answer.
    private func finish(_ connection: Int32, host: Int, _ answered: inout Bool, head: String, body: Data? = nil) {
        lock.withLock { inFlight[host] -= 1 }
        answered = true
        FeedServer.send(connection, head: head, body: body)
    }
}
