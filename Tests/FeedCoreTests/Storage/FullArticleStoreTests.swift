import Foundation
import Testing
@testable import FeedCore

/// Full articles kept with their entries, found by search, and the per-feed choice to always show them.
@Suite("Storing full articles")
struct FullArticleStoreTests {
    let store: FeedStore

    init() throws {
        store = try FeedStore.inMemory()
    }

    /// A feed with one entry that carries only a teaser; returns the feed's and the entry's ids.
    private func teaserEntry() async throws -> (feedID: Int64, entryID: Int64) {
        let feed = try await store.addFeed(url: URL(string: "https://garden.example/feed")!)
        try await store.apply(fetched([Entry(id: "e1", title: "Winter beds", link: URL(string: "https://garden.example/winter"),
                                             summary: "How we cover the beds…")]), toFeed: feed.id)
        let entry = try #require(try await store.entries(EntryQuery(feedID: feed.id)).first)
        return (feed.id, entry.id)
    }

    private let article = FullArticle(title: "Winter beds", html: "<p>We cover the beds with <b>cardboard</b> and straw.</p>",
                                      pageURL: URL(string: "https://garden.example/winter")!, extractedAt: utc("2026-11-20T10:00:00Z"))

    @Test func theArticleIsKeptWithItsEntry() async throws {
        let (_, entryID) = try await teaserEntry()
        #expect(try await store.fullArticle(forEntry: entryID) == nil)

        try await store.saveFullArticle(article, forEntry: entryID)

        #expect(try await store.fullArticle(forEntry: entryID) == article)
    }

    @Test func itsWordsAreFoundBySearchAndReplacedWithIt() async throws {
        let (_, entryID) = try await teaserEntry()
        #expect(try await store.search("cardboard").isEmpty, "only the article holds the word")

        try await store.saveFullArticle(article, forEntry: entryID)
        #expect(try await store.search("cardboard").map(\.id) == [entryID])
        #expect(try await store.search("cover").map(\.id) == [entryID], "the feed's own text is still found")

        var newer = article
        newer.html = "<p>Now with leaves.</p>"
        try await store.saveFullArticle(newer, forEntry: entryID)
        #expect(try await store.search("cardboard").isEmpty)
        #expect(try await store.search("leaves").map(\.id) == [entryID])
    }

    @Test func aRefreshChangingTheEntryKeepsTheArticleSearchable() async throws {
        let (feedID, entryID) = try await teaserEntry()
        try await store.saveFullArticle(article, forEntry: entryID)

        try await store.apply(fetched([Entry(id: "e1", title: "Winter beds, revised", link: URL(string: "https://garden.example/winter"),
                                             summary: "How we cover the beds, revised")]), toFeed: feedID)

        #expect(try await store.search("cardboard").map(\.id) == [entryID])
        #expect(try await store.search("revised").map(\.id) == [entryID])
    }

    @Test func theArticleGoesWithItsFeed() async throws {
        let (feedID, entryID) = try await teaserEntry()
        try await store.saveFullArticle(article, forEntry: entryID)

        try await store.removeFeed(id: feedID)

        #expect(try await store.fullArticle(forEntry: entryID) == nil)
        #expect(try await store.search("cardboard").isEmpty)
        await #expect(throws: FeedStoreError.entryNotFound(id: entryID)) { try await store.saveFullArticle(article, forEntry: entryID) }
    }

    @Test func alwaysShowingTheFullArticleIsOffUntilSetAndKept() async throws {
        let (feedID, _) = try await teaserEntry()
        #expect(try await store.feed(id: feedID)?.alwaysShowsFullArticle == false)

        try await store.setAlwaysShowsFullArticle(true, forFeed: feedID)
        #expect(try await store.feed(id: feedID)?.alwaysShowsFullArticle == true)
        #expect(try await store.feeds().first { $0.id == feedID }?.alwaysShowsFullArticle == true)

        try await store.setAlwaysShowsFullArticle(false, forFeed: feedID)
        #expect(try await store.feed(id: feedID)?.alwaysShowsFullArticle == false)
        await #expect(throws: FeedStoreError.feedNotFound(id: 999)) { try await store.setAlwaysShowsFullArticle(true, forFeed: 999) }
    }
}
