import Foundation
import Testing
@testable import FeedCore

/// Rules applied to the articles a sync brings, against the real tt-rss server: what they mark
/// read or star goes to the server through the queue, as a person's change would; what they hide
/// stays unread there and is counted nowhere here.
extension TinyTinyRSSSyncTests {
    @Test func rulesMarkAndStarThroughTheQueueAndHideOnlyHere() async throws {
        let setup = try await setUp(feeds: [("Ruled", 6, nil)])
        try await setup.store.addRule(Rule(name: "first three", conditions: [RuleCondition(.title, .matches, "item [0-2]$")],
                                           actions: [.markRead, .star]))
        try await setup.store.addRule(Rule(name: "muted", conditions: [RuleCondition(.title, .word, "item 5")], actions: [.hide]))

        try await setup.engine.sync(accountID: setup.account.id)
        let local = try await setup.store.entries(EntryQuery(includesHidden: true, limit: 100))
        let byTitle = Dictionary(uniqueKeysWithValues: local.map { ($0.title ?? "", $0) })
        #expect((0...2).allSatisfy { byTitle["Ruled item \($0)"]?.isRead == true && byTitle["Ruled item \($0)"]?.isStarred == true })
        #expect(byTitle["Ruled item 5"]?.hiddenByRule != nil && byTitle["Ruled item 5"]?.isRead == false)
        #expect(try await setup.store.entryCount(unreadOnly: true) == 2, "items 3 and 4: the hidden one is counted nowhere")
        #expect(try await setup.store.queuedChangeCount(accountID: setup.account.id) == 6, "three reads and three stars")

        try await setup.engine.sync(accountID: setup.account.id)
        #expect(try await setup.store.queuedChangeCount(accountID: setup.account.id) == 0)
        let ruled = Set((0...2).compactMap { byTitle["Ruled item \($0)"]?.entryID })
        #expect(try await setup.other.starredIDs == ruled)
        let unread = try await setup.other.unreadIDs
        #expect(unread.isDisjoint(with: ruled))
        #expect(unread.contains(try #require(byTitle["Ruled item 5"]?.entryID)), "hiding is this reader's own")
        // The server's state, pulled again, keeps what the rules did here.
        let after = try await setup.store.entries(EntryQuery(includesHidden: true, limit: 100))
        #expect(after.filter(\.isRead).count == 3 && after.filter(\.isStarred).count == 3)
    }
}
