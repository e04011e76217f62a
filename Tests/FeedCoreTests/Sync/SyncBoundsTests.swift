import Foundation
import Synchronization
import Testing
import TestSupport
@testable import FeedCore

/// A server that never stops giving, or gives the same forever, cannot make a sync endless (red
/// team 2, cases 6 to 12): the sync ends within a bounded number of requests, stores a bounded
/// number of articles, and the next one goes on from where it stopped. The hostile servers are
/// small ones on 127.0.0.1 speaking each API, as no real server misbehaves so.
@Suite("Sync bounded against endless servers")
struct SyncBoundsTests {
    /// Limits small enough for a test: the standard ones are the same checks at larger numbers.
    static let limits = SyncLimits(articles: 1_000, pagingTime: .seconds(120), syncTime: .seconds(240))

    static func json(_ text: String) -> TestHTTPServer.Response {
        TestHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")], body: Data(text.utf8))
    }

    /// A tt-rss answering `getHeadlines` with `headlines`, given the call's parameters and how
    /// many `getHeadlines` calls came before; one feed in no category, `unread` unread articles.
    static func ttRSS(unread: Int = 0, headlines: @escaping @Sendable ([String: Any], Int) -> String) throws -> (TestHTTPServer, CallCount) {
        let calls = CallCount()
        let server = try TestHTTPServer { request in
            let fields = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
            let content: String
            switch fields["op"] as? String {
            case "login":
                content = #"{"session_id":"s1","api_level":15}"#
            case "getFeedTree":
                content = #"{"categories":{"items":[{"id":"CAT:0","bare_id":0,"name":"Uncategorized","items":[{"id":"FEED:1","bare_id":1,"name":"F"}]},"#
                    + #"{"id":"CAT:-1","bare_id":-1,"items":[{"id":"FEED:-4","bare_id":-4,"unread":\#(unread)}]}]}}"#
            case "getFeeds":
                content = #"[{"id":1,"title":"F","feed_url":"http://127.0.0.1:1/f.xml","cat_id":0}]"#
            case "getHeadlines":
                content = headlines(fields, calls.next())
            default:
                content = "[]"
            }
            return json(#"{"seq":0,"status":0,"content":\#(content)}"#)
        }
        return (server, calls)
    }

    static func headlines(_ ids: some Sequence<Int>, content: Bool) -> String {
        "[" + ids.map { id in
            content ? #"{"id":\#(id),"feed_id":1,"title":"A\#(id)","unread":true,"marked":false,"updated":1700000000,"content":"<p>\#(id)</p>"}"#
                    : #"{"id":\#(id)}"#
        }.joined(separator: ",") + "]"
    }

    func engine(for server: TestHTTPServer, kind: SyncServiceKind, path: String = "/") async throws -> (SyncEngine, SyncAccount) {
        let store = try FeedStore.inMemory()
        let account = try await store.addAccount(kind: kind, server: server.url(path), user: "ann")
        return (SyncEngine(store: store, secrets: KnownSecret(password: "pw"), limits: Self.limits), account)
    }

    /// Article pages of 200 new articles each, forever: the sync stops at the article limit,
    /// keeps them, and the next sync asks for the page after them.
    @Test func endlessTTRSSPagesStopAtTheLimitAndTheNextSyncGoesOn() async throws {
        let skips = Mutex<[Int]>([])
        let (server, calls) = try Self.ttRSS { fields, call in
            guard fields["show_content"] as? Bool == true else { return "[]" }
            let skip = fields["skip"] as? Int ?? 0
            skips.withLock { $0.append(skip) }
            return Self.headlines((1_000_000 + call * 200)..<(1_000_000 + (call + 1) * 200), content: true)
        }
        defer { server.stop() }
        let (engine, account) = try await engine(for: server, kind: TinyTinyRSSService.kind)

        let report = try await engine.sync(accountID: account.id)

        #expect(report.newEntries == Self.limits.articles)
        #expect(try await engine.store.entryCount() == Self.limits.articles)
        #expect(calls.count <= Self.limits.articles / 200 + 3)
        #expect(skips.withLock { $0 } == [0, 200, 400, 600, 800])

        try await engine.sync(accountID: account.id)
        #expect(skips.withLock { $0 }.dropFirst(5).first == 1_000, "the next sync goes on after the stored pages")
        #expect(try await engine.store.entryCount() == 2 * Self.limits.articles)
    }

    /// The first sync's probe for the newest article answers a full page of newer ids every time.
    @Test func aNewestArticleProbeThatNeverEndsStops() async throws {
        let (server, calls) = try Self.ttRSS { fields, call in
            guard fields["show_content"] as? Bool == false, fields["view_mode"] as? String == "all_articles", fields["feed_id"] as? Int == -4 else {
                return "[]"
            }
            return Self.headlines((call * 200 + 1)...(call * 200 + 200), content: false)
        }
        defer { server.stop() }
        let (engine, account) = try await engine(for: server, kind: TinyTinyRSSService.kind)

        try await engine.sync(accountID: account.id)

        #expect(calls.count <= TinyTinyRSSService.newestProbePages + 5)
    }

    /// The unread id list in full pages: of new ids forever, the sync fails once it is longer than
    /// any state list is taken; of the same ids again, the list ends there.
    @Test(arguments: [true, false])
    func anEndlessUnreadListEnds(fresh: Bool) async throws {
        let unreadCalls = CallCount()
        let (server, _) = try Self.ttRSS(unread: 5_000) { fields, _ in
            guard fields["view_mode"] as? String == "unread" else { return "[]" }
            let first = fresh ? unreadCalls.next() * 200 : 0
            return Self.headlines(first..<(first + 200), content: false)
        }
        defer { server.stop() }
        let (engine, account) = try await engine(for: server, kind: TinyTinyRSSService.kind)

        if fresh {
            await #expect(throws: SyncFailure.server(SyncLimits.tooManyIDs)) { try await engine.sync(accountID: account.id) }
            #expect(unreadCalls.count <= SyncLimits.listedIDs / 200 + 1)
        } else {
            try await engine.sync(accountID: account.id)
            #expect(server.requests.filter { String(decoding: $0.body, as: UTF8.self).contains(#""view_mode":"unread""#) }.count == 2)
        }
    }

    /// Fever's `items` always answers the same 50 items, whatever `since_id` asks: the cursor does
    /// not move, and the sync ends.
    @Test func aStuckFeverCursorEndsTheSync() async throws {
        let itemCalls = Mutex(0)
        let server = try TestHTTPServer { request in
            let query = request.path.split(separator: "?").last.map(String.init) ?? ""
            let base = #""api_version":3,"auth":1"#
            switch query {
            case "api&groups": return Self.json(#"{\#(base),"groups":[],"feeds_groups":[]}"#)
            case "api&feeds": return Self.json(#"{\#(base),"feeds":[{"id":1,"title":"F","url":"http://127.0.0.1:1/f.xml"}]}"#)
            case "api&unread_item_ids": return Self.json(#"{\#(base),"unread_item_ids":""}"#)
            case "api&saved_item_ids": return Self.json(#"{\#(base),"saved_item_ids":""}"#)
            case let items where items.hasPrefix("api&items"):
                itemCalls.withLock { $0 += 1 }
                return Self.json(#"{\#(base),"items":[\#(Self.feverItems)]}"#)
            default: return Self.json("{\(base)}")
            }
        }
        defer { server.stop() }
        let (engine, account) = try await engine(for: server, kind: FeverService.kind, path: "/api/fever.php")

        try await engine.sync(accountID: account.id)
        try await engine.sync(accountID: account.id)

        #expect(itemCalls.withLock { $0 } <= 4)
        #expect(try await engine.store.entryCount() == 50)
    }

    static let feverItems = (1...50).map {
        #"{"id":\#($0),"feed_id":1,"title":"I\#($0)","html":"<p>\#($0)</p>","is_read":0,"is_saved":0,"created_on_time":1700000000}"#
    }.joined(separator: ",")

    /// Google Reader API id lists of 10,000 new ids with a continuation, forever: the state list
    /// fails once longer than any is taken, holding at most that many ids.
    @Test func anEndlessGoogleReaderIDListFails() async throws {
        let pages = Mutex(0)
        let server = try TestHTTPServer { request in
            let path = request.path.split(separator: "?").first.map(String.init) ?? ""
            switch path {
            case "/api/greader.php/accounts/ClientLogin": return .ok(Data("SID=u/1\nLSID=null\nAuth=u/1\n".utf8))
            case "/api/greader.php/reader/api/0/subscription/list": return Self.json(#"{"subscriptions":[]}"#)
            case "/api/greader.php/reader/api/0/tag/list": return Self.json(#"{"tags":[]}"#)
            case "/api/greader.php/reader/api/0/stream/items/ids":
                guard request.path.contains("xt=") else { return Self.json(#"{"itemRefs":[]}"#) }
                let page = pages.withLock { count in
                    defer { count += 1 }
                    return count
                }
                let refs = (page * 10_000..<(page + 1) * 10_000).map { #"{"id":"\#($0 + 1)"}"# }.joined(separator: ",")
                return Self.json(#"{"itemRefs":[\#(refs)],"continuation":"c\#(page)"}"#)
            default: return .status(404)
            }
        }
        defer { server.stop() }
        let (engine, account) = try await engine(for: server, kind: GoogleReaderService.kind, path: "/api/greader.php")

        await #expect(throws: SyncFailure.server(SyncLimits.tooManyIDs)) { try await engine.sync(accountID: account.id) }

        #expect(pages.withLock { $0 } <= SyncLimits.listedIDs / 10_000 + 1)
    }
}

/// A sync against a scripted service whose pages never end, or whose state list never comes: no
/// real server can be held so for a test's time limits.
@Suite("Sync time limits")
struct SyncTimeLimitTests {
    @Test func pagingStopsWhenItsTimeIsUpAndTheSyncCompletes() async throws {
        let store = try FeedStore.inMemory()
        let user = UUID().uuidString
        EndlessService.behaviour.withLock { $0[user] = .endlessPages }
        let account = try await store.addAccount(kind: EndlessService.kind, server: URL(string: "https://endless.example/")!, user: user)
        let limits = SyncLimits(articles: .max, pagingTime: .milliseconds(300), syncTime: .seconds(120))
        let engine = SyncEngine(store: store, secrets: KnownSecret(password: "pw"), services: [EndlessService.self], limits: limits)

        let report = try await engine.sync(accountID: account.id)

        #expect(report.newEntries > 0)
        let cursor = try #require(try await store.account(id: account.id)?.cursor.flatMap { Int($0) })
        #expect(cursor * EndlessService.pageSize == report.newEntries, "the next sync goes on after the last page stored")
    }

    @Test func aSyncPastItsTimeFailsAsTimedOut() async throws {
        let store = try FeedStore.inMemory()
        let user = UUID().uuidString
        EndlessService.behaviour.withLock { $0[user] = .stateNeverComes }
        let account = try await store.addAccount(kind: EndlessService.kind, server: URL(string: "https://endless.example/")!, user: user)
        // Long enough for the 100 articles to be stored first however busy the machine (every
        // suite runs at once), short enough for a test: the state never comes, so it takes this long.
        let limits = SyncLimits(articles: 100, pagingTime: .seconds(60), syncTime: .seconds(15))
        let engine = SyncEngine(store: store, secrets: KnownSecret(password: "pw"), services: [EndlessService.self], limits: limits)

        await #expect {
            try await engine.sync(accountID: account.id)
        } throws: { error in
            guard case let SyncFailure.server(serverError) = error else { return false }
            return serverError.code == .timeout
        }
        #expect(try await store.account(id: account.id)?.lastError?.code == .timeout)
        #expect(try await store.entryCount() == 100, "the pages stored before stay")
    }
}

/// A service whose pages never end, or whose unread list waits until cancelled.
struct EndlessService: SyncService {
    enum Behaviour: Sendable {
        case endlessPages, stateNeverComes
    }

    static let kind = SyncServiceKind(rawValue: "endless")
    static let pageSize = 10
    static let capabilities = SyncCapabilities(canSubscribe: false, canUnsubscribe: false, canMoveFeeds: false,
                                               articleBatchLimit: 10, articlePageLimit: pageSize)
    static let behaviour = Mutex<[String: Behaviour]>([:])
    let behaviour: Behaviour

    init(credentials: SyncCredentials) {
        behaviour = Self.behaviour.withLock { $0[credentials.user] } ?? .endlessPages
    }

    func logIn() async throws(SyncError) {}

    func subscriptions(known: [RemoteID: URL]) async throws(SyncError) -> RemoteSubscriptions {
        RemoteSubscriptions(categories: [], feeds: [RemoteFeed(id: "feed", url: URL(string: "https://endless.example/feed")!, title: "Endless", categoryID: nil)])
    }

    func articles(since cursor: SyncCursor?) async throws(SyncError) -> ArticlePage {
        let page = cursor.flatMap { Int($0) } ?? 0
        let articles = (page * Self.pageSize..<(page + 1) * Self.pageSize).map { index in
            RemoteArticle(id: "\(index)", feedID: "feed", title: "Article \(index)", link: nil, author: nil,
                          published: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), updated: nil,
                          content: "<p>\(index)</p>", isRead: false, isStarred: false)
        }
        return ArticlePage(articles: articles, nextCursor: String(page + 1), isLast: false)
    }

    func unreadArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        if behaviour == .stateNeverComes {
            // Until the sync's time is up and it is cancelled.
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
            throw SyncError(.unreachable, "cancelled")
        }
        return []
    }

    func starredArticleIDs() async throws(SyncError) -> Set<RemoteID> { [] }

    func send(_ change: SyncChange) async throws(SyncError) {}
}

/// How many calls a scripted server answered.
final class CallCount: Sendable {
    private let value = Mutex(0)

    /// The number of this call, counting from 0.
    func next() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }

    var count: Int { value.withLock { $0 } }
}
