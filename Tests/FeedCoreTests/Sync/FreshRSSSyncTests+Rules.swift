import Foundation
import TestSupport
import Testing
@testable import FeedCore

extension FreshRSSTests.FreshRSSSyncTests {
    /// Rules applied to the articles a sync brings, against the real FreshRSS through both of its
    /// APIs: what they mark read or star goes to the server through the queue, as a person's
    /// change would; what they hide stays unread there and is counted nowhere here.
    @Test(arguments: [GoogleReaderService.kind, FeverService.kind])
    func rulesMarkAndStarThroughTheQueueAndHideOnlyHere(kind: SyncServiceKind) async throws {
        try await subscribe("ruled", count: 6)
        try await store.addRule(Rule(name: "first three", conditions: [RuleCondition(.title, .matches, "^ruled-[1-3]$")],
                                     actions: [.markRead, .star]))
        try await store.addRule(Rule(name: "muted", conditions: [RuleCondition(.title, .is, "ruled-6")], actions: [.hide]))
        let account = try await engine.addAccount(kind: kind, server: server.base, user: user, password: password)

        try await engine.sync(accountID: account.id)
        let local = try await store.entries(EntryQuery(includesHidden: true, limit: 100))
        let byTitle = Dictionary(uniqueKeysWithValues: local.map { ($0.title ?? "", $0) })
        #expect((1...3).allSatisfy { byTitle["ruled-\($0)"]?.isRead == true && byTitle["ruled-\($0)"]?.isStarred == true })
        #expect(byTitle["ruled-6"]?.hiddenByRule != nil && byTitle["ruled-6"]?.isRead == false)
        #expect(try await store.entryCount(unreadOnly: true) == 2, "ruled-4 and ruled-5: the hidden one is counted nowhere")
        #expect(try await store.queuedChangeCount(accountID: account.id) == 6, "three reads and three stars")

        try await engine.sync(accountID: account.id)
        #expect(try await store.queuedChangeCount(accountID: account.id) == 0)
        #expect(try await serverTitles(stream: GoogleReaderStream.starred) == ["ruled-1", "ruled-2", "ruled-3"])
        #expect(try await serverTitles(excluding: GoogleReaderStream.read) == ["ruled-4", "ruled-5", "ruled-6"], "hiding is this reader's own")
        // The server's state, pulled again, keeps what the rules did here.
        let after = try await store.entries(EntryQuery(includesHidden: true, limit: 100))
        #expect(after.filter(\.isRead).count == 3 && after.filter(\.isStarred).count == 3)
    }
}
