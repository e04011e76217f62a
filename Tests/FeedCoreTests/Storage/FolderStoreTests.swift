import Foundation
import Testing
@testable import FeedCore

@Suite("Folders in the store")
struct FolderStoreTests {
    @Test func aFolderListsAndCountsItsFeedsEntriesAndLosingItKeepsThem() async throws {
        let store = try FeedStore.inMemory()
        var ids: [Int64] = []
        for (index, count) in [3, 2, 4].enumerated() {
            let feed = try await store.addFeed(url: URL(string: "https://f\(index).example/feed")!)
            try await store.apply(fetched((0..<count).map { Entry(id: "\($0)", title: "E\($0)") }), toFeed: feed.id)
            ids.append(feed.id)
        }
        let news = try await store.createFolder(named: "News")
        #expect(try await store.createFolder(named: "News") == news, "one folder per name")
        let other = try await store.createFolder(named: "Other")
        try await store.moveFeed(ids[0], toFolder: news)
        try await store.moveFeed(ids[2], toFolder: news)
        try await store.markRead(entryID: try #require(try await store.entries(EntryQuery(feedID: ids[0])).first).id)

        #expect(try await store.folders().map { "\($0.name) \($0.unreadCount)" } == ["News 6", "Other 0"])
        #expect(try await store.entries(EntryQuery(folderID: news)).count == 7)
        #expect(try await store.entries(EntryQuery(folderID: news, unreadOnly: true)).count == 6)
        await #expect(throws: FeedStoreError.folderExists("News")) { try await store.renameFolder(other, to: "News") }

        try await store.deleteFolder(news)

        #expect(try await store.folders().map(\.name) == ["Other"])
        #expect(try await store.feeds().map(\.folderID) == [nil, nil, nil])
        #expect(try await store.entryCount() == 9)
    }
}
