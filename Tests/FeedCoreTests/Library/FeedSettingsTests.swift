import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("A feed's own settings: paused, its refresh interval, how long its entries are kept")
struct FeedSettingsTests {
    /// Over two hours at the app's 30 minutes: a feed of its own 60 minutes is fetched every hour,
    /// a paused one never, by the background timer and by a pull alike; resumed, it is fetched again.
    @Test func pausedFeedsAreLeftAloneAndIntervalsAreEachFeedsOwn() async throws {
        let server = try TestHTTPServer { _ in .ok(rss(entries: 1)) }
        defer { server.stop() }
        let clock = ManualClock()
        let library = FeedLibrary(store: try FeedStore.inMemory(), now: clock.reader)
        let hourly = try await library.subscribe(to: server.url("/hourly.xml").absoluteString)
        let paused = try await library.subscribe(to: server.url("/paused.xml").absoluteString)
        _ = try await library.subscribe(to: server.url("/default.xml").absoluteString)
        try await library.store.setSettings(FeedSettings(refreshInterval: 3600), forFeed: hourly.id)
        try await library.store.setSettings(FeedSettings(isPaused: true), forFeed: paused.id)
        let schedule = BackgroundSchedule(interval: 1800)
        let end = clock.now + 2 * 3600 + 1
        while true {
            let wake = await library.nextWake(schedule)
            guard wake < end else { break }
            clock.advance(by: wake.timeIntervalSince(clock.now))
            _ = await library.refresh(feedIDs: await library.dueFeeds(schedule).map(\.id))
        }
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0 == "/default.xml" }.count == 1 + 3, "\(paths)")
        #expect(paths.filter { $0 == "/hourly.xml" }.count == 1 + 1, "every 60-75 minutes: \(paths)")
        #expect(paths.filter { $0 == "/paused.xml" }.count == 1, "only when subscribed: \(paths)")

        let pulled = await library.refresh()
        #expect(pulled.paused == 1)
        #expect(server.requests.filter { $0.path == "/paused.xml" }.count == 1, "a pull leaves it alone too")
        #expect(try await library.store.entryCount(feedID: paused.id) == 1, "its entries stay")

        try await library.store.setSettings(FeedSettings(isPaused: false), forFeed: paused.id)
        _ = await library.refresh(feedIDs: [paused.id])
        #expect(server.requests.filter { $0.path == "/paused.xml" }.count == 2)
    }

    @Test(arguments: [
        (FeedSettings(refreshInterval: 0), FeedSettingsError.intervalTooShort),
        (FeedSettings(refreshInterval: -60), .intervalTooShort),
        (FeedSettings(refreshInterval: 60), .intervalTooShort),
        (FeedSettings(refreshInterval: .nan), .intervalTooShort),
        (FeedSettings(keepDays: 0), .retentionTooShort),
        (FeedSettings(keepDays: -3), .retentionTooShort),
        (FeedSettings(keepNewest: 0), .retentionTooShort),
    ])
    func settingsThatMakeNoSenseAreRefusedAndNothingChanges(settings: FeedSettings, error: FeedSettingsError) async throws {
        let store = try FeedStore.inMemory()
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.setSettings(FeedSettings(refreshInterval: 7200, keepDays: 30), forFeed: feed.id)

        await #expect(throws: error) { try await store.setSettings(settings, forFeed: feed.id) }
        #expect(try await store.feed(id: feed.id)?.settings == FeedSettings(refreshInterval: 7200, keepDays: 30))
    }

    /// A feed keeping 5 days loses its older read entries while another feed, on the app's 90
    /// days, keeps the same ages; one keeping its newest 2 loses the rest but its starred one.
    @Test func eachFeedKeepsItsEntriesAsItsSettingsSay() async throws {
        let store = try FeedStore.inMemory()
        let now = utc("2026-06-01T00:00:00Z")
        func add(_ address: String, ages: [Double]) async throws -> Int64 {
            let feed = try await store.addFeed(url: URL(string: address)!)
            for (index, age) in ages.enumerated() {
                try await store.apply(fetched([Entry(id: "\(index)", title: "\(address) \(index)", published: now - age * 86400)]),
                                      toFeed: feed.id, at: now - age * 86400)
            }
            return feed.id
        }
        let short = try await add("https://short.example/feed", ages: [1, 10, 20])
        let usual = try await add("https://usual.example/feed", ages: [1, 10, 20])
        let newest = try await add("https://newest.example/feed", ages: [1, 2, 3, 4])
        try await store.markAllRead()
        try await store.setSettings(FeedSettings(keepDays: 5), forFeed: short)
        try await store.setSettings(FeedSettings(keepNewest: 2), forFeed: newest)
        let oldestOfNewest = try #require(try await store.entries(EntryQuery(feedID: newest)).last)
        try await store.setStarred(entryID: oldestOfNewest.id)

        let removed = try await store.expireEntries(Retention(), at: now)

        #expect(removed == 2 + 1)
        #expect(try await store.entries(EntryQuery(feedID: short)).map(\.entryID) == ["0"])
        #expect(try await store.entries(EntryQuery(feedID: usual)).count == 3)
        #expect(try await store.entries(EntryQuery(feedID: newest)).map(\.entryID) == ["0", "1", "3"], "the newest two and the starred one")
    }
}
