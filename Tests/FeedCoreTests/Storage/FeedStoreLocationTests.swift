import Foundation
import GRDB
import Testing
@testable import FeedCore

@Suite("Store files and migrations")
struct FeedStoreLocationTests {
    static let allMigrations = ["v1", "v2-summary-html", "v3-starred", "v4-search", "v5-warnings", "v6-search-prefixes", "v7-folders",
                                "v8-http-cache", "v9-retention", "v10-icons", "v11-nested-folders", "v12-error-codes",
                                "v13-accounts", "v14-custom-titles", "v15-full-articles", "v16-media-positions",
                                "v17-search-index", "v18-search-backlog", "v19-rules", "v20-feed-settings",
                                "v21-warning-codes", "v22-sync-codes", "v23-labels", "v24-saved-searches", "v25-feed-fetch-settings",
                                "v26-unread-counts", "v27-starred-index", "v28-contentless-search", "v29-bulk-read-marks", "v30-unread-marks",
                                "v31-search-words-only"]

    @Test func aDatabaseFromBeforeSummaryHTMLIsMigratedWithItsEntries() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v1")
            try await old.write { db in
                try db.execute(sql: "INSERT INTO feeds (url, position) VALUES ('https://a.example/feed', 0)")
                try db.execute(sql: """
                    INSERT INTO entries (feedId, entryId, title, summary, isRead, insertedAt, sortDate)
                    VALUES (1, 'e', 'Old', 'Plain <summary>', 1, '2024-01-01 00:00:00', '2024-01-01 00:00:00')
                    """)
            }
        }

        let store = try FeedStore(path: path)

        #expect(try await store.appliedMigrations() == FeedStoreLocationTests.allMigrations)
        let entry = try #require(try await store.entries().first)
        #expect(entry.title == "Old")
        #expect(entry.isRead)
        #expect(!entry.isStarred)
        #expect(entry.summaryHTML == nil)
        #expect(entry.articleHTML() == "<p>Plain &lt;summary&gt;</p>")
        #expect(try await store.search("summary").map(\.id) == [entry.id], "entries stored before the index are found")
    }

    @Test func migratesAnEmptyFile() async throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("feeds.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))

        let store = try FeedStore(path: path)

        #expect(try await store.appliedMigrations() == FeedStoreLocationTests.allMigrations)
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        try await store.apply(fetched([Entry(id: "1", title: "Kept")]), toFeed: feed.id)
    }

    @Test func reopeningKeepsDataAndDoesNotMigrateAgain() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        do {
            let store = try FeedStore(path: path)
            let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
            try await store.apply(fetched([Entry(id: "1", title: "Kept")]), toFeed: feed.id)
        }

        let reopened = try FeedStore(path: path)

        #expect(try await reopened.appliedMigrations() == FeedStoreLocationTests.allMigrations)
        #expect(try await reopened.entries().map(\.title) == ["Kept"])
    }

    @Test(arguments: [
        (["XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/data/feed-reader/feeds.sqlite"),
        (["HOME": "/home/u"], "/home/u/.local/share/feed-reader/feeds.sqlite"),
        (["XDG_DATA_HOME": "relative/path", "HOME": "/home/u"], "/home/u/.local/share/feed-reader/feeds.sqlite"),
        (["XDG_DATA_HOME": "", "HOME": "/home/u"], "/home/u/.local/share/feed-reader/feeds.sqlite"),
    ])
    func databaseLocationFollowsXDG(environment: [String: String], expected: String) {
        #expect(FeedStore.databaseURL(environment: environment).path == expected)
    }

    @Test func appDirectoryIsAParameter() {
        #expect(FeedStore.databaseURL(appDirectory: "other-app", environment: ["HOME": "/h"]).path == "/h/.local/share/other-app/feeds.sqlite")
    }

    @Test func openingInTheDataDirectoryCreatesIt() async throws {
        let dataHome = try temporaryDirectory()
        let store = try FeedStore(appDirectory: "reader-test", environment: ["XDG_DATA_HOME": dataHome.path])
        try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        #expect(FileManager.default.fileExists(atPath: dataHome.appendingPathComponent("reader-test/feeds.sqlite").path))
    }
}
