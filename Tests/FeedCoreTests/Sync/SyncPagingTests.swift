import Foundation
import GRDB
import Synchronization
import Testing
@testable import FeedCore
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// The engine fetches the next page of articles while it stores one. A scripted service stands
/// in for the server here: no real server can be made to fail a page at the moment our own
/// storing of the page before it is under way (the sync suites run the same engine against the
/// real tt-rss and FreshRSS).
@Suite("Sync fetching one page ahead")
struct SyncPagingTests {
    struct Setup {
        let store: FeedStore
        let account: SyncAccount
        let engine: SyncEngine
        let script: ScriptedPages
        let path: String
    }

    func setUp(pages: Int, failing: Int? = nil, locking lock: ((String) throws -> WriteLock)? = nil) async throws -> Setup {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        let store = try FeedStore(path: path)
        let user = UUID().uuidString
        let script = ScriptedPages(pageCount: pages, failing: failing, store: store, lock: try lock?(path))
        ScriptedPagesService.scripts.withLock { $0[user] = script }
        let account = try await store.addAccount(kind: ScriptedPagesService.kind, server: URL(string: "https://pages.example/")!, user: user)
        let engine = SyncEngine(store: store, secrets: KnownSecret(password: "pw"), services: [ScriptedPagesService.self])
        return Setup(store: store, account: account, engine: engine, script: script, path: path)
    }

    @Test func aPageFailingWhileTheOneBeforeItIsStoredLeavesThatPageWholeAndTheNextSyncCompletes() async throws {
        // Another program takes the database's write lock as page 0 is asked for, so page 0
        // waits to be stored.
        let setup = try await setUp(pages: 3, failing: 1, locking: WriteLock.init(path:))
        let sync = Task { try await setup.engine.sync(accountID: setup.account.id) }
        let ended = Task {
            _ = await sync.result
            setup.script.finish()
        }
        var failedAhead = false
        for await event in setup.script.events where event == .failed(1) {
            failedAhead = true
            break
        }
        #expect(failedAhead, "page 1 was not asked for while page 0 waited to be stored")
        #expect(try await setup.store.entryCount() == 0, "page 0 is still waiting")
        setup.script.lock?.release()
        await ended.value

        guard case let .failure(failure) = await sync.result, case let .server(error) = failure as? SyncFailure else {
            Issue.record("the sync did not fail with the server's error: \(await sync.result)")
            return
        }
        #expect(error.code == .unreachable)
        #expect(try await setup.store.entryCount() == ScriptedPages.pageSize, "page 0 is stored whole, nothing of the pages after it")
        let account = try #require(try await setup.store.account(id: setup.account.id))
        #expect(account.cursor == nil, "the cursor moves on only once every page is stored")
        #expect(account.lastError?.code == .unreachable)

        setup.script.failing.withLock { $0 = nil }
        let report = try await setup.engine.sync(accountID: setup.account.id)
        #expect(report.newEntries == 2 * ScriptedPages.pageSize)
        #expect(try await setup.store.entryCount() == 3 * ScriptedPages.pageSize)
        #expect(try await setup.store.account(id: setup.account.id)?.cursor == "3")
    }

    @Test func noPageIsAskedForBeforeThePageTwoBeforeItIsStored() async throws {
        let setup = try await setUp(pages: 6)
        let report = try await setup.engine.sync(accountID: setup.account.id)
        #expect(report.newEntries == 6 * ScriptedPages.pageSize)
        let storedWhenAsked = setup.script.storedWhenAsked.withLock { $0 }
        #expect(storedWhenAsked.count == 6)
        for (page, stored) in storedWhenAsked.enumerated() {
            #expect(stored >= max(0, page - 1) * ScriptedPages.pageSize, "page \(page) asked for with \(stored) articles stored")
        }
    }
}

/// Another connection's write lock on a database, held from `take()` to `release()`: a plain
/// SQLite connection, as GRDB ends every access's transaction. `take()` waits for a write under
/// way (the engine stores the subscriptions while page 0 is asked for) as the store itself
/// would, rather than failing at once: either order leaves page 0 waiting to be stored.
final class WriteLock: Sendable {
    private let connection: Mutex<OpaquePointer?>

    init(path: String) throws {
        var opened: OpaquePointer?
        guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            defer { sqlite3_close(opened) }
            throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_errcode(opened)), message: String(cString: sqlite3_errmsg(opened)))
        }
        sqlite3_busy_timeout(opened, Int32(FeedStore.busyTimeout * 1000))
        connection = Mutex(opened)
    }

    func take() throws {
        try connection.withLock { connection in
            guard sqlite3_exec(connection, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_errcode(connection)),
                                    message: String(cString: sqlite3_errmsg(connection)))
            }
        }
    }

    func release() {
        connection.withLock { connection in _ = sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
    }

    deinit {
        connection.withLock { connection in _ = sqlite3_close(connection) }
    }
}

/// What the scripted service answers for one account, and what it saw.
final class ScriptedPages: Sendable {
    enum Event: Equatable {
        case asked(Int)
        case failed(Int)
    }

    static let pageSize = 2
    let pageCount: Int
    /// The page that fails, as an unreachable server, each time it is asked for.
    let failing: Mutex<Int?>
    /// For each page asked for, in order, how many articles were stored then.
    let storedWhenAsked = Mutex<[Int]>([])
    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let store: FeedStore
    /// Taken as page 0 is first asked for.
    let lock: WriteLock?
    private let lockTaken = Mutex(false)

    init(pageCount: Int, failing: Int?, store: FeedStore, lock: WriteLock?) {
        self.pageCount = pageCount
        self.failing = Mutex(failing)
        self.store = store
        self.lock = lock
        (events, continuation) = AsyncStream.makeStream()
    }

    func finish() {
        continuation.finish()
    }

    func page(_ number: Int) async throws(SyncError) -> ArticlePage {
        continuation.yield(.asked(number))
        let stored = (try? await store.entryCount()) ?? -1
        storedWhenAsked.withLock { $0.append(stored) }
        if number == 0, let lock, !lockTaken.withLock({ taken in defer { taken = true }; return taken }) {
            do {
                try lock.take()
            } catch {
                throw SyncError(.serverError, "the test could not take the write lock: \(error)")
            }
        }
        if failing.withLock({ $0 }) == number {
            continuation.yield(.failed(number))
            throw SyncError(.unreachable, "page \(number) scripted to fail")
        }
        let articles = (number * Self.pageSize..<(number + 1) * Self.pageSize).map { index in
            RemoteArticle(id: "\(index)", feedID: "feed", title: "Article \(index)", link: nil, author: nil,
                          published: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), updated: nil,
                          content: "<p>Text \(index)</p>", isRead: false, isStarred: false)
        }
        return ArticlePage(articles: articles, nextCursor: String(number + 1), isLast: number + 1 == pageCount)
    }
}

/// One feed whose articles come in the pages its account's `ScriptedPages` gives; the cursor is
/// the number of the next page.
struct ScriptedPagesService: SyncService {
    static let kind = SyncServiceKind(rawValue: "scripted-pages")
    static let capabilities = SyncCapabilities(canSubscribe: false, canUnsubscribe: false, canMoveFeeds: false,
                                               articleBatchLimit: 10, articlePageLimit: ScriptedPages.pageSize)
    /// Each test's script, by its account's user name.
    static let scripts = Mutex<[String: ScriptedPages]>([:])
    let script: ScriptedPages?

    init(credentials: SyncCredentials) {
        script = Self.scripts.withLock { $0[credentials.user] }
    }

    func logIn() async throws(SyncError) {}

    func subscriptions(known: [RemoteID: URL]) async throws(SyncError) -> RemoteSubscriptions {
        RemoteSubscriptions(categories: [], feeds: [RemoteFeed(id: "feed", url: URL(string: "https://pages.example/feed")!, title: "Pages", categoryID: nil)])
    }

    func articles(since cursor: SyncCursor?) async throws(SyncError) -> ArticlePage {
        guard let script else { throw SyncError(.serverError, "no script") }
        return try await script.page(cursor.flatMap { Int($0) } ?? 0)
    }

    func unreadArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        Set((0..<(script?.pageCount ?? 0) * ScriptedPages.pageSize).map(String.init))
    }

    func starredArticleIDs() async throws(SyncError) -> Set<RemoteID> { [] }

    func send(_ change: SyncChange) async throws(SyncError) {}
}
