@testable import FeedCore
import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import FeedReader

/// Several accounts sync side by side, and each is shown as soon as its own sync is done: a
/// server that keeps one account syncing does not hold back what another brought (red team 2,
/// case 8). A scripted service stands in for the servers, one of which answers only when the test
/// lets it: no real server can be held so.
final class AccountSyncTests: XCTestCase {
    func testEachAccountIsShownAsItsSyncEndsNotWhenTheSlowestDoes() throws {
        let folder = temporaryDirectory()
        let slowUser = "slow-" + UUID().uuidString
        let gate = HeldService.gate(for: slowUser)
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            nonisolated(unsafe) var added = false
            Task { @MainActor in
                _ = try? await store.addAccount(kind: HeldService.kind, server: URL(string: "https://quick.example/")!, user: "quick")
                _ = try? await store.addAccount(kind: HeldService.kind, server: URL(string: "https://slow.example/")!, user: slowUser)
                added = true
            }
            GtkTestEnvironment.wait(until: { added }, "the accounts added")
            let accountSync = AccountSync(engine: SyncEngine(store: store, secrets: NoSecret(), services: [HeldService.self]))
            nonisolated(unsafe) var shown = 0
            nonisolated(unsafe) var outcome: AccountSync.Outcome?
            Task { @MainActor in outcome = await accountSync.sync { shown += 1 } }

            GtkTestEnvironment.wait(until: { shown == 1 }, timeout: 20, "the quick account shown")
            XCTAssertNil(outcome, "the slow account still syncs")
            gate.open()
            GtkTestEnvironment.wait(until: { outcome != nil }, timeout: 20, "every account synced")
            XCTAssertEqual(shown, 2)
            XCTAssertEqual(outcome?.synced, 2)
        }
    }
}

/// No password is needed: the scripted service logs in to nothing.
private struct NoSecret: SecretStore {
    func save(_ secret: String, for key: SecretKey) async throws(SecretStoreError) {}
    func secret(for key: SecretKey) async throws(SecretStoreError) -> String? { "pw" }
    func remove(for key: SecretKey) async throws(SecretStoreError) {}
}

/// One feed and no articles; the account of a user with a gate answers its subscriptions only
/// once the gate is open.
private struct HeldService: SyncService {
    /// Opened by the test; waited for by the service.
    final class Gate: Sendable {
        private let isOpen = Mutex(false)

        func open() { isOpen.withLock { $0 = true } }

        func wait() async {
            while !isOpen.withLock({ $0 }), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
        }
    }

    static let kind = SyncServiceKind(rawValue: "held")
    static let capabilities = SyncCapabilities(canSubscribe: false, canUnsubscribe: false, canMoveFeeds: false,
                                               articleBatchLimit: 10, articlePageLimit: 10)
    private static let gates = Mutex<[String: Gate]>([:])

    static func gate(for user: String) -> Gate {
        let gate = Gate()
        gates.withLock { $0[user] = gate }
        return gate
    }

    let gate: Gate?

    init(credentials: SyncCredentials) {
        gate = Self.gates.withLock { $0[credentials.user] }
    }

    func logIn() async throws(SyncError) {}

    func subscriptions(known: [RemoteID: URL]) async throws(SyncError) -> RemoteSubscriptions {
        await gate?.wait()
        return RemoteSubscriptions(categories: [], feeds: [RemoteFeed(id: "1", url: URL(string: "https://held.example/feed")!, title: "Held", categoryID: nil)])
    }

    func articles(since cursor: SyncCursor?) async throws(SyncError) -> FeedCore.ArticlePage {
        FeedCore.ArticlePage(articles: [], nextCursor: "0", isLast: true)
    }

    func unreadArticleIDs() async throws(SyncError) -> Set<RemoteID> { [] }

    func starredArticleIDs() async throws(SyncError) -> Set<RemoteID> { [] }

    func send(_ change: SyncChange) async throws(SyncError) {}
}
