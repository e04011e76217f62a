import Foundation
import Testing
import TestSupport
@testable import FeedCore

/// A sync server that redirects elsewhere, or asks to wait: faults of a hostile or moved server,
/// so a small server on 127.0.0.1 plays it (red team 2, cases 1 to 4 and 20). What reaches the
/// other address is recorded: the password and the session must never leave for it.
@Suite("Sync servers that redirect or ask to wait")
struct SyncRedirectTests {
    static let kinds = [TinyTinyRSSService.kind, GoogleReaderService.kind, FeverService.kind]

    /// Another server, as a working tt-rss would answer; it must receive nothing.
    static func elsewhere() throws -> TestHTTPServer {
        try TestHTTPServer { _ in
            TestHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")],
                                    body: Data(#"{"seq":0,"status":0,"content":{"session_id":"stolen","api_level":15}}"#.utf8))
        }
    }

    @Test(arguments: kinds, [307, 302, 301])
    func addingAnAccountWhoseServerRedirectsElsewhereSendsItNothing(kind: SyncServiceKind, status: Int) async throws {
        let other = try Self.elsewhere()
        defer { other.stop() }
        let target = other.url("/api/")
        let server = try TestHTTPServer { _ in .status(status, headers: [("Location", target.absoluteString)]) }
        defer { server.stop() }
        let store = try FeedStore.inMemory()
        let engine = SyncEngine(store: store, secrets: KnownSecret(password: "pw"))

        await #expect {
            _ = try await engine.addAccount(kind: kind, server: server.url("/"), user: "ann", password: "secret")
        } throws: { error in
            guard case let SyncFailure.server(serverError) = error else { return false }
            return serverError.code == .moved && serverError.movedTo == target.absoluteString
        }
        #expect(other.requests.isEmpty)
        #expect(try await store.accounts().isEmpty)
        #expect(!server.requests.isEmpty)
    }

    /// An added tt-rss account whose server starts redirecting: the sync fails saying where to,
    /// and neither the password nor the session reaches the other address.
    @Test(arguments: ["http", "file"])
    func aTTRSSSyncNeverFollowsARedirectAway(scheme: String) async throws {
        let other = try Self.elsewhere()
        defer { other.stop() }
        let target = scheme == "file" ? "file:///etc/passwd" : other.url("/api/").absoluteString
        let server = try TestHTTPServer { _ in .status(307, headers: [("Location", target)]) }
        defer { server.stop() }
        let store = try FeedStore.inMemory()
        let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: server.url("/"), user: "ann")
        let engine = SyncEngine(store: store, secrets: KnownSecret(password: "pw"))

        await #expect(throws: SyncFailure.server(.moved(to: target))) { try await engine.sync(accountID: account.id) }

        #expect(other.requests.isEmpty)
        #expect(server.requests.count == 1)
        #expect(try await store.account(id: account.id)?.lastError?.movedTo == target)
    }

    /// Within the server, a redirect is followed: a tt-rss moved to another path on the same host.
    @Test func aTTRSSRedirectWithinTheServerIsFollowed() async throws {
        let server = try TestHTTPServer { request in
            guard request.path.hasPrefix("/new/") else { return .status(308, headers: [("Location", "/new/api/")]) }
            return TestHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")],
                                           body: Data(#"{"seq":0,"status":0,"content":{"session_id":"s1","api_level":15}}"#.utf8))
        }
        defer { server.stop() }
        let engine = SyncEngine(store: try FeedStore.inMemory(), secrets: KnownSecret(password: "pw"))

        _ = try await engine.addAccount(kind: TinyTinyRSSService.kind, server: server.url("/old/"), user: "ann", password: "secret")

        #expect(server.requests.map(\.path) == ["/old/api/", "/new/api/"])
    }

    @Test(arguments: [
        ("https://a.example/api/", "https://a.example/tt-rss/api/", true),
        ("https://a.example/api/", "https://A.EXAMPLE:443/api/", true),
        ("https://a.example/api/", "http://a.example/api/", false),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8081/", false),
        ("http://127.0.0.1:8080/", "http://127.0.0.2:8080/", false),
        ("http://127.0.0.1/", "file:///etc/passwd", false),
    ])
    func aRedirectKeepsTheOriginOnlyWithTheSameSchemeHostAndPort(from: String, to: String, keeps: Bool) throws {
        #expect(Redirect.keepsOrigin(try #require(URL(string: to)), of: try #require(URL(string: from))) == keeps)
    }

    /// 429 with Retry-After: an error of its own with the time to try again, and no request to the
    /// server before that time, however often the sync is asked for.
    @Test(arguments: kinds)
    func aServerAskingToWaitIsNotAskedAgainBeforeItsTime(kind: SyncServiceKind) async throws {
        let server = try TestHTTPServer { _ in .status(429, headers: [("Retry-After", "3600")]) }
        defer { server.stop() }
        let store = try FeedStore.inMemory()
        let engine = SyncEngine(store: store, secrets: KnownSecret(password: "pw"))
        let asked = Date()

        await #expect {
            _ = try await engine.addAccount(kind: kind, server: server.url("/"), user: "ann", password: "secret")
        } throws: { error in
            guard case let SyncFailure.server(serverError) = error, let retryAfter = serverError.retryAfter else { return false }
            return serverError.code == .rateLimited && abs(retryAfter.timeIntervalSince(asked + 3600)) < 60
        }

        let account = try await store.addAccount(kind: kind, server: server.url("/"), user: "ann")
        var requests = server.requests.count
        for attempt in 0..<3 {
            await #expect {
                try await engine.sync(accountID: account.id)
            } throws: { error in
                guard case let SyncFailure.server(serverError) = error else { return false }
                return serverError.code == .rateLimited
            }
            #expect(attempt == 0 ? server.requests.count > requests : server.requests.count == requests, "sync \(attempt + 1)")
            requests = server.requests.count
        }
        let retryAfter = try #require(try await store.account(id: account.id)?.lastError?.retryAfter)
        #expect(abs(retryAfter.timeIntervalSince(asked + 3600)) < 60)
    }

    /// A Retry-After of years is taken for a day at most: a server cannot stop an account for good.
    @Test func aWaitOfYearsIsADayAtMost() {
        let now = Date()
        let error = SyncError.rateLimited(until: now + 10 * 365 * 86_400, now: now)
        #expect(error.retryAfter.map { abs($0.timeIntervalSince(now + 86_400)) < 1 } == true)
    }
}
