import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Background refresh turns: every interval, spread out, never before the server allows", .serialized)
struct BackgroundScheduleTests {
    @Test("feeds added together come due spread over a quarter of the interval")
    func turnsAreSpread() {
        let start = utc("2026-01-01T00:00:00Z")
        let schedule = BackgroundSchedule(interval: 1800)
        let turns = (1...40).map { id in schedule.turn(of: feed(id: Int64(id), lastAttempt: start))! }
        #expect(turns.allSatisfy { $0 >= start + 1800 && $0 < start + 1800 * 1.25 })
        let minutes = Set(turns.map { Int($0.timeIntervalSince(start) / 60) })
        #expect(minutes.count >= 7, "40 feeds share \(minutes.count) minutes of the 7.5-minute window")
    }

    @Test("a turn waits for the feed's max-age or Retry-After and its host's pause; a new feed is due at once", arguments: [
        (nil, nil, nil, nil),
        (0.0, nil, nil, 1800.0),
        (0.0, 7200.0, nil, 7200.0),
        (0.0, nil, 3600.0, 3600.0),
        (0.0, 60.0, 30.0, 1800.0),
    ] as [(TimeInterval?, TimeInterval?, TimeInterval?, TimeInterval?)])
    func turnWaits(lastAttempt: TimeInterval?, nextFetch: TimeInterval?, hostPause: TimeInterval?, turn: TimeInterval?) {
        let start = utc("2026-01-01T00:00:00Z")
        var subject = feed(id: 5, lastAttempt: lastAttempt.map { start + $0 })
        subject.nextFetch = nextFetch.map { start + $0 }
        let paused = hostPause.map { ["feeds.example": HostBackoff(until: start + $0, strikes: 1)] } ?? [:]
        let schedule = BackgroundSchedule(interval: 1800)
        let spread = 1800 * BackgroundSchedule.spreadShare * BackgroundSchedule.spread(5)
        let expected = turn.map { start + ($0 == 1800 ? $0 + spread : max($0, 1800 + spread)) }
        #expect(schedule.turn(of: subject, pausedHosts: paused) == expected)
    }

    @Test("the next wake-up is the earliest turn, at least a minute away, an interval away with no feeds")
    func nextWake() {
        let now = utc("2026-01-01T01:00:00Z")
        let schedule = BackgroundSchedule(interval: 1800)
        let early = feed(id: 1, lastAttempt: now - 2400)
        let later = feed(id: 2, lastAttempt: now - 600)
        #expect(schedule.nextWake([], after: now) == now + 1800)
        #expect(schedule.nextWake([early, later], after: now) == now + 60, "overdue feeds wait out the shortest wait")
        #expect(schedule.nextWake([later], after: now) == schedule.turn(of: later))
        #expect(schedule.dueFeeds([early, later], at: now).map(\.id) == [1])
        #expect(schedule.dueFeeds([later], at: schedule.turn(of: later)! - 1).isEmpty)
        #expect(schedule.dueFeeds([early, later], at: schedule.turn(of: later)!).map(\.id) == [1, 2])
    }

    @Test("over two hours at 30 minutes a feed is fetched four times, and not at all while its server says no")
    func libraryRefreshesOnSchedule() async throws {
        let server = try TestHTTPServer { request in
            request.path == "/slow.xml" ? .ok(rss(entries: 1), headers: [("Cache-Control", "max-age=7200")]) : .ok(rss(entries: 1))
        }
        defer { server.stop() }
        let clock = ManualClock()
        let library = FeedLibrary(store: try FeedStore.inMemory(), now: clock.reader)
        let regular = try await library.subscribe(to: server.url("/feed.xml").absoluteString)
        _ = try await library.subscribe(to: server.url("/slow.xml").absoluteString)
        let schedule = BackgroundSchedule(interval: 1800)
        var wakes = 0
        let end = clock.now + 2 * 3600 + 1
        while true {
            let wake = await library.nextWake(schedule)
            guard wake < end else { break }
            clock.advance(by: wake.timeIntervalSince(clock.now))
            wakes += 1
            let due = await library.dueFeeds(schedule)
            _ = await library.refresh(feedIDs: due.map(\.id))
        }
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0 == "/feed.xml" }.count == 1 + 3, "subscribed, then every 30-37.5 minutes: \(paths)")
        #expect(paths.filter { $0 == "/slow.xml" }.count == 1 + 1, "max-age=7200 allows one more in two hours: \(paths)")
        #expect(wakes <= 5, "woke \(wakes) times")
        #expect(try await library.store.feed(id: regular.id)?.lastAttempt != nil)
    }
}

/// A stored feed on feeds.example last tried at `lastAttempt`.
private func feed(id: Int64, lastAttempt: Date?) -> StoredFeed {
    StoredFeed(id: id, url: URL(string: "https://feeds.example/\(id).xml")!, title: nil, link: nil, iconURL: nil,
               validators: CacheValidators(), lastFetched: nil, lastAttempt: lastAttempt, nextFetch: nil, lastError: nil,
               lastWarnings: [], position: Int(id), unreadCount: 0)
}
