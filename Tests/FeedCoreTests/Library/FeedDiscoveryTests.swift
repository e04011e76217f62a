import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Finding a site's feeds from a web page")
struct FeedDiscoveryTests {
    static let page = """
        <!DOCTYPE html><html><head><title>A blog</title>
        <link rel="stylesheet" href="/style.css">
        <LINK REL="alternate" TYPE="application/rss+xml" TITLE="Posts (RSS)" HREF="/feed.xml">
        <link rel='alternate' type='application/atom+xml' title='Posts &amp; notes (Atom)' href='https://other.example/atom?a=1&amp;b=2'>
        <link rel="alternate" type="application/feed+json" href="feed.json">
        <link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
        <link rel="alternate" type="application/rss+xml" href="/feed.xml" title="the same again">
        <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
        </head><body><link rel="alternate" type="application/rss+xml" href="/not-in-head.xml"></body></html>
        """

    @Test func alternateLinksAreReadInPageOrderResolvedAndWithoutRepeats() {
        let candidates = FeedDiscovery.alternateLinks(inHTML: Data(Self.page.utf8), pageURL: URL(string: "https://blog.example/posts/hello")!)

        #expect(candidates == [
            FeedCandidate(url: URL(string: "https://blog.example/feed.xml")!, title: "Posts (RSS)"),
            FeedCandidate(url: URL(string: "https://other.example/atom?a=1&b=2")!, title: "Posts & notes (Atom)"),
            FeedCandidate(url: URL(string: "https://blog.example/posts/feed.json")!, title: nil),
        ])
    }

    @Test func aPageWithThousandsOfLinksOffersTheFirstFewOnceEach() {
        let links = (0..<3000).map { #"<link rel="alternate" type="application/rss+xml" title="Feed \#($0 % 1000)" href="/feed-\#($0 % 1000).xml">"# }
        let html = "<html><head>\(links.joined(separator: "\n"))</head></html>"

        let candidates = FeedDiscovery.alternateLinks(inHTML: Data(html.utf8), pageURL: URL(string: "https://many.example/")!)

        #expect(candidates.count == FeedDiscovery.maxCandidates)
        #expect(candidates.map(\.url) == (0..<FeedDiscovery.maxCandidates).map { URL(string: "https://many.example/feed-\($0).xml")! })
    }

    @Test func aBaseElementChangesWhereRelativeLinksPoint() {
        let html = #"<head><base href="https://cdn.example/site/"><link rel="alternate" type="application/atom+xml" href="atom.xml"></head>"#

        #expect(FeedDiscovery.alternateLinks(inHTML: Data(html.utf8), pageURL: URL(string: "https://blog.example/")!).map(\.url)
                == [URL(string: "https://cdn.example/site/atom.xml")!])
    }

    static func rss(_ title: String) -> Data {
        Data("<rss version=\"2.0\"><channel><title>\(title)</title><item><title>x</title><guid>x</guid></item></channel></rss>".utf8)
    }

    @Test func aPageWithLinksOffersThem() async throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/": .ok(Data(#"<html><head><link rel="alternate" type="application/rss+xml" title="Main" href="/main.xml"><link rel="alternate" type="application/atom+xml" title="Comments" href="/comments.atom"></head></html>"#.utf8), headers: [("Content-Type", "text/html")])
            default: .ok(Self.rss("Served"))
            }
        }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())

        let found = try await library.findFeeds(for: server.url("/").absoluteString)

        #expect(found == [FeedCandidate(url: server.url("/main.xml"), title: "Main"), FeedCandidate(url: server.url("/comments.atom"), title: "Comments")])
    }

    @Test func aPageWithoutLinksHasTheUsualPathsTried() async throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/blog/post", "/blog/post?x=1": .ok(Data("<html><head><title>No links</title></head><body>Hello</body></html>".utf8))
            case "/atom.xml": .ok(Self.rss("At atom.xml"))
            case "/index.xml": .ok(Self.rss("At index.xml"))
            case "/rss": .ok(Data("<html>not a feed</html>".utf8))
            default: .status(404)
            }
        }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())

        let found = try await library.findFeeds(for: server.url("/blog/post?x=1").absoluteString)

        #expect(found == [FeedCandidate(url: server.url("/atom.xml"), title: "At atom.xml"), FeedCandidate(url: server.url("/index.xml"), title: "At index.xml")])
        #expect(Set(server.requests.map(\.path)).isSuperset(of: ["/feed", "/rss", "/atom.xml", "/index.xml"]))
    }

    @Test func aFeedAddressIsItsOwnCandidate() async throws {
        let server = try TestHTTPServer { _ in .ok(Self.rss("Direct")) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())

        #expect(try await library.findFeeds(for: server.url("/feed").absoluteString) == [FeedCandidate(url: server.url("/feed"), title: "Direct")])
    }

    @Test func aPageWithNoFeedAnywhereSaysSo() async throws {
        let server = try TestHTTPServer { request in request.path == "/" ? .ok(Data("<html><body>nothing</body></html>".utf8)) : .status(404) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())

        await #expect(throws: FeedLibrary.SubscribeError.noFeedFound) {
            try await library.findFeeds(for: server.url("/").absoluteString)
        }
    }
}
