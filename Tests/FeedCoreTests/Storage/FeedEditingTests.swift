import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Renaming a feed and changing its address")
struct FeedEditingTests {
    @Test("a chosen title is kept over the feed's own through refreshes and exports, until it is cleared")
    func renamedFeedKeepsItsTitle() async throws {
        let server = try TestHTTPServer { _ in .ok(rss(entries: 2, title: "Site's own title")) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let feed = try await library.subscribe(to: server.url("/feed.xml").absoluteString)

        try await library.store.renameFeed(feed.id, to: "My reading")
        _ = await library.refresh(feedIDs: [feed.id])

        #expect(try await library.store.feed(id: feed.id)?.title == "My reading")
        let exported = String(decoding: try await library.exportSubscriptions(), as: UTF8.self)
        #expect(exported.contains("My reading"))
        #expect(!exported.contains("Site's own title"))

        try await library.store.renameFeed(feed.id, to: nil)
        #expect(try await library.store.feed(id: feed.id)?.title == "My reading", "kept until the next fetch")
        _ = await library.refresh(feedIDs: [feed.id])
        #expect(try await library.store.feed(id: feed.id)?.title == "Site's own title")
    }

    @Test("a new address keeps the feed's entries, title and place, and the next refresh fetches from it, unconditionally")
    func changedAddressIsFetchedNext() async throws {
        let old = try TestHTTPServer { _ in .ok(rss(entries: 2), headers: [("ETag", "\"old\"")]) }
        defer { old.stop() }
        let new = try TestHTTPServer { _ in .ok(rss(entries: 3)) }
        defer { new.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let feed = try await library.subscribe(to: old.url("/feed.xml").absoluteString)
        let other = try await library.store.addFeed(url: URL(string: "https://other.example/feed.xml")!)

        try await library.store.changeAddress(ofFeed: feed.id, to: new.url("/moved.xml"))
        #expect(try await library.store.entryCount() == 2, "the entries stay")
        _ = await library.refresh(feedIDs: [feed.id])

        let moved = try #require(try await library.store.feed(id: feed.id))
        #expect(moved.url == new.url("/moved.xml"))
        #expect(moved.position == feed.position)
        #expect(new.requests.map(\.path) == ["/moved.xml"])
        #expect(new.requests.first?.headers["if-none-match"] == nil, "the old address's validators are not sent to the new one")
        #expect(try await library.store.entryCount() == 3)

        await #expect(throws: FeedStoreError.alreadySubscribed(other.url)) {
            try await library.store.changeAddress(ofFeed: feed.id, to: other.url)
        }
        await #expect(throws: FeedStoreError.feedNotFound(id: 999)) {
            try await library.store.changeAddress(ofFeed: 999, to: URL(string: "https://nowhere.example/")!)
        }
    }
}
