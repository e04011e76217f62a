import Foundation
import GRDB
import Testing
@testable import FeedCore

/// The starred entries' index holds the starred entries only, and the Starred view's pages and
/// count still come from it, newest first, never from a scan of every entry.
@Suite struct StarredIndexTests {
    @Test func theStarredIndexHoldsOnlyTheStarredAndTheirPagesComeFromIt() async throws {
        let url = try temporaryDirectory().appendingPathComponent("feeds.sqlite")
        let store = try FeedStore(path: url.path)
        let feed = try await store.addFeed(url: URL(string: "https://feed.example/feed.xml")!)
        let newest = Date(timeIntervalSince1970: 1_795_000_000)
        let entries = (0..<2_000).map { Entry(id: "\($0)", title: "Entry \($0)", published: newest - Double($0) * 60) }
        try await store.apply(FetchResult(request: feed.request, outcome: .fetched(
            ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Feed"), entries: entries), validators: CacheValidators())), toFeed: feed.id)
        let starred = try await store.database.write { db in
            try db.execute(sql: "UPDATE entries SET isStarred = 1 WHERE CAST(entryId AS INTEGER) % 100 = 7")
            return try String.fetchAll(db, sql: "SELECT entryId FROM entries WHERE isStarred = 1 ORDER BY sortDate DESC, id DESC")
        }
        #expect(starred.count == 20)

        let (leafPages, plan) = try await store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dbstat WHERE name = 'entries_starred_by_date' AND pagetype = 'leaf'") ?? -1,
             try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT id FROM entries WHERE hiddenByRule IS NULL AND isStarred = 1
                ORDER BY sortDate DESC, id DESC LIMIT 50
                """).map { $0["detail"] as String }.joined(separator: " "))
        }
        #expect(leafPages == 1, "twenty rows, not two thousand: \(leafPages) leaf pages")
        #expect(plan.contains("entries_starred_by_date") && !plan.contains("TEMP B-TREE"), "\(plan)")

        let first = try await store.entries(EntryQuery(starredOnly: true, limit: 15))
        let second = try await store.entries(EntryQuery(starredOnly: true, limit: 15, olderThan: first.last?.cursor))
        #expect((first + second).map(\.entryID) == starred)
        #expect(try await store.entryCount(starredOnly: true) == 20)
    }
}
