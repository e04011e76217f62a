import Foundation
import GRDB
import Testing
@testable import FeedCore

/// Saved searches (the sidebar's smart folders): kept with their filter and scope, counted and
/// listed newest first, renamed, removed, and gone with what they were narrowed to.
@Suite("Saved searches")
struct SavedSearchTests {
    let store: FeedStore
    /// The feeds "garden" (in the folder "Outside") and "kitchen", by name.
    var feeds: [String: Int64] = [:]
    var folder: Int64 = 0

    init() async throws {
        store = try FeedStore.inMemory()
        folder = try await store.createFolder(named: "Outside")
        for (name, entries) in [
            ("garden", [Entry(id: "g1", title: "Green tomatoes", published: utc("2024-01-01T00:00:00Z")),
                        Entry(id: "g2", title: "Red tomatoes", published: utc("2024-01-03T00:00:00Z")),
                        Entry(id: "g3", title: "Beans", published: utc("2024-01-02T00:00:00Z"))]),
            ("kitchen", [Entry(id: "k1", title: "Tomato soup with tomatoes", published: utc("2024-01-04T00:00:00Z"))]),
        ] {
            let feed = try await store.addFeed(url: URL(string: "https://\(name).example/feed")!)
            try await store.apply(fetched(entries, title: name.capitalized), toFeed: feed.id)
            feeds[name] = feed.id
        }
        try await store.moveFeed(try #require(feeds["garden"]), toFolder: folder)
    }

    private func entryID(_ id: String) async throws -> Int64 {
        try #require(try await store.entries(EntryQuery(limit: 100)).first { $0.entryID == id }?.id)
    }

    private func listed(_ search: SavedSearch, unreadOnly: Bool = false) async throws -> [String] {
        try await store.entries(search.entryQuery(unreadOnly: unreadOnly)).map(\.entryID)
    }

    @Test func aSavedSearchListsItsMatchesNewestFirstAndCountsTheUnread() async throws {
        let saved = try await store.saveSearch(named: "  Tomatoes  ", query: "tomatoes")

        #expect(saved.name == "Tomatoes")
        #expect(saved.unreadCount == 3)
        #expect(try await listed(saved) == ["k1", "g2", "g1"])

        try await store.markRead(entryID: try await entryID("g2"))
        #expect(try await store.savedSearches().map(\.unreadCount) == [2], "the count follows the marks")

        let feed = try #require(feeds["kitchen"])
        try await store.apply(fetched([Entry(id: "k2", title: "More tomatoes", published: utc("2024-01-05T00:00:00Z"))], title: "Kitchen"),
                              toFeed: feed)
        #expect(try await store.savedSearches().map(\.unreadCount) == [3], "and new entries")
        #expect(try await listed(saved).first == "k2")
    }

    /// The filter and scope of the view it was saved from narrow it, the folder's subfolders included.
    static let narrowed: [(filter: SavedSearch.Filter, scope: String, listed: [String])] = [
        (filter: .all, scope: "everything", listed: ["k1", "g2", "g1"]),
        (filter: .unread, scope: "everything", listed: ["k1", "g1"]),
        (filter: .starred, scope: "everything", listed: ["g1"]),
        (filter: .all, scope: "kitchen", listed: ["k1"]),
        (filter: .all, scope: "folder", listed: ["g2", "g1"]),
        (filter: .unread, scope: "folder", listed: ["g1"]),
        (filter: .all, scope: "label", listed: ["k1", "g1"]),
        (filter: .unread, scope: "label", listed: ["k1", "g1"]),
    ]

    @Test(arguments: narrowed)
    func itsFilterAndScopeNarrowIt(filter: SavedSearch.Filter, scope: String, listed expected: [String]) async throws {
        try await store.markRead(entryID: try await entryID("g2"))
        try await store.setStarred(entryID: try await entryID("g1"), isStarred: true)
        try await store.setLabel("Soup", on: [try await entryID("k1"), try await entryID("g1"), try await entryID("g3")])
        let scope: SavedSearch.Scope = switch scope {
        case "kitchen": .feed(try #require(feeds["kitchen"]))
        case "folder": .folder(folder)
        case "label": .label(try #require(try await store.labels().first?.id))
        default: .everything
        }

        let saved = try await store.saveSearch(named: "t", query: "tomat", filter: filter, scope: scope)

        #expect(saved.filter == filter)
        #expect(saved.scope == scope)
        #expect(try await listed(saved) == expected)
        #expect(saved.unreadCount == expected.filter { $0 != "g2" }.count)
    }

    @Test func renamedRemovedAndKeptInOrder() async throws {
        let first = try await store.saveSearch(named: "First", query: "tomatoes")
        let second = try await store.saveSearch(named: "", query: "  beans ")
        #expect(second.name == "beans", "an empty name is the query")

        try await store.renameSavedSearch(id: first.id, to: "Renamed")
        try await store.renameSavedSearch(id: second.id, to: "   ")
        #expect(try await store.savedSearches().map(\.name) == ["Renamed", "beans"])

        try await store.removeSavedSearch(id: first.id)
        #expect(try await store.savedSearches().map(\.id) == [second.id])
        #expect(try await store.entries(EntryQuery(limit: 100)).count == 4, "its entries stay")
    }

    @Test func aNameIsBounded() async throws {
        let saved = try await store.saveSearch(named: String(repeating: "n", count: 1_000), query: "tomatoes")
        #expect(saved.name.count == FeedStore.savedSearchNameLimit)
    }

    @Test func itGoesWithTheFeedItLooksIn() async throws {
        let feed = try #require(feeds["kitchen"])
        _ = try await store.saveSearch(named: "Soup", query: "soup", scope: .feed(feed))
        _ = try await store.saveSearch(named: "All", query: "tomatoes")

        try await store.removeFeed(id: feed)

        #expect(try await store.savedSearches().map(\.name) == ["All"])
    }

    @Test func itGoesWithTheLabelItLooksIn() async throws {
        try await store.setLabel("Soup", on: [try await entryID("k1")])
        let label = try #require(try await store.labels().first?.id)
        _ = try await store.saveSearch(named: "Labelled soup", query: "soup", scope: .label(label))
        _ = try await store.saveSearch(named: "All", query: "tomatoes")

        try await store.deleteLabel(id: label)

        #expect(try await store.savedSearches().map(\.name) == ["All"])
    }

    @Test func markingItReadMarksOnlyWhatItLists() async throws {
        let saved = try await store.saveSearch(named: "Red", query: "red OR beans")
        let marked = try await store.markAllRead(in: saved)

        #expect(marked.isEmpty, "OR is a word, not an operator: nothing holds all three")
        let tomatoes = try await store.saveSearch(named: "Tomatoes", query: "tomatoes", scope: .folder(folder))
        #expect(Set(try await store.markAllRead(in: tomatoes)) == Set([try await entryID("g1"), try await entryID("g2")]))
        #expect(try await store.entries(EntryQuery(unreadOnly: true, limit: 100)).map(\.entryID).sorted() == ["g3", "k1"])
    }

    /// A query of only words left out, or of a feed no name holds, lists nothing and counts nothing.
    @Test(arguments: ["-tomatoes", "tomatoes feed:nowhere", "   "])
    func aQueryThatCanFindNothingListsNothing(query: String) async throws {
        let saved = try await store.saveSearch(named: "n", query: query)
        #expect(saved.unreadCount == 0)
        #expect(try await listed(saved).isEmpty)
    }

    @Test func itsMigrationIsApplied() async throws {
        #expect(try await store.appliedMigrations().contains("v24-saved-searches"))
    }
}
