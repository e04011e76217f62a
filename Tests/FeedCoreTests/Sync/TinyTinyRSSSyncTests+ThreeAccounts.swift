import Foundation
import Testing
import TestSupport
@testable import FeedCore

/// Three accounts of one library at once, on the two real servers: tt-rss, and FreshRSS through
/// both the Google Reader API and Fever. In the serialized tt-rss suite: another of its tests
/// stops tt-rss's web server for a while.
extension TinyTinyRSSSyncTests {
    @Test func threeAccountsSyncInParallelAndRemovingOneLeavesTheOthersAlone() async throws {
        let freshRSS: FreshRSSServer
        do {
            freshRSS = try await FreshRSSServer.shared()
        } catch let unavailable as FreshRSSServer.Unavailable {
            try Test.cancel("FreshRSS is not available, so this test was skipped: \(unavailable)")
        }
        let ttrss = try await setUp(feeds: [("Tiny", 5, "News")])
        let freshUser = "three" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let freshPassword = "api-pass-three"
        try await freshRSS.addUser(freshUser, password: freshPassword)
        let feed = try freshRSS.writeFeed("\(freshUser)/fresh.xml", FreshRSSServer.rss("Fresh", items: ["fresh-3", "fresh-2", "fresh-1"]))
        _ = try await GoogleReaderClient(endpoint: freshRSS.greaderEndpoint, user: freshUser, password: freshPassword)
            .subscribe(to: feed, folder: "Tech")

        let engine = ttrss.engine
        let greader = try await engine.addAccount(kind: GoogleReaderService.kind, server: freshRSS.greaderEndpoint,
                                                  user: freshUser, password: freshPassword)
        let fever = try await engine.addAccount(kind: FeverService.kind, server: freshRSS.feverEndpoint,
                                                user: freshUser, password: freshPassword)
        let accounts = [ttrss.account.id, greader.id, fever.id]

        try await withThrowingTaskGroup(of: SyncReport.self) { group in
            for id in accounts {
                group.addTask { try await engine.sync(accountID: id) }
            }
            var stored = 0
            for try await report in group { stored += report.newEntries }
            #expect(stored == 5 + 3 + 3)
        }
        let store = ttrss.store
        for (id, folder, count) in [(ttrss.account.id, "News", 5), (greader.id, "Tech", 3), (fever.id, "Tech", 3)] {
            // FreshRSS's Fever lists its empty Uncategorized group too.
            #expect(try await store.folders(accountID: id).map(\.name).contains(folder))
            #expect(try await store.feeds(accountID: id).map(\.unreadCount) == [count])
        }

        // A change queued in each account, then the Google Reader account removed.
        let entries = try await store.entries(EntryQuery(limit: 100))
        for title in ["Tiny item 0", "fresh-1"] {
            for entry in entries where entry.title == title {
                try await store.markRead(entryID: entry.id)
            }
        }
        let queued = [try await store.queuedChangeCount(accountID: ttrss.account.id), try await store.queuedChangeCount(accountID: fever.id)]
        #expect(queued == [1, 1])
        try await engine.removeAccount(id: greader.id)

        #expect(Set(try await store.accounts().map(\.id)) == [ttrss.account.id, fever.id])
        #expect(try await store.feeds(accountID: greader.id).isEmpty)
        #expect(try await LibsecretStore().secret(for: greader.secretKey) == nil)
        #expect(try await store.feeds(accountID: ttrss.account.id).map(\.unreadCount) == [4])
        #expect(try await store.feeds(accountID: fever.id).map(\.unreadCount) == [2])
        #expect(try await store.entryCount() == 5 + 3)
        #expect([try await store.queuedChangeCount(accountID: ttrss.account.id), try await store.queuedChangeCount(accountID: fever.id)]
                == queued)
        #expect(try await LibsecretStore().secret(for: ttrss.account.secretKey) == ttrss.user.password)
        #expect(try await LibsecretStore().secret(for: fever.secretKey) == freshPassword)

        // The two left still sync, and their queued changes reach their servers.
        try await engine.sync(accountID: ttrss.account.id)
        try await engine.sync(accountID: fever.id)
        #expect(try await store.queuedChangeCount() == 0)
        #expect(try await ttrss.other.unreadIDs.count == 4)
        try await engine.removeAccount(id: ttrss.account.id)
        try await engine.removeAccount(id: fever.id)
    }
}
