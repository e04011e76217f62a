import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Polling politely: Cache-Control, Retry-After, 429/503 backoff per host", .serialized)
struct PollingTests {
    @Test("Cache-Control values", arguments: [
        ("max-age=600", 600),
        ("public, max-age=60, must-revalidate", 60),
        ("MAX-AGE = \"90\"", 90),
        ("private, no-cache", 0),
        ("no-store, max-age=600", 0),
        ("s-maxage=300", nil),
        ("max-age=-5", nil),
        ("max-age=soon", nil),
        ("", nil),
    ] as [(String, TimeInterval?)])
    func cacheControl(value: String, maxAge: TimeInterval?) {
        #expect(ServerDirectives.maxAge(inCacheControl: value) == maxAge)
    }

    @Test("freshness from Cache-Control less Age, else Expires less Date", arguments: [
        (["cache-control": "max-age=600", "age": "100"], 500),
        (["cache-control": "max-age=600", "age": "900"], 0),
        (["cache-control": "max-age=600", "expires": "Tue, 05 Mar 2024 12:00:00 GMT"], 600),
        (["expires": "Tue, 05 Mar 2024 11:00:00 GMT", "date": "Tue, 05 Mar 2024 10:30:00 GMT"], 1800),
        (["expires": "Tue, 05 Mar 2024 11:00:00 GMT"], 3600),
        (["expires": "0"], 0),
        (["etag": "\"x\""], nil),
    ] as [([String: String], TimeInterval?)])
    func freshness(headers: [String: String], maxAge: TimeInterval?) {
        #expect(ServerDirectives(headers: headers, receivedAt: utc("2024-03-05T10:00:00Z")).maxAge == maxAge)
    }

    @Test("Retry-After values, as seconds or a date against the answer's Date", arguments: [
        ("120", nil, 120),
        (" 0 ", nil, 0),
        ("-3", nil, nil),
        ("Tue, 05 Mar 2024 10:05:00 GMT", "Tue, 05 Mar 2024 10:00:00 GMT", 300),
        ("Tue, 05 Mar 2024 09:00:00 GMT", "Tue, 05 Mar 2024 10:00:00 GMT", 0),
        ("later", nil, nil),
    ] as [(String, String?, TimeInterval?)])
    func retryAfter(value: String, date: String?, seconds: TimeInterval?) {
        var headers = ["retry-after": value]
        headers["date"] = date
        #expect(ServerDirectives(headers: headers, receivedAt: utc("2024-03-05T10:00:00Z")).retryAfter == seconds)
    }

    @Test("a host's pause: Retry-After when given, else doubling from the first pause, capped; cleared by any other answer",
          arguments: [
              (failedWith(429), nil, 900, 1),
              (failedWith(503), HostBackoff(until: .distantPast, strikes: 1), 1800, 2),
              (failedWith(503), HostBackoff(until: .distantPast, strikes: 3), 7200, 4),
              (failedWith(429, retryAfter: 42), HostBackoff(until: .distantPast, strikes: 5), 42, 6),
              (failedWith(429, retryAfter: 9_999_999), nil, 86400, 1),
              (failedWith(503), HostBackoff(until: .distantPast, strikes: 40), 86400, 41),
          ] as [(FetchResult, HostBackoff?, TimeInterval, Int)])
    func hostPause(result: FetchResult, previous: HostBackoff?, pause: TimeInterval, strikes: Int) {
        let now = utc("2024-03-05T10:00:00Z")
        #expect(PollingPolicy().hostBackoff(after: result, previous: previous, at: now) == HostBackoff(until: now + pause, strikes: strikes))
    }

    @Test("a host's pause runs to its end whatever else answers meanwhile, then ends with any answer")
    func hostPauseEnds() {
        let now = utc("2024-03-05T10:00:00Z")
        let paused = HostBackoff(until: now + 60, strikes: 2)
        let policy = PollingPolicy()
        #expect(policy.hostBackoff(after: fetched([]), previous: paused, at: now) == paused)
        #expect(policy.hostBackoff(after: failedWith(429), previous: paused, at: now) == HostBackoff(until: now + 1800, strikes: 2),
                "a second 429 from the same round is not a further strike")
        #expect(policy.hostBackoff(after: failedWith(404), previous: paused, at: now + 60) == nil)
        #expect(policy.hostBackoff(after: fetched([]), previous: paused, at: now + 60) == nil)
        #expect(policy.hostBackoff(after: failed(.network(.cannotConnect, host: "example.org")), previous: paused, at: now + 90) == paused)
        #expect(policy.hostBackoff(after: failed(.timedOut(after: .seconds(15))), previous: nil, at: now) == nil)
    }

    @Test("a feed waits out its max-age, capped at a day, and a failure's Retry-After")
    func feedWaits() {
        let now = utc("2024-03-05T10:00:00Z")
        let policy = PollingPolicy()
        var fresh = fetched([])
        fresh.directives.maxAge = 600
        #expect(policy.nextFetch(after: fresh, at: now) == now + 600)
        fresh.directives.maxAge = 31_536_000
        #expect(policy.nextFetch(after: fresh, at: now) == now + 86400)
        fresh.directives.maxAge = 0
        #expect(policy.nextFetch(after: fresh, at: now) == nil)
        #expect(policy.nextFetch(after: failedWith(503, retryAfter: 120), at: now) == now + 120)
        #expect(policy.nextFetch(after: failedWith(500), at: now) == nil)
    }

    @Test("a feed is not fetched again before its max-age runs out")
    func maxAgeIsHonoured() async throws {
        let server = try TestHTTPServer { _ in .ok(rss(entries: 2), headers: [("Cache-Control", "public, max-age=600")]) }
        defer { server.stop() }
        let clock = ManualClock()
        let library = FeedLibrary(store: try FeedStore.inMemory(), now: clock.reader)
        _ = try await library.subscribe(to: server.url("/feed.xml").absoluteString)
        #expect(server.requests.count == 1)

        clock.advance(by: 599)
        let early = await library.refresh()
        #expect(early.postponed == 1)
        #expect(server.requests.count == 1, "fetched before max-age=600 ran out")

        clock.advance(by: 1)
        let due = await library.refresh()
        #expect(due.postponed == 0)
        #expect(server.requests.count == 2)
    }

    @Test("429 with Retry-After pauses every feed of its host, not other hosts, until then")
    func retryAfterPausesTheHost() async throws {
        let limiting = Switch(true)
        let server = try TestHTTPServer { request in
            request.path == "/a.xml" && limiting.isOn ? .status(429, headers: [("Retry-After", "120")]) : .ok(rss(entries: 1))
        }
        defer { server.stop() }
        let other = try TestHTTPServer { _ in .ok(rss(entries: 1)) }
        defer { other.stop() }
        let clock = ManualClock()
        let store = try FeedStore.inMemory()
        let library = FeedLibrary(store: store, now: clock.reader)
        let first = try await store.addFeed(url: server.url("/a.xml"))
        _ = try await store.addFeed(url: server.url("/b.xml"))
        _ = try await store.addFeed(url: other.url("/c.xml"))

        let limited = await library.refresh()
        #expect(limited.failures.map(\.feedID) == [first.id])
        #expect(limited.failures.first?.reason == ErrorReason(.httpStatus, [.status: "429"]))
        #expect(server.requests.map(\.path) == ["/a.xml"], "the host's next feed waits once it said 429")
        #expect(limited.postponed == 1)
        limiting.isOn = false

        clock.advance(by: 119)
        let paused = await library.refresh()
        #expect(paused.postponed == 2)
        #expect(server.requests.count == 1, "the host asked for 120 s and was asked again sooner")
        #expect(other.requests.count == 2, "another host's feed is not held back")

        clock.advance(by: 1)
        let resumed = await library.refresh()
        #expect(resumed.postponed == 0 && resumed.failures.isEmpty)
        #expect(server.requests.map(\.path) == ["/a.xml", "/a.xml", "/b.xml"])
        #expect(server.maximumConcurrentRequests == 1, "one request at a time to a host")
        #expect(try await store.hostBackoffs(at: clock.now).isEmpty, "an answer ends the pause")
    }

    @Test("503 without Retry-After pauses its host 15 minutes, then 30 after another, and the pause survives a restart")
    func backoffDoublesAndPersists() async throws {
        let server = try TestHTTPServer { _ in .status(503) }
        defer { server.stop() }
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("feeds.sqlite").path
        let clock = ManualClock()
        do {
            let library = FeedLibrary(store: try FeedStore(path: path), now: clock.reader)
            _ = try await library.store.addFeed(url: server.url("/feed.xml"))
            _ = await library.refresh()
            clock.advance(by: 15 * 60 - 1)
            #expect(await library.refresh().postponed == 1)
            clock.advance(by: 1)
            #expect(await library.refresh().postponed == 0)
            #expect(server.requests.count == 2)
        }
        let reopened = FeedLibrary(store: try FeedStore(path: path), now: clock.reader)
        clock.advance(by: 30 * 60 - 1)
        #expect(await reopened.refresh().postponed == 1, "the second 503 doubled the pause, kept on disk")
        clock.advance(by: 1)
        #expect(await reopened.refresh().postponed == 0)
        #expect(server.requests.count == 3)
    }
}

/// A failed fetch with HTTP `status` and, if given, the server's Retry-After.
private func failedWith(_ status: Int, retryAfter: TimeInterval? = nil) -> FetchResult {
    var result = failed(.httpStatus(status))
    result.directives.retryAfter = retryAfter
    return result
}

/// A flag a test server's handler reads while the test changes it.
private final class Switch: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool

    init(_ value: Bool) { self.value = value }

    var isOn: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
