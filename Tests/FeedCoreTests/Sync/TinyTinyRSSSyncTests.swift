import Foundation
import GRDB
import Testing
import struct TestSupport.TinyTinyRSSServer
@testable import FeedCore

/// Whether a Secret Service answers on the session bus (meson-helpers/keyring-session starts one).
private func secretServiceRuns() async -> Bool {
    let key = SecretKey(kind: SyncServiceKind(rawValue: "probe"), server: URL(string: "http://probe.invalid/")!, user: "probe")
    do {
        try await LibsecretStore().save("probe", for: key)
        try await LibsecretStore().remove(for: key)
        return true
    } catch {
        return false
    }
}

/// Sync with a real Tiny Tiny RSS server (Debian 12's, started by meson-helpers/test), passwords
/// in a real Secret Service (GNOME Keyring on the test run's private bus). One test at a time:
/// one of them stops the server's web server for a while.
@Suite(.serialized, .enabled(if: TinyTinyRSSServer.shared != nil, Comment(rawValue: TinyTinyRSSServer.skipReason)),
       .enabled("no Secret Service on the session bus: run inside meson-helpers/keyring-session") {
           await secretServiceRuns()
       })
struct TinyTinyRSSSyncTests {
    let server = TinyTinyRSSServer.shared!

    /// A user with feeds on the server (as "another client" set them up), and an engine with a
    /// store of its own that added the user's account.
    struct Setup {
        let user: (name: String, password: String)
        let other: OtherClient
        let engine: SyncEngine
        let account: SyncAccount
        var store: FeedStore { engine.store }
    }

    func setUp(feeds: [(title: String, count: Int, category: String?)]) async throws -> Setup {
        let user = try await server.newUser()
        let other = try await OtherClient(server: server, user: user.name, password: user.password)
        var categories: [String: Int] = [:]
        for feed in feeds {
            var category = 0
            if let title = feed.category {
                if let known = categories[title] {
                    category = known
                } else {
                    category = try await server.newCategory(user: user.name, title: title)
                    categories[title] = category
                }
            }
            _ = try await other.subscribe(try server.writeFeed(title: feed.title, count: feed.count, dates: .fixedOldestFirst), category: category)
        }
        try await server.update()
        let store = try FeedStore(path: try temporaryDirectory().appendingPathComponent("feeds.sqlite").path)
        let engine = SyncEngine(store: store)
        let account = try await engine.addAccount(kind: TinyTinyRSSService.kind, server: server.url, user: user.name, password: user.password)
        return Setup(user: user, other: other, engine: engine, account: account)
    }

    /// The local entry id of each synced article, by the server's article id.
    func entries(_ setup: Setup) async throws -> [String: StoredEntry] {
        let all = try await setup.store.entries(EntryQuery(limit: 100_000))
        return Dictionary(uniqueKeysWithValues: all.map { ($0.entryID, $0) })
    }

    @Test func categoriesBecomeFoldersAndEveryPageOfArticlesIsStored() async throws {
        let setup = try await setUp(feeds: [("Big", 450, "News"), ("Small", 5, "Tech"), ("Loose", 3, nil)])
        let report = try await setup.engine.sync(accountID: setup.account.id)

        let folders = try await setup.store.folders(accountID: setup.account.id)
        #expect(folders.map(\.name) == ["News", "Tech"])
        let feeds = try await setup.store.feeds(accountID: setup.account.id)
        let folderNames = Dictionary(uniqueKeysWithValues: folders.map { ($0.id, $0.name) })
        #expect(Dictionary(uniqueKeysWithValues: feeds.map { ($0.title ?? "", $0.folderID.flatMap { folderNames[$0] } ?? "-") })
                == ["Big": "News", "Small": "Tech", "Loose": "-"])
        #expect(feeds.first { $0.title == "Big" }?.unreadCount == 450, "past the 200 headlines of one page")
        #expect(report.newEntries == 458)
        #expect(try await setup.store.entryCount(unreadOnly: true) == 458)
        #expect(Set(try await entries(setup).keys) == (try await setup.other.allIDs))
        #expect(try await setup.store.folders(accountID: setup.account.id).first?.unreadCount == 450)
        // The account's feeds and folders are not the reader's own subscriptions.
        #expect(try await setup.store.feeds().isEmpty)
        #expect(try await setup.store.folders().isEmpty)

        // Stored content is not asked for again: the next sync starts after the newest article.
        // Four requests, the 458 unread ids in one answer: the feed tree, the articles since the
        // newest, the unread ids, the starred ids (the engine kept its session).
        let requestsBefore = server.answeredRequests()
        let again = try await setup.engine.sync(accountID: setup.account.id)
        #expect(again.newEntries == 0 && again.changedStates == 0)
        #expect(server.answeredRequests() - requestsBefore == 4)
        #expect(try await setup.store.account(id: setup.account.id)?.cursor == (try await setup.other.allIDs).compactMap { Int($0) }.max().map(String.init))
        #expect(try await setup.store.account(id: setup.account.id)?.lastSync != nil)
    }

    @Test func readAndStarredStateGoesBothWays() async throws {
        let setup = try await setUp(feeds: [("Both ways", 10, nil)])
        try await setup.engine.sync(accountID: setup.account.id)
        let ids = try await entries(setup).keys.sorted { Int($0)! < Int($1)! }

        // Changed on the server by another client: seen here after a sync.
        try await setup.other.setRead(true, Array(ids[0..<3]))
        try await setup.other.setStarred(true, [ids[3]])
        let pulled = try await setup.engine.sync(accountID: setup.account.id)
        #expect(pulled.changedStates == 4)
        var local = try await entries(setup)
        #expect(ids[0..<3].allSatisfy { local[$0]?.isRead == true })
        #expect(ids[3...].allSatisfy { local[$0]?.isRead == false })
        #expect(local[ids[3]]?.isStarred == true)

        // Changed here: queued with the change, on the server after a sync.
        try await setup.store.markRead(entryID: local[ids[5]]!.id)
        try await setup.store.setStarred(entryID: local[ids[6]]!.id)
        try await setup.store.markRead(entryID: local[ids[0]]!.id, isRead: false)
        try await setup.store.setStarred(entryID: local[ids[3]]!.id, isStarred: false)
        #expect(try await setup.store.queuedChangeCount(accountID: setup.account.id) == 4)
        let pushed = try await setup.engine.sync(accountID: setup.account.id)
        #expect(pushed.sentChanges == 4)
        #expect(try await setup.store.queuedChangeCount() == 0)
        let unread = try await setup.other.unreadIDs
        #expect(unread.contains(ids[0]) && !unread.contains(ids[5]) && !unread.contains(ids[1]))
        #expect(try await setup.other.starredIDs == [ids[6]])
        local = try await entries(setup)
        #expect(local[ids[0]]?.isRead == false && local[ids[5]]?.isRead == true && local[ids[6]]?.isStarred == true)
        #expect(Set(local.values.filter { !$0.isRead }.map(\.entryID)) == unread)
    }

    /// Consecutive read and star changes go in one request each, and every row of the batch
    /// leaves the queue: none is sent again, so a later change on the server is not overwritten
    /// by this reader's older one (mutation audit 2, S04).
    @Test func aBatchOfChangesLeavesTheQueueWholeAndTheServersLaterChangeIsKept() async throws {
        let setup = try await setUp(feeds: [("Batches", 8, nil)])
        try await setup.engine.sync(accountID: setup.account.id)
        let ids = try await entries(setup).keys.sorted { Int($0)! < Int($1)! }
        var local = try await entries(setup)
        for id in ids[0..<3] { try await setup.store.markRead(entryID: local[id]!.id) }
        for id in ids[3..<5] { try await setup.store.setStarred(entryID: local[id]!.id) }
        #expect(try await setup.store.queuedChangeCount(accountID: setup.account.id) == 5)

        let requestsBefore = server.answeredRequests()
        let pushed = try await setup.engine.sync(accountID: setup.account.id)
        #expect(pushed.sentChanges == 5)
        #expect(try await setup.store.queuedChangeCount() == 0)
        #expect(server.answeredRequests() - requestsBefore == 4 + 2, "one updateArticle for the three read, one for the two starred")
        #expect(try await setup.other.unreadIDs.isDisjoint(with: ids[0..<3]))
        #expect(try await setup.other.starredIDs == Set(ids[3..<5]))

        // Another client marks one of them unread: the next sync shows it unread here.
        try await setup.other.setRead(false, [ids[1]])
        let pulled = try await setup.engine.sync(accountID: setup.account.id)
        #expect(pulled.sentChanges == 0)
        local = try await entries(setup)
        #expect(local[ids[1]]?.isRead == false)
        #expect(local[ids[0]]?.isRead == true && local[ids[2]]?.isRead == true)
        #expect(try await setup.other.unreadIDs.contains(ids[1]))
    }

    @Test func subscribingUnsubscribingAndMarkingAllReadActOnTheServer() async throws {
        let setup = try await setUp(feeds: [("Kept", 4, "News"), ("Dropped", 3, nil)])
        try await setup.engine.sync(accountID: setup.account.id)
        let news = try #require(try await setup.store.folders(accountID: setup.account.id).first { $0.name == "News" })

        let added = try server.writeFeed(title: "Added", count: 6, dates: .fixedOldestFirst)
        try await setup.engine.subscribe(accountID: setup.account.id, to: added, folderID: news.id)
        try await setup.engine.sync(accountID: setup.account.id)
        let onServer = try #require(try await setup.other.feeds().first { $0.url == added.absoluteString })
        let newsCategory = try #require(try await setup.other.feeds().first { $0.url.contains("feed-") && $0.category != 0 }).category
        #expect(onServer.category == newsCategory, "subscribed into the News category")
        try await server.update()
        try await setup.engine.sync(accountID: setup.account.id)
        let addedHere = try #require(try await setup.store.feeds(accountID: setup.account.id).first { $0.url == added })
        #expect(addedHere.folderID == news.id)
        #expect(addedHere.unreadCount == 6)

        let dropped = try #require(try await setup.store.feeds(accountID: setup.account.id).first { $0.title == "Dropped" })
        try await setup.engine.unsubscribe(feedID: dropped.id)
        #expect(try await setup.store.feeds(accountID: setup.account.id).contains { $0.id == dropped.id } == false)
        try await setup.engine.sync(accountID: setup.account.id)
        #expect(try await setup.other.feeds().contains { $0.url == dropped.url.absoluteString } == false)
        #expect(try await setup.store.feeds(accountID: setup.account.id).contains { $0.url == dropped.url } == false)

        // "Mark all as read" on a feed, then on a folder: catchupFeed on the server.
        let kept = try #require(try await setup.store.feeds(accountID: setup.account.id).first { $0.title == "Kept" })
        try await setup.store.markAllRead(feedID: kept.id)
        try await setup.engine.sync(accountID: setup.account.id)
        let keptUnread = try await setup.other.headlineIDs(feed: Int(try #require(try await setup.store.remoteFeed(id: kept.id)?.remoteID))!, viewMode: "unread")
        #expect(keptUnread.isEmpty)
        #expect(try await setup.other.unreadIDs.count == 6, "the Added feed is still unread")
        try await setup.store.markAllRead(accountID: setup.account.id, folderID: news.id)
        try await setup.engine.sync(accountID: setup.account.id)
        #expect(try await setup.other.unreadIDs.isEmpty)
        #expect(try await setup.store.entryCount(unreadOnly: true) == 0)
    }

    @Test func logsInAgainWhenTheServerDropsTheSession() async throws {
        let setup = try await setUp(feeds: [("Session", 3, nil)])
        try await setup.engine.sync(accountID: setup.account.id)
        // Every session gone, as after a server restart or expiry: the next call gets NOT_LOGGED_IN.
        try await server.sql("DELETE FROM ttrss_sessions")
        let other = try await OtherClient(server: server, user: setup.user.name, password: setup.user.password)
        let id = try #require(try await other.allIDs.first)
        try await other.setRead(true, [id])
        let report = try await setup.engine.sync(accountID: setup.account.id)
        #expect(report.changedStates == 1)
        #expect(try await entries(setup)[id]?.isRead == true)
        #expect(try await setup.store.account(id: setup.account.id)?.lastError == nil)
    }

    @Test func aWrongPasswordDisabledAPIOrOtherServerAddsNothing() async throws {
        let user = try await server.newUser()
        let noAPI = try await server.newUser(apiAccess: false)
        let store = try FeedStore.inMemory()
        let engine = SyncEngine(store: store)
        let kind = TinyTinyRSSService.kind
        let attempts: [(URL, String, String, ErrorCode)] = [
            (server.url, user.name, "wrong", .wrongCredentials),
            (server.url, "nobody", "wrong", .wrongCredentials),
            (server.url, noAPI.name, noAPI.password, .apiDisabled),
            (server.feedsURL, user.name, user.password, .notThisKindOfServer),
            (URL(string: "http://127.0.0.1:9/")!, user.name, user.password, .unreachable),
        ]
        for (url, name, password, expected) in attempts {
            do {
                _ = try await engine.addAccount(kind: kind, server: url, user: name, password: password)
                Issue.record("\(name) at \(url) was added")
            } catch {
                guard case let .server(serverError) = error else {
                    Issue.record("\(name) at \(url): \(error)")
                    continue
                }
                #expect(serverError.code == expected, "\(name) at \(url): \(serverError)")
            }
            #expect(try await LibsecretStore().secret(for: SecretKey(kind: kind, server: url, user: name)) == nil)
        }
        #expect(try await store.accounts().isEmpty)
    }

    @Test func thePasswordIsInTheSecretServiceAndLeavesWithTheAccount() async throws {
        let setup = try await setUp(feeds: [("Secret", 2, nil)])
        try await setup.engine.sync(accountID: setup.account.id)
        let lookup = try await TinyTinyRSSServer.runProgram("/usr/bin/secret-tool", [
            "lookup", "service", "tt-rss", "server", server.url.absoluteString, "user", setup.user.name,
        ])
        #expect(lookup == setup.user.password)
        let databaseFile = try #require(setup.store.database.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: databaseFile))
        #expect(bytes.range(of: Data(setup.user.password.utf8)) == nil, "the password is not in the database")

        try await setup.engine.removeAccount(id: setup.account.id)
        #expect(try await setup.store.accounts().isEmpty)
        #expect(try await setup.store.entryCount() == 0)
        #expect(try await setup.store.queuedChangeCount() == 0)
        #expect(try await LibsecretStore().secret(for: setup.account.secretKey) == nil)
        #expect(try await setup.other.allIDs.count == 2, "nothing changes on the server")
    }

    @Test func aServerStoppedInTheMiddleOfASyncLeavesNothingHalfStored() async throws {
        let setup = try await setUp(feeds: [("Large", 2_000, nil)])
        let engine = setup.engine
        let accountID = setup.account.id
        let sync = Task { try await engine.sync(accountID: accountID) }
        // Killed once a first page of articles is stored: the page after it fails. (Stored pages
        // are watched rather than the server's log, which grows by several lines a request.)
        while try await setup.store.entryCount() < 200 {
            try await Task.sleep(for: .milliseconds(1))
        }
        try server.killWebServer()
        let result = await sync.result
        try await server.run("stop-web")
        try await server.run("start-web")
        guard case let .failure(failure) = result, case let .server(error) = failure as? SyncFailure else {
            Issue.record("the sync went through before the server stopped: \(result)")
            return
        }
        #expect(error.code == .unreachable)
        let stored = try await setup.store.entryCount()
        #expect(stored % 200 == 0 && stored > 0 && stored < 2_000, "whole pages only: \(stored)")
        let account = try #require(try await setup.store.account(id: accountID))
        #expect(account.lastError?.code == .unreachable)
        #expect(account.cursor == nil, "the cursor moves on only once every page is stored")

        let report = try await engine.sync(accountID: accountID)
        #expect(report.newEntries == 2_000 - stored)
        #expect(try await setup.store.entryCount() == 2_000)
        #expect(try await setup.store.entryCount(unreadOnly: true) == 2_000)
        #expect(try await setup.store.account(id: accountID)?.lastError == nil)
    }
}
