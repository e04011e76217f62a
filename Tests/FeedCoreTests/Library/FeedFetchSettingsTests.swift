import Foundation
import TestSupport
import Testing
@testable import FeedCore

/// Whether a Secret Service answers on the session bus (meson-helpers/keyring-session starts one).
private func secretServiceRuns() async -> Bool {
    let key = SecretKey.feed(URL(string: "http://probe.invalid/")!, user: "probe")
    do {
        try await LibsecretStore().save("probe", for: key)
        try await LibsecretStore().remove(for: key)
        return true
    } catch {
        return false
    }
}

@Suite("How a feed is asked for: its declared interval, its User-Agent, HTTP authentication")
struct FeedFetchSettingsTests {
    @Test(arguments: [
        (nil, nil, nil, nil),
        (60, nil, nil, 3600),
        (0, nil, nil, nil),
        (-5, nil, nil, nil),
        (nil, "hourly", nil, 3600),
        (nil, "hourly", 2, 1800),
        (nil, "daily", nil, 86400),
        (nil, "Weekly", 7, 86400),
        (nil, "monthly", 30, 86400),
        (nil, "yearly", 1, 365 * 86400),
        (nil, nil, 4, 21600),
        (nil, "fortnightly", nil, nil),
        (nil, "daily", 0, nil),
        (30, "hourly", 1, 3600),
        (180, "hourly", 1, 10800),
    ] as [(Int?, String?, Int?, TimeInterval?)])
    func aFeedDeclaresTheLongerOfItsTTLAndItsSyndicationPeriod(ttl: Int?, period: String?, frequency: Int?, expected: TimeInterval?) {
        #expect(FeedDraft.updateInterval(ttlMinutes: ttl, period: period, frequency: frequency) == expected)
    }

    @Test(arguments: [
        ("<ttl>120</ttl>", 7200),
        ("<sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency>", 900),
        ("<ttl> 15 </ttl><sy:updatePeriod>daily</sy:updatePeriod>", 86400),
        ("<ttl>soon</ttl>", nil),
        ("", nil),
    ] as [(String, TimeInterval?)])
    func theParserReadsTheDeclaredInterval(channel: String, expected: TimeInterval?) throws {
        let document = """
            <rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel><title>T</title>\(channel)
            <item><title>A</title><guid>a</guid></item></channel></rss>
            """
        let parsed = try FeedParser().parse(Data(document.utf8), url: URL(string: "https://site.example/feed")!)
        #expect(parsed.feed.updateInterval == expected)
    }

    /// The app's interval, the feed's own and what the feed declares: the declared one is a lower
    /// bound, up to a day, so a wrong `ttl` of a year still lets the feed be read daily.
    @Test(arguments: [
        (nil, nil, 1800),
        (nil, 3600, 3600),
        (nil, 600, 1800),
        (7200, 3600, 7200),
        (600, 3600, 3600),
        (600, 365 * 86400, 86400),
        (2 * 86400, 365 * 86400, 2 * 86400),
    ] as [(TimeInterval?, TimeInterval?, TimeInterval)])
    func theDeclaredIntervalIsALowerBound(own: TimeInterval?, declared: TimeInterval?, expected: TimeInterval) {
        var feed = StoredFeed(id: 1, url: URL(string: "https://site.example/feed")!, validators: CacheValidators(), lastWarnings: [],
                              position: 0, unreadCount: 0)
        feed.settings.refreshInterval = own
        feed.declaredInterval = declared
        #expect(BackgroundSchedule(interval: 1800).interval(of: feed) == expected)
    }

    /// A feed with `ttl` 120 fetched at the app's 30 minutes is fetched again only after two hours.
    @Test func theBackgroundTimerWaitsForTheDeclaredInterval() async throws {
        let document = Data("""
            <rss version="2.0"><channel><title>T</title><ttl>120</ttl><item><title>A</title><guid>a</guid></item></channel></rss>
            """.utf8)
        let server = try TestHTTPServer { _ in .ok(document) }
        defer { server.stop() }
        let clock = ManualClock()
        let library = FeedLibrary(store: try FeedStore.inMemory(), now: clock.reader)
        let feed = try await library.subscribe(to: server.url("/feed.xml").absoluteString)
        #expect(try await library.store.feed(id: feed.id)?.declaredInterval == 7200)
        let schedule = BackgroundSchedule(interval: 1800)
        let end = clock.now + 4 * 3600 + 1
        while true {
            let wake = await library.nextWake(schedule)
            guard wake < end else { break }
            clock.advance(by: wake.timeIntervalSince(clock.now))
            _ = await library.refresh(feedIDs: await library.dueFeeds(schedule).map(\.id))
        }
        #expect((2...3).contains(server.requests.count), "subscribed, then every 2 to 2.5 hours: \(server.requests.map(\.path))")
    }

    /// What the new-entries notification counts: a feed's new entries while its announcements are
    /// on; with them off, only those a "notify" rule matches; never an entry a rule hides.
    @Test func announcedEntriesFollowTheFeedsSettingAndTheRules() async throws {
        let document = Data("""
            <rss version="2.0"><channel><title>T</title>
            <item><title>Release 2.0</title><guid>a</guid></item>
            <item><title>Sponsored: buy now</title><guid>b</guid></item>
            <item><title>Sponsored release</title><guid>c</guid></item>
            <item><title>Weekly notes</title><guid>d</guid></item>
            </channel></rss>
            """.utf8)
        let server = try TestHTTPServer { _ in .ok(document) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let store = library.store
        _ = try await store.addFeed(url: server.url("/loud.xml"))
        let quiet = try await store.addFeed(url: server.url("/quiet.xml"))
        try await store.setSettings(FeedSettings(notifiesNewEntries: false), forFeed: quiet.id)
        _ = try await store.addRule(Rule(name: "ads", conditions: [RuleCondition(.title, .contains, "sponsored")], actions: [.hide]))
        _ = try await store.addRule(Rule(name: "releases", conditions: [RuleCondition(.title, .word, "release")], actions: [.notify]))

        let report = await library.refresh()

        #expect(report.newEntries == 8, "every entry is stored, hidden ones too")
        #expect(report.announcedEntries == 2 + 1, "loud: “Release 2.0” and “Weekly notes”; quiet: “Release 2.0” alone")
        #expect(report.announcedFeeds == 2)
    }

    @Test func theFeedsOwnUserAgentIsSent() async throws {
        let server = try TestHTTPServer { _ in .ok(rss(entries: 1)) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let feed = try await library.subscribe(to: server.url("/feed.xml").absoluteString)
        #expect(server.requests.last?.headers["user-agent"] == FeedFetcher.Configuration().userAgent)

        try await library.store.setSettings(FeedSettings(userAgent: "Mozilla/5.0 (X11; Linux x86_64) Reader"), forFeed: feed.id)
        _ = await library.refresh()
        #expect(server.requests.last?.headers["user-agent"] == "Mozilla/5.0 (X11; Linux x86_64) Reader")
    }

    @Test(arguments: [
        (FeedSettings(userAgent: "Agent\r\nX-Injected: 1"), FeedSettingsError.invalidUserAgent),
        (FeedSettings(userAgent: ""), .invalidUserAgent),
        (FeedSettings(userAgent: "Agent é"), .invalidUserAgent),
        (FeedSettings(authUser: "a:b"), .invalidUserName),
        (FeedSettings(authUser: ""), .invalidUserName),
        (FeedSettings(authUser: "a\nb"), .invalidUserName),
    ])
    func headersThatCannotBeSentAreRefused(settings: FeedSettings, error: FeedSettingsError) async throws {
        let store = try FeedStore.inMemory()
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        await #expect(throws: error) { try await store.setSettings(settings, forFeed: feed.id) }
        #expect(try await store.feed(id: feed.id)?.settings == FeedSettings())
    }

    /// The header is built for the feed's own origin only: a redirect elsewhere, even to another
    /// port of the same host, gets no password.
    @Test(arguments: [
        ("https://feeds.example/a.xml", "https://feeds.example/b.xml", true),
        ("https://feeds.example/a.xml", "https://FEEDS.example:443/b.xml", true),
        ("https://feeds.example/a.xml", "https://other.example/a.xml", false),
        ("https://feeds.example/a.xml", "http://feeds.example/a.xml", false),
        ("https://feeds.example/a.xml", "https://feeds.example:8443/a.xml", false),
        ("http://feeds.example/a.xml", "http://feeds.example/a.xml", false),
        ("http://127.0.0.1:8080/a.xml", "http://127.0.0.1:8080/b.xml", true),
        ("http://192.168.1.4/a.xml", "http://192.168.1.4/a.xml", true),
    ])
    func credentialsGoOnlyToTheFeedsOwnOriginAndNeverInClearOverAnotherNetwork(feed: String, target: String, sent: Bool) {
        let request = FeedRequest(url: URL(string: feed)!, credentials: HTTPCredentials(user: "ann", password: "s3cret"))
        #expect((request.authorization(for: URL(string: target)!) != nil) == sent)
    }

    @Test func aRequestWrittenToALogShowsNoPassword() {
        let request = FeedRequest(url: URL(string: "https://feeds.example/a.xml")!, credentials: HTTPCredentials(user: "ann", password: "s3cret"))
        let result = FetchResult(request: request, outcome: .failed(.httpStatus(401)))
        for text in [String(describing: request), String(reflecting: request), String(describing: result), String(reflecting: [result])] {
            #expect(!text.contains("s3cret"), "\(text)")
            #expect(text.contains("ann"))
        }
    }
}

/// HTTP authentication with the password in a real Secret Service (GNOME Keyring on the test
/// run's private bus), against a local server that asks for it as a real one would.
@Suite(.serialized, .enabled("no Secret Service on the session bus: run inside meson-helpers/keyring-session") { await secretServiceRuns() })
struct FeedAuthenticationTests {
    /// A server that answers 401 to any request without ann's password, and on /moved redirects
    /// to `elsewhere`, another origin.
    static func protectedServer(redirectingTo elsewhere: URL? = nil) throws -> TestHTTPServer {
        let expected = "Basic " + Data("ann:s3cret wörd".utf8).base64EncodedString()
        return try TestHTTPServer { request in
            if request.path == "/moved", let elsewhere { return .status(302, headers: [("Location", elsewhere.absoluteString)]) }
            guard request.headers["authorization"] == expected else { return .status(401, headers: [("WWW-Authenticate", "Basic realm=\"feeds\"")]) }
            return .ok(rss(entries: 2))
        }
    }

    @Test func thePasswordComesFromTheSecretServiceAndIsSentAsBasicAuthentication() async throws {
        let server = try Self.protectedServer()
        defer { server.stop() }
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = FeedLibrary(store: try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path))
        let feed = try await library.store.addFeed(url: server.url("/feed.xml"))

        let refused = await library.refresh()
        #expect(refused.failures.map(\.reason) == [ErrorReason(.httpStatus, [.status: "401"])])

        try await library.setCredentials(user: "ann", password: "s3cret wörd", forFeed: feed.id)
        #expect(try await LibsecretStore().secret(for: .feed(feed.url, user: "ann")) == "s3cret wörd")
        let report = await library.refresh()
        #expect(report.failures.isEmpty)
        #expect(report.newEntries == 2)
        #expect(try await library.store.feed(id: feed.id)?.settings.authUser == "ann")
        let bytes = try Data(contentsOf: folder.appendingPathComponent("feeds.sqlite"))
        #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "the password is not in the database")

        try await library.setCredentials(user: nil, password: "", forFeed: feed.id)
        #expect(try await LibsecretStore().secret(for: .feed(feed.url, user: "ann")) == nil, "forgotten with the user name")
    }

    @Test func aRedirectToAnotherOriginGetsNoPassword() async throws {
        let elsewhere = try TestHTTPServer { _ in .status(401) }
        defer { elsewhere.stop() }
        let server = try Self.protectedServer(redirectingTo: elsewhere.url("/feed.xml"))
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let feed = try await library.store.addFeed(url: server.url("/moved"))
        try await library.setCredentials(user: "ann", password: "s3cret wörd", forFeed: feed.id)

        _ = await library.refresh()
        #expect(server.requests.first?.headers["authorization"] != nil, "sent to the feed's own origin")
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.first?.headers["authorization"] == nil, "never to the other")
        try await library.setCredentials(user: nil, password: "", forFeed: feed.id)
    }
}
