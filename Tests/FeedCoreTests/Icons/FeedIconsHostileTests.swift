import Foundation
import TestSupport
import Testing
@testable import FeedCore

/// Icons named by feeds and pages that are not what they should be.
@Suite("Feed icons: hostile feeds and pages", .serialized)
struct FeedIconsHostileTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("png body".utf8)

    /// A feed served by `server` whose channel names `icon` and whose site is `page` there.
    private static func iconsAndFeed(server: TestHTTPServer, icon: URL?, page: String?) async throws -> (FeedIcons, StoredFeed, URL) {
        let store = try FeedStore.inMemory()
        let stored = try await store.addFeed(url: server.url("/feed.xml"))
        let parsed = ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Feed", link: page.map(server.url), iconURL: icon), entries: [])
        try await store.apply(FetchResult(request: FeedRequest(url: stored.url), outcome: .fetched(parsed, validators: CacheValidators())),
                              toFeed: stored.id)
        let folder = TestSupport.temporaryDirectory()
        let icons = FeedIcons(directory: folder.appendingPathComponent("icons"), store: store, now: ManualClock().reader)
        return (icons, try #require(try await store.feed(id: stored.id)), folder)
    }

    @Test("a page naming 2,000 icons costs a few requests, not 2,000")
    func manyIconLinksAreCapped() async throws {
        let links = (0..<2_000).map { #"<link rel="icon" href="/icons/\#($0).png">"# }.joined()
        let server = try TestHTTPServer { request in
            request.path == "/site/" ? .ok(Data("<html><head>\(links)</head></html>".utf8)) : .status(404)
        }
        defer { server.stop() }
        let (icons, feed, folder) = try await Self.iconsAndFeed(server: server, icon: nil, page: "/site/")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await icons.update([feed]).isEmpty)
        let iconRequests = server.requests.filter { $0.path.hasPrefix("/icons/") }.count
        #expect(iconRequests == IconLinks.maxCandidates)
        #expect(server.requests.count == 1 + IconLinks.maxCandidates + 1, "the page, its first icons, /favicon.ico")
    }

    @Test("a feed from the web naming a local file as its icon does not get it read")
    func aWebFeedCannotNameALocalFile() async throws {
        let server = try TestHTTPServer { _ in .status(404) }
        defer { server.stop() }
        let local = TestSupport.temporaryDirectory().appendingPathComponent("private.png")
        try FileManager.default.createDirectory(at: local.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.png.write(to: local)
        defer { try? FileManager.default.removeItem(at: local.deletingLastPathComponent()) }
        let (icons, feed, folder) = try await Self.iconsAndFeed(server: server, icon: local, page: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await icons.update([feed]).isEmpty)
        #expect(icons.file(for: feed) == nil, "the local image was not copied in as the feed's icon")
        #expect(server.requests.map(\.path) == ["/favicon.ico"])
    }
}
