import Foundation
import Synchronization
import TestSupport
import Testing
@testable import FeedCore

@Suite("FeedLibrary: refreshing a selection, subscribing, first runs")
struct FeedLibraryTests {
    @Test("addresses people type", arguments: [
        ("https://example.org/feed.xml", "https://example.org/feed.xml"),
        ("example.org/feed.xml", "https://example.org/feed.xml"),
        ("  http://example.org/rss  ", "http://example.org/rss"),
        ("file:///tmp/feed.xml", "file:///tmp/feed.xml"),
    ])
    func acceptedAddresses(typed: String, expected: String) {
        #expect(FeedLibrary.feedURL(from: typed)?.absoluteString == expected)
    }

    @Test("addresses that cannot be feeds are refused", arguments: ["", "   ", "not a url", "ftp://example.org/feed",
                                                                   "javascript:alert(1)", "https://"])
    func refusedAddresses(typed: String) {
        #expect(FeedLibrary.feedURL(from: typed) == nil)
    }

    @Test("subscribing fetches once and stores the entries")
    func subscribeStoresEntries() async throws {
        let server = try TestHTTPServer { _ in .ok(rss(entries: 3)) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let feed = try await library.subscribe(to: server.url("/feed.xml").absoluteString)
        #expect(feed.title == "Library test")
        #expect(feed.unreadCount == 3)
        #expect(try await library.store.entryCount() == 3)
    }

    @Test("a failing subscription says why and adds nothing")
    func failedSubscriptionAddsNothing() async throws {
        let server = try TestHTTPServer { _ in .status(404) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        await #expect(throws: FeedLibrary.SubscribeError.fetchFailed(.httpStatus(404))) {
            try await library.subscribe(to: server.url("/missing.xml").absoluteString)
        }
        #expect(try await library.store.feeds().isEmpty)
        await #expect(throws: FeedLibrary.SubscribeError.invalidAddress("no feed here")) {
            try await library.subscribe(to: "no feed here")
        }
    }

    @Test("subscribing twice to one address is refused")
    func duplicateSubscription() async throws {
        let server = try TestHTTPServer { _ in .ok(rss(entries: 1)) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let address = server.url("/feed.xml").absoluteString
        _ = try await library.subscribe(to: address)
        await #expect(throws: FeedLibrary.SubscribeError.alreadySubscribed) { try await library.subscribe(to: address) }
        #expect(try await library.store.feeds().count == 1)
    }

    @Test("a refresh counts new entries and reports failing feeds without stopping the others")
    func refreshReportsPerFeed() async throws {
        let published = Published(3)
        let server = try TestHTTPServer { request in
            request.path == "/broken.xml" && published.broken ? .status(500) : .ok(rss(entries: published.count))
        }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let good = try await library.subscribe(to: server.url("/good.xml").absoluteString)
        let broken = try await library.subscribe(to: server.url("/broken.xml").absoluteString)
        published.set(5, broken: true)

        let report = await library.refresh()
        #expect(report.newEntries == 2)
        #expect(report.failures.map(\.feedID) == [broken.id])
        #expect(report.failures.first?.reason == ErrorReason(.httpStatus, [.status: "500"]))
        #expect(report.failures.first?.stage == .fetching)
        #expect(try await library.store.entryCount(feedID: broken.id) == 3, "the failing feed keeps its entries")
        #expect(try await library.store.feed(id: broken.id)?.lastError != nil)

        let onlyGood = await library.refresh(feedIDs: [good.id])
        #expect(onlyGood.failures.isEmpty, "a selection refreshes only its feeds")
    }

    /// The copy is read and compared only after a refresh that may have changed it: one of 304s
    /// and failures leaves the file itself in place (the same inode); a title fetched anew is in it.
    @Test("a refresh of unchanged feeds leaves the subscriptions' copy alone; a new title reaches it")
    func unchangedRefreshLeavesTheCopy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let title = Mutex("Library test")
        let server = try TestHTTPServer { request in
            if request.path == "/gone.xml" { return .status(404) }
            let current = title.withLock { $0 }
            let etag = "\"\(current)\""
            return request.headers["if-none-match"] == etag ? .status(304) : .ok(rss(entries: 2, title: current), headers: [("ETag", etag)])
        }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path))
        _ = try await library.subscribe(to: server.url("/feed.xml").absoluteString)
        _ = try await library.store.addFeed(url: server.url("/gone.xml"))
        let copy = try #require(library.store.subscriptionsCopyURL)
        func file() throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: copy.path)[.systemFileNumber] as? Int) }
        _ = await library.refresh()
        let kept = try file()

        let unchanged = await library.refresh()
        #expect(unchanged.newEntries == 0 && unchanged.failures.count == 1)
        #expect(try file() == kept, "the copy was left as it was")

        title.withLock { $0 = "Renamed" }
        _ = await library.refresh()
        let document = try OPMLDocument(data: Data(contentsOf: copy))
        #expect(document.subscriptions.map(\.title).contains("Renamed"), "\(document.subscriptions)")
    }

    @Test("a feed is stored as soon as it arrives, while another is still on the network")
    func storingOverlapsFetching() async throws {
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let seenStored = Published(0)
        let slow = try TestHTTPServer { _ in
            // Answers only once the other host's feed is stored, or after 10 s: a refresh that
            // stores nothing before every fetch is done waits the whole time and sees nothing.
            let deadline = Date() + 10
            while Date() < deadline, seenStored.count == 0 {
                seenStored.set(blockingCount { try await library.store.entryCount() }, broken: false)
            }
            return .ok(rss(entries: 1, title: "Slow"))
        }
        defer { slow.stop() }
        let fast = try TestHTTPServer { _ in .ok(rss(entries: 3)) }
        defer { fast.stop() }
        _ = try await library.store.addFeed(url: slow.url("/slow.xml"))
        _ = try await library.store.addFeed(url: fast.url("/fast.xml"))

        let report = await library.refresh()
        #expect(report.newEntries == 4 && report.failures.isEmpty)
        #expect(seenStored.count == 3, "the fast feed's entries were stored while the slow one was fetched")
    }

    @Test("a host is asked for one feed first, then for several at once up to the fetcher's limit")
    func oneHostFirstAloneThenInParallel() async throws {
        let server = try TestHTTPServer { _ in .init(status: 200, body: rss(entries: 1), delay: 0.2) }
        defer { server.stop() }
        let fetcher = FeedFetcher(configuration: .init(maxConcurrentFetches: 3))
        let library = FeedLibrary(store: try FeedStore.inMemory(), fetcher: fetcher)
        for index in 0..<7 {
            _ = try await library.store.addFeed(url: server.url("/\(index).xml"))
        }
        let report = await library.refresh()
        #expect(report.newEntries == 7 && report.failures.isEmpty)
        #expect(server.requests.count == 7)
        #expect(server.maximumConcurrentRequests == 3, "once the host answered, the fetcher's slots are used")
    }

    @Test("many hosts share the fetcher's slots, and none is sent more than its per-host share at once")
    func hostsShareTheSlotsUpToTheirShare() async throws {
        // Each host's first feed answers at once (a host gets more only after it answered one);
        // the others wait until four requests are under way together, or 10 s.
        let gate = ConcurrencyGate(opensAt: 4)
        let handler: TestHTTPServer.Handler = { request in
            if request.path != "/0.xml" { gate.pass() }
            return .ok(rss(entries: 1))
        }
        let first = try TestHTTPServer(handler: handler), second = try TestHTTPServer(handler: handler)
        defer { first.stop(); second.stop() }
        let fetcher = FeedFetcher(configuration: .init(maxConcurrentFetches: 6, maxFetchesPerHost: 2))
        let library = FeedLibrary(store: try FeedStore.inMemory(), fetcher: fetcher)
        for server in [first, second] {
            for index in 0..<5 { _ = try await library.store.addFeed(url: server.url("/\(index).xml")) }
        }
        let report = await library.refresh()
        #expect(report.newEntries == 10 && report.failures.isEmpty)
        #expect(first.maximumConcurrentRequests == 2 && second.maximumConcurrentRequests == 2, "two at once per host")
        #expect(gate.opened, "both hosts were asked at once, four requests in all")
    }

    @Test("failures are reported in the order of the subscriptions, whichever answered first")
    func failuresInSubscriptionOrder() async throws {
        let server = try TestHTTPServer { request in
            .init(status: 500, delay: request.path == "/first.xml" ? 0.3 : 0)
        }
        defer { server.stop() }
        let other = try TestHTTPServer { _ in .status(404) }
        defer { other.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let first = try await library.store.addFeed(url: server.url("/first.xml"))
        let second = try await library.store.addFeed(url: other.url("/second.xml"))
        let report = await library.refresh()
        #expect(report.failures.map(\.feedID) == [first.id, second.id])
    }

    @Test("a first run subscribes to the bundled samples; later runs leave subscriptions alone")
    func samplesOnFirstRunOnly() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try rss(entries: 4).write(to: folder.appendingPathComponent("one.xml"))
        try rss(entries: 2, title: "Second").write(to: folder.appendingPathComponent("two.xml"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
        let library = FeedLibrary(store: try FeedStore.inMemory())
        #expect(await library.subscribeToSamplesIfEmpty(in: folder) == 2)
        #expect(try await library.store.entryCount() == 6)
        #expect(await library.subscribeToSamplesIfEmpty(in: folder) == 0)
        #expect(try await library.store.feeds().count == 2)
    }

    @Test("samples subscribed from a copy of the app's data that is gone refresh from the copy the app ships now")
    func samplesFollowTheAppsData() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (old, new) = (root.appendingPathComponent("old/sample-feeds"), root.appendingPathComponent("new/sample-feeds"))
        for folder in [old, new] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try rss(entries: 3).write(to: folder.appendingPathComponent("one.xml"))
        }
        let elsewhere = root.appendingPathComponent("elsewhere.xml")
        try rss(entries: 1, title: "Mine").write(to: elsewhere)
        // Due at once, as a day later.
        nonisolated(unsafe) var later = 0.0
        let library = FeedLibrary(store: try FeedStore.inMemory(), now: { Date(timeIntervalSinceNow: later) })
        #expect(await library.subscribeToSamplesIfEmpty(in: old) == 1)
        _ = try await library.subscribe(to: elsewhere.absoluteString)
        try FileManager.default.removeItem(at: old)
        try FileManager.default.removeItem(at: elsewhere)
        later = 86_400
        #expect(await library.refresh().failures.count == 2, "both files are gone")

        #expect(await library.followSamples(to: new) == 1, "only the sample has a copy to follow")
        let report = await library.refresh()
        let urls = try await library.store.feeds().map(\.url)
        #expect(urls.contains(new.appendingPathComponent("one.xml")))
        #expect(report.failures.map(\.title) == ["Mine"], "the sample refreshed from the shipped copy; the user's own file still fails")
        #expect(await library.followSamples(to: new) == 0, "nothing to follow once it reads the shipped copy")
    }
}

/// Holds requests until `opensAt` of them are waiting together, then lets every one through;
/// after 10 s it lets them through without having opened.
private final class ConcurrencyGate: @unchecked Sendable {
    private let condition = NSCondition()
    private let opensAt: Int
    private var waiting = 0
    private var isOpen = false

    init(opensAt: Int) { self.opensAt = opensAt }

    var opened: Bool { condition.withLock { isOpen } }

    func pass() {
        condition.withLock {
            waiting += 1
            if waiting >= opensAt {
                isOpen = true
                condition.broadcast()
            }
            let deadline = Date() + 10
            while !isOpen, condition.wait(until: deadline) {}
            waiting -= 1
        }
    }
}

/// What the test server publishes, changed as a test goes.
private final class Published: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: Int
    private var failing = false

    init(_ entries: Int) { self.entries = entries }

    var count: Int { lock.withLock { entries } }
    var broken: Bool { lock.withLock { failing } }

    func set(_ count: Int, broken: Bool) {
        lock.withLock {
            entries = count
            failing = broken
        }
    }
}

/// The value of `body`, waited for on this (non-async) thread: for a test server's handler.
private func blockingCount(_ body: @escaping @Sendable () async throws -> Int) -> Int {
    let done = DispatchSemaphore(value: 0)
    let result = Published(0)
    Task {
        result.set((try? await body()) ?? 0, broken: false)
        done.signal()
    }
    done.wait()
    return result.count
}

/// An RSS feed of `entries` numbered items, newest first, for library tests.
func rss(entries: Int, title: String = "Library test") -> Data {
    let items = (0..<entries).reversed().map { number in
        "<item><title>Item \(number)</title><guid>item-\(number)</guid><link>https://example.org/\(number)</link></item>"
    }
    return Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>\(title)</title><link>https://example.org/</link>
        <description>d</description>\(items.joined())</channel></rss>
        """.utf8)
}
