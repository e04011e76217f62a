import Foundation
import Testing
import GRDB
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

@Suite("Folders inside folders")
struct NestedFolderStoreTests {
    /// Tech > Linux > Kernel, and News beside Linux; one feed with `count` unread entries in each folder.
    private static func tree(in store: FeedStore) async throws -> (tech: Int64, linux: Int64, kernel: Int64, news: Int64, feeds: [Int64]) {
        let tech = try await store.createFolder(named: "Tech")
        let linux = try await store.createFolder(named: "Linux", in: tech)
        let kernel = try await store.createFolder(named: "Kernel", in: linux)
        let news = try await store.createFolder(named: "News", in: tech)
        var feeds: [Int64] = []
        for (index, (folder, count)) in [(tech, 1), (linux, 2), (kernel, 3), (news, 4)].enumerated() {
            let feed = try await store.addFeed(url: URL(string: "https://f\(index).example/feed")!)
            try await store.apply(fetched((0..<count).map { Entry(id: "\($0)", title: "E\($0)") }), toFeed: feed.id)
            try await store.moveFeed(feed.id, toFolder: folder)
            feeds.append(feed.id)
        }
        return (tech, linux, kernel, news, feeds)
    }

    private static func outline(_ store: FeedStore) async throws -> [String] {
        let folders = try await store.folders()
        let names = Dictionary(uniqueKeysWithValues: folders.map { ($0.id, $0.name) })
        return folders.map { "\($0.parentID.flatMap { names[$0] } ?? "-") > \($0.name) \($0.unreadCount)" }
    }

    @Test func countsAndEntriesRollUpFromTheFoldersBelow() async throws {
        let store = try FeedStore.inMemory()
        let tree = try await Self.tree(in: store)

        #expect(try await Self.outline(store) == ["- > Tech 10", "Tech > Linux 5", "Linux > Kernel 3", "Tech > News 4"])
        #expect(try await store.entries(EntryQuery(folderID: tree.tech)).count == 10)
        #expect(try await store.entries(EntryQuery(folderID: tree.linux)).count == 5)
        #expect(try await store.entries(EntryQuery(folderID: tree.kernel)).count == 3)
        #expect(try await store.folders().subtree(of: tree.linux) == [tree.linux, tree.kernel])
        #expect(try await store.createFolder(named: "Linux", in: tree.tech) == tree.linux, "one folder per name in a folder")
        #expect(try await store.createFolder(named: "Linux") != tree.linux, "the same name may be used in another folder")
    }

    struct Move: CustomTestStringConvertible, Sendable {
        var name: String
        /// The folder moved and where to, by name ("-" for the top of the list).
        var folder: String, into: String
        var refusal: FeedStoreError?
        var outline: [String]
        var testDescription: String { name }
    }

    static let moves: [Move] = [
        Move(name: "into a sibling", folder: "News", into: "Linux", refusal: nil,
             outline: ["- > Tech 10", "Tech > Linux 9", "Linux > Kernel 3", "Linux > News 4"]),
        Move(name: "out to the top", folder: "Kernel", into: "-", refusal: nil,
             outline: ["- > Tech 7", "Tech > Linux 2", "Tech > News 4", "- > Kernel 3"]),
        Move(name: "into itself", folder: "Linux", into: "Linux", refusal: .folderInsideItself,
             outline: ["- > Tech 10", "Tech > Linux 5", "Linux > Kernel 3", "Tech > News 4"]),
        Move(name: "into a folder below it", folder: "Tech", into: "Kernel", refusal: .folderInsideItself,
             outline: ["- > Tech 10", "Tech > Linux 5", "Linux > Kernel 3", "Tech > News 4"]),
        Move(name: "beside a folder of its name", folder: "News", into: "-", refusal: nil,
             outline: ["- > Tech 6", "Tech > Linux 5", "Linux > Kernel 3", "- > News 4"]),
    ]

    @Test(arguments: moves)
    func aFolderMovesWithAllItHoldsButNeverIntoItself(_ move: Move) async throws {
        let store = try FeedStore.inMemory()
        let tree = try await Self.tree(in: store)
        let ids = ["Tech": tree.tech, "Linux": tree.linux, "Kernel": tree.kernel, "News": tree.news]

        if let refusal = move.refusal {
            await #expect(throws: refusal) { try await store.moveFolder(ids[move.folder]!, into: ids[move.into]) }
        } else {
            try await store.moveFolder(ids[move.folder]!, into: ids[move.into])
        }

        #expect(try await Self.outline(store) == move.outline)
    }

    @Test func aFolderOfTheSameNameThereRefusesTheMove() async throws {
        let store = try FeedStore.inMemory()
        let tree = try await Self.tree(in: store)
        try await store.createFolder(named: "News")

        await #expect(throws: FeedStoreError.folderExists("News")) { try await store.moveFolder(tree.news, into: nil) }
    }

    @Test func deletingAFolderMovesWhatItHoldsUpMergingFoldersOfTheSameName() async throws {
        let store = try FeedStore.inMemory()
        let tree = try await Self.tree(in: store)
        let kernelInTech = try await store.createFolder(named: "Kernel", in: tree.tech)
        let extra = try await store.addFeed(url: URL(string: "https://extra.example/feed")!)
        try await store.moveFeed(extra.id, toFolder: kernelInTech)

        try await store.deleteFolder(tree.linux)

        #expect(try await Self.outline(store) == ["- > Tech 10", "Tech > News 4", "Tech > Kernel 3"])
        let folders = Dictionary(uniqueKeysWithValues: try await store.feeds().map { ($0.id, $0.folderID) })
        #expect(folders[tree.feeds[1]] == tree.tech, "Linux's own feed is in Tech now")
        #expect(folders[tree.feeds[2]] == kernelInTech, "Linux's Kernel merged into Tech's")
        #expect(folders[extra.id] == kernelInTech)
        #expect(try await store.feeds().count == 5, "nothing is unsubscribed")

        try await store.deleteFolder(tree.tech)

        #expect(try await Self.outline(store) == ["- > News 4", "- > Kernel 3"])
        #expect(try await store.feeds().filter { $0.folderID == nil }.map(\.id) == [tree.feeds[0], tree.feeds[1]])
    }

    @Test func aDatabaseWithFlatFoldersKeepsThemAndTheirFeeds() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v10-icons")
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO folders (id, name, position) VALUES (4, 'Tech', 0), (9, 'News', 1);
                    INSERT INTO feeds (url, position, folderId) VALUES ('https://a.example/feed', 0, 9), ('https://b.example/feed', 1, NULL);
                    """)
            }
        }

        let store = try FeedStore(path: path)

        #expect(try await Self.outline(store) == ["- > Tech 0", "- > News 0"])
        #expect(try await store.feeds().map(\.folderID) == [9, nil])
        try await store.deleteFolder(9)
        #expect(try await store.feeds().map(\.folderID) == [nil, nil], "the feeds' folders still point at the folders table")
        let nested = try await store.createFolder(named: "Inner", in: 4)
        #expect(try await store.folders().first { $0.id == nested }?.parentID == 4)
    }
}
