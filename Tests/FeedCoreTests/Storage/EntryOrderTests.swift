import Foundation
import Testing
@testable import FeedCore

/// Where entries sort and how they page when dates are edited or shared.
@Suite("Entry order: edits and shared dates")
struct EntryOrderTests {
    let store: FeedStore

    init() throws {
        store = try FeedStore.inMemory()
    }

    @Test func anEditedEntryKeepsItsPlaceByItsPublishedDate() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let published = utc("2024-01-02T00:00:00Z")
        let older = Entry(id: "older", title: "Older", published: utc("2024-01-01T00:00:00Z"))
        var edited = Entry(id: "edited", title: "Edited", published: published, updated: published)
        let newer = Entry(id: "newer", title: "Newer", published: utc("2024-01-03T00:00:00Z"))
        try await store.apply(fetched([newer, edited, older]), toFeed: feed.id)

        // The author fixes a typo a week later: the feed says so in <updated>.
        edited.title = "Edited, typo fixed"
        edited.updated = utc("2024-01-10T00:00:00Z")
        try await store.apply(fetched([newer, edited, older]), toFeed: feed.id)

        let entries = try await store.entries()
        #expect(entries.map(\.title) == ["Newer", "Edited, typo fixed", "Older"])
        #expect(entries.first { $0.entryID == "edited" }?.sortDate == published)
    }

    @Test func pagingThroughEntriesOfOneDateShowsEachOnce() async throws {
        // An undated feed: every entry is stored at the same instant, the batch's.
        let feed = try await store.addFeed(url: URL(string: "https://undated.example/feed")!)
        let entries = (0..<120).map { Entry(id: "\($0)", title: "Entry \($0)") }
        try await store.apply(fetched(entries), toFeed: feed.id)

        var pages: [[StoredEntry]] = []
        var cursor: EntryCursor?
        repeat {
            let page = try await store.entries(EntryQuery(limit: 50, olderThan: cursor))
            pages.append(page)
            cursor = page.last?.cursor
        } while pages.last?.isEmpty == false && pages.count < 10
        #expect(pages.map(\.count) == [50, 50, 20, 0])
        let shown = pages.flatMap { $0.map(\.entryID) }
        #expect(shown.count == 120)
        #expect(Set(shown) == Set(entries.map(\.id)))
        // Undated entries keep the feed's own order, newest (first listed) first.
        #expect(shown == entries.map(\.id))
    }
}
