import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Feed icons: found, fetched once, kept on disk with validators, checked again rarely", .serialized)
struct FeedIconsTests {
    static let png = IconHeaders.png(width: 16, height: 16) + Data("png body".utf8)
    static let ico = IconHeaders.ico(width: 16, height: 16) + Data("ico body".utf8)

    @Test("icon links in a page, best first", arguments: [
        (#"<link rel="icon" href="/a.png">"#, ["https://site.example/a.png"]),
        (#"<LINK REL='shortcut icon' HREF='b.ico'>"#, ["https://site.example/blog/b.ico"]),
        (#"<link rel=apple-touch-icon href=/touch.png><link rel="icon" href="/small.png">"#,
         ["https://site.example/small.png", "https://site.example/touch.png"]),
        (#"<link rel="icon" sizes="16x16" href="/16.png"><link rel="icon" sizes="32x32 64x64" href="/64.png">"#,
         ["https://site.example/64.png", "https://site.example/16.png"]),
        (#"<link rel="icon" href="/i.png?v=1&amp;t=2"/>"#, ["https://site.example/i.png?v=1&t=2"]),
        (#"<link rel="stylesheet" href="/s.css"><link rel="icon" href="data:image/png;base64,AAAA">"#, []),
        (#"<link rel="alternate" type="application/rss+xml" href="/feed">"#, []),
    ] as [(String, [String])])
    func iconLinks(html: String, expected: [String]) {
        let page = Data("<html><head>\(html)</head><body></body></html>".utf8)
        #expect(IconLinks.find(inPage: page, url: URL(string: "https://site.example/blog/")!).map(\.absoluteString) == expected)
    }

    @Test("image formats are told from other answers by their first bytes", arguments: [
        (png, true), (ico, true), (Data("GIF89a....".utf8), true), (Data([0xFF, 0xD8, 0xFF, 0xE0]), true),
        (Data("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), true),
        (Data("<!doctype html><html>Not found</html>".utf8), false), (Data(), false),
    ] as [(Data, Bool)])
    func imageSignatures(data: Data, isImage: Bool) {
        #expect((IconImage.format(of: data) != nil) == isImage)
    }

    @Test("the feed's own icon comes first")
    func feedIconFirst() async throws {
        let server = try TestHTTPServer { request in request.path == "/logo.png" ? .ok(Self.png) : .status(404) }
        defer { server.stop() }
        let (icons, feed, _, folder) = try await Self.setUp(server: server, iconPath: "/logo.png", page: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await icons.update([feed]) == [feed.id])
        #expect(try Data(contentsOf: try #require(icons.file(for: feed))) == Self.png)
        #expect(server.requests.map(\.path) == ["/logo.png"])
    }

    @Test("without one, the page's <link rel=\"icon\">, else /favicon.ico")
    func pageThenFavicon() async throws {
        let withLink = try TestHTTPServer { request in
            switch request.path {
            case "/site/": .ok(Data(#"<html><head><link rel="icon" href="/static/fav.png"></head></html>"#.utf8))
            case "/static/fav.png": .ok(Self.png)
            default: .status(404)
            }
        }
        defer { withLink.stop() }
        let (icons, feed, _, folder) = try await Self.setUp(server: withLink, iconPath: nil, page: "/site/")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await icons.update([feed]) == [feed.id])
        #expect(try Data(contentsOf: try #require(icons.file(for: feed))) == Self.png)
        #expect(withLink.requests.map(\.path) == ["/site/", "/static/fav.png"])

        let plain = try TestHTTPServer { request in
            switch request.path {
            case "/site/": .ok(Data("<html><head><title>No icon</title></head></html>".utf8))
            case "/favicon.ico": .ok(Self.ico)
            default: .status(404)
            }
        }
        defer { plain.stop() }
        let (fallback, other, _, otherFolder) = try await Self.setUp(server: plain, iconPath: nil, page: "/site/")
        defer { try? FileManager.default.removeItem(at: otherFolder) }
        #expect(await fallback.update([other]) == [other.id])
        #expect(try Data(contentsOf: try #require(fallback.file(for: other))) == Self.ico)
    }

    @Test("an icon that would decode to gigabytes is refused, not saved, and the next place is looked at")
    func decompressionBombRefused() async throws {
        let bomb = PNGBomb.reported
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/bomb.png": .ok(bomb)
            case "/site/": .ok(Data("<html><head><title>No icon</title></head></html>".utf8))
            case "/favicon.ico": .ok(Self.ico)
            default: .status(404)
            }
        }
        defer { server.stop() }
        let (icons, feed, _, folder) = try await Self.setUp(server: server, iconPath: "/bomb.png", page: "/site/")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(bomb.count < FeedIcons.maxIconSize, "the bomb passes the size cap: its pixels refuse it")
        #expect(await icons.update([feed]) == [feed.id])
        #expect(try Data(contentsOf: try #require(icons.file(for: feed))) == Self.ico, "the site's favicon, not the bomb")
        #expect(server.requests.map(\.path) == ["/bomb.png", "/site/", "/favicon.ico"])
        let saved = try FileManager.default.contentsOfDirectory(atPath: icons.directory.path)
        #expect(saved.count == 1, "only the favicon is on disk: \(saved)")
    }

    @Test("a feed whose only icon is a bomb keeps none")
    func onlyABomb() async throws {
        let bomb = PNGBomb.reported
        let server = try TestHTTPServer { request in request.path == "/bomb.png" ? .ok(bomb) : .status(404) }
        defer { server.stop() }
        let (icons, feed, _, folder) = try await Self.setUp(server: server, iconPath: "/bomb.png", page: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await icons.update([feed]) == [])
        #expect(icons.file(for: feed) == nil)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: icons.directory.path)) ?? [] == [])
    }

    @Test("an icon is fetched once, checked with its validators after a week, replaced only when it changed")
    func fetchedOnceThenRevalidated() async throws {
        let served = Served(Self.png, etag: "\"one\"")
        let server = try TestHTTPServer { request in
            guard request.path == "/logo.png" else { return .status(404) }
            let (body, etag) = served.current
            return request.headers["if-none-match"] == etag ? .status(304) : .ok(body, headers: [("ETag", etag)])
        }
        defer { server.stop() }
        let (icons, feed, clock, folder) = try await Self.setUp(server: server, iconPath: "/logo.png", page: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await icons.update([feed]) == [feed.id])
        clock.advance(by: 6 * 86400)
        #expect(await icons.update([feed]).isEmpty)
        #expect(server.requests.count == 1, "asked again within the week")

        clock.advance(by: 86400)
        #expect(await icons.update([feed]).isEmpty, "304: nothing changed")
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.headers["if-none-match"] == "\"one\"")
        #expect(try Data(contentsOf: try #require(icons.file(for: feed))) == Self.png)

        served.current = (Self.ico, "\"two\"")
        clock.advance(by: 7 * 86400)
        #expect(await icons.update([feed]) == [feed.id])
        #expect(try Data(contentsOf: try #require(icons.file(for: feed))) == Self.ico)
    }

    @Test("a feed without an icon keeps none and is searched again a day later, not sooner")
    func missingIconRetriedDaily() async throws {
        let server = try TestHTTPServer { _ in .ok(Data("<html>nothing here</html>".utf8)) }
        defer { server.stop() }
        let (icons, feed, clock, folder) = try await Self.setUp(server: server, iconPath: nil, page: "/site/")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await icons.update([feed]).isEmpty)
        #expect(icons.file(for: feed) == nil)
        let asked = server.requests.count
        #expect(asked == 2, "the page and /favicon.ico")
        clock.advance(by: 86400 - 1)
        _ = await icons.update([feed])
        #expect(server.requests.count == asked)
        clock.advance(by: 1)
        _ = await icons.update([feed])
        #expect(server.requests.count == asked * 2)
    }

    @Test("many feeds' icons are fetched a few at a time, each to its own file")
    func manyFeeds() async throws {
        let server = try TestHTTPServer { request in
            request.path.hasPrefix("/icon-") ? .ok(Self.png + Data(request.path.utf8)) : .status(404)
        }
        defer { server.stop() }
        let store = try FeedStore.inMemory()
        for number in 0..<10 {
            let stored = try await store.addFeed(url: server.url("/feed-\(number).xml"))
            let parsed = ParsedFeed(format: .rss, feed: Feed(id: "f", iconURL: server.url("/icon-\(number).png")), entries: [])
            try await store.apply(FetchResult(request: FeedRequest(url: stored.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                  toFeed: stored.id)
        }
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = FeedIcons(directory: folder, store: store)
        let feeds = try await store.feeds()
        #expect(await icons.update(feeds) == feeds.map(\.id))
        for (number, feed) in feeds.enumerated() {
            #expect(try Data(contentsOf: try #require(icons.file(for: feed))) == Self.png + Data("/icon-\(number).png".utf8))
        }
        #expect(server.maximumConcurrentRequests <= FeedIcons.parallelFeeds)
    }

    /// A store with one feed on `server` whose icon and page are at the given paths, and its icons in a new folder.
    @Test("the bundled samples show the icons shipped beside them, read from disk, and look nowhere else")
    func bundledSamples() async throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/sample-feeds")
        let store = try FeedStore.inMemory()
        #expect(await FeedLibrary(store: store).subscribeToSamplesIfEmpty(in: samples) == 3)
        let feeds = try await store.feeds()
        let clock = ManualClock()
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = FeedIcons(directory: folder.appendingPathComponent("icons"), store: store, now: clock.reader)
        #expect(await icons.update(feeds) == feeds.map(\.id))
        for feed in feeds {
            #expect(FeedIcons.sources(for: feed) == [.feed], "no site page or /favicon.ico for \(feed.url.lastPathComponent)")
            let shipped = feed.url.deletingPathExtension().appendingPathExtension("png")
            #expect(feed.iconURL == shipped)
            #expect(try Data(contentsOf: try #require(icons.file(for: feed))) == Data(contentsOf: shipped))
            #expect(try await store.iconRecord(feedID: feed.id)?.url == shipped)
        }
        clock.advance(by: FeedIcons.recheckAfter + 60)
        #expect(await icons.update(feeds) == [], "an unchanged file is not copied again")
    }

    @Test("a feed from the web looks at its own icon, then its site's page, then /favicon.ico")
    func webFeedSources() async throws {
        let store = try FeedStore.inMemory()
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed.xml")!)
        #expect(FeedIcons.sources(for: feed) == [.feed, .sitePage, .favicon])
    }

    private static func setUp(server: TestHTTPServer, iconPath: String?, page: String?) async throws
        -> (FeedIcons, StoredFeed, ManualClock, URL) {
        let store = try FeedStore.inMemory()
        let stored = try await store.addFeed(url: server.url("/feed.xml"))
        let parsed = ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Feed", link: page.map(server.url),
                                                          iconURL: iconPath.map(server.url)), entries: [])
        try await store.apply(FetchResult(request: FeedRequest(url: stored.url), outcome: .fetched(parsed, validators: CacheValidators())),
                              toFeed: stored.id)
        let clock = ManualClock()
        let folder = TestSupport.temporaryDirectory()
        let icons = FeedIcons(directory: folder.appendingPathComponent("icons"), store: store, now: clock.reader)
        return (icons, try #require(try await store.feed(id: stored.id)), clock, folder)
    }
}

/// The icon a test server answers with, changed as a test goes.
private final class Served: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Data, String)

    init(_ body: Data, etag: String) { value = (body, etag) }

    var current: (Data, String) {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
