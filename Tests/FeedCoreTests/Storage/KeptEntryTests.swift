import Foundation
import Testing
@testable import FeedCore

/// The entry being read stays listed in the Unread and Starred views once it is read or
/// unstarred (`EntryQuery.keeping`), and only it: every other condition still applies.
@Suite("The entry kept in the Unread view")
struct KeptEntryTests {
    let store: FeedStore

    init() throws {
        store = try FeedStore.inMemory()
    }

    /// Three entries of one feed, newest first ("Three", "Two", "One"), and "Other" of a second feed, all unread.
    private func entries() async throws -> (byTitle: [String: Int64], feed: Int64) {
        let feed = try await store.addFeed(url: URL(string: "https://kept.example/feed")!).id
        try await store.apply(fetched([Entry(id: "3", title: "Three", published: utc("2024-01-03T00:00:00Z")),
                                       Entry(id: "2", title: "Two", published: utc("2024-01-02T00:00:00Z")),
                                       Entry(id: "1", title: "One", published: utc("2024-01-01T00:00:00Z"))]), toFeed: feed)
        let other = try await store.addFeed(url: URL(string: "https://other.example/feed")!).id
        try await store.apply(fetched([Entry(id: "o", title: "Other", published: utc("2024-01-04T00:00:00Z"))]), toFeed: other)
        let all = try await store.entries(EntryQuery(limit: 100))
        return (Dictionary(uniqueKeysWithValues: all.map { ($0.title ?? "", $0.id) }), feed)
    }

    @Test func aKeptEntryStaysInItsPlaceOnceReadAndOnlyWhileItMatchesTheRest() async throws {
        let (ids, feed) = try await entries()
        let two = try #require(ids["Two"])
        try await store.markRead(entryID: two)
        try await store.setStarred(entryID: try #require(ids["Three"]))
        try await store.setStarred(entryID: two)
        try await store.setStarred(entryID: two, isStarred: false)

        let cases: [(String, EntryQuery, [String])] = [
            ("unread, nothing kept: the read entry is gone", EntryQuery(feedID: feed, unreadOnly: true), ["Three", "One"]),
            ("unread, kept: in its place", EntryQuery(feedID: feed, unreadOnly: true, keeping: two), ["Three", "Two", "One"]),
            ("all feeds, unread, kept", EntryQuery(unreadOnly: true, keeping: two), ["Other", "Three", "Two", "One"]),
            ("starred, kept once unstarred", EntryQuery(starredOnly: true, keeping: two), ["Three", "Two"]),
            ("starred, nothing kept", EntryQuery(starredOnly: true), ["Three"]),
            ("paged past it: it comes in its page, once", EntryQuery(feedID: feed, unreadOnly: true, limit: 1, offset: 1, keeping: two), ["Two"]),
        ]
        for (what, query, titles) in cases {
            #expect(try await store.entries(query).map(\.title) == titles, "\(what)")
        }
        // The other feed's view does not list it, kept or not.
        let otherFeed = try #require(try await store.entries(EntryQuery(limit: 100)).first { $0.title == "Other" }?.feedID)
        #expect(try await store.entries(EntryQuery(feedID: otherFeed, unreadOnly: true, keeping: two)).map(\.title) == ["Other"])
    }

    /// Muted (hidden by a rule), the entry being read leaves the list like any other.
    @Test func aKeptEntryHiddenByARuleLeavesTheList() async throws {
        let (ids, feed) = try await entries()
        let two = try #require(ids["Two"])
        try await store.markRead(entryID: two)
        try await store.addRule(Rule(name: "Mute", conditions: [RuleCondition(.title, .contains, "Two")], actions: [.hide]))
        _ = try await store.applyRules()

        #expect(try await store.entries(EntryQuery(feedID: feed, unreadOnly: true, keeping: two)).map(\.title) == ["Three", "One"])
        #expect(try await store.entries(EntryQuery(feedID: feed, unreadOnly: true, includesHidden: true, keeping: two)).map(\.title)
            == ["Three", "Two", "One"], "listed when hidden entries are shown")
    }
}
