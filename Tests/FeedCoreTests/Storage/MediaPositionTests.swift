import Foundation
import Testing
@testable import FeedCore

@Suite("Playback positions")
struct MediaPositionTests {
    let episode = URL(string: "https://pod.example/42.mp3")!
    let trailer = URL(string: "https://pod.example/42-trailer.mp4")!

    private func storeWithEntry(_ store: FeedStore) async throws -> Int64 {
        let feed = try await store.addFeed(url: URL(string: "https://pod.example/feed")!)
        try await store.apply(fetched([Entry(id: "42", enclosures: [Enclosure(url: episode, type: "audio/mpeg")])]), toFeed: feed.id)
        return try #require(try await store.entries().first).id
    }

    @Test func positionIsKeptPerEntryAndFileAndReplaced() async throws {
        let store = try FeedStore.inMemory()
        let entryID = try await storeWithEntry(store)
        #expect(try await store.playbackPosition(entryID: entryID, url: episode) == nil)
        try await store.savePlaybackPosition(12.5, entryID: entryID, url: episode)
        try await store.savePlaybackPosition(3, entryID: entryID, url: trailer)
        try await store.savePlaybackPosition(61.25, entryID: entryID, url: episode)
        #expect(try await store.playbackPosition(entryID: entryID, url: episode) == 61.25)
        #expect(try await store.playbackPosition(entryID: entryID, url: trailer) == 3)
        try await store.savePlaybackPosition(nil, entryID: entryID, url: episode)
        #expect(try await store.playbackPosition(entryID: entryID, url: episode) == nil)
    }

    @Test func positionSurvivesReopeningTheDatabase() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        let entryID: Int64
        do {
            let store = try FeedStore(path: path)
            entryID = try await storeWithEntry(store)
            try await store.savePlaybackPosition(1800, entryID: entryID, url: episode)
        }
        #expect(try await FeedStore(path: path).playbackPosition(entryID: entryID, url: episode) == 1800)
    }

    @Test func positionGoesWithItsEntry() async throws {
        let store = try FeedStore.inMemory()
        let entryID = try await storeWithEntry(store)
        try await store.savePlaybackPosition(40, entryID: entryID, url: episode)
        let feedID = try #require(try await store.feeds().first).id
        try await store.removeFeed(id: feedID)
        try await store.savePlaybackPosition(41, entryID: entryID, url: episode)
        #expect(try await store.playbackPosition(entryID: entryID, url: episode) == nil)
    }
}
