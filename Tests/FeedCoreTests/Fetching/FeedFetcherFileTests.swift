import Foundation
import Testing
@testable import FeedCore

@Suite("Fetching files and parsing locations")
struct FeedFetcherFileTests {
    @Test func fileURL() async {
        let result = await FeedFetcher().fetch(FeedRequest(url: Corpus.url("atom10.xml")))
        #expect(result.feed?.feed.title == "Atom Blog")
    }

    @Test func plainPathIsAFile() async {
        let request = FeedRequest(location: Corpus.url("rss10.rdf").path)
        #expect(request.url.isFileURL)
        let result = await FeedFetcher().fetch(request)
        #expect(result.feed?.format == .rdf)
    }

    @Test func missingFile() async {
        let result = await FeedFetcher().fetch(FeedRequest(location: "/nonexistent/feed.xml"))
        #expect(result.error == .fileNotFound(path: "/nonexistent/feed.xml"))
        #expect(result.error?.description == "No such file: /nonexistent/feed.xml")
    }

    @Test func directoryIsNotAFeed() async throws {
        let directory = try temporaryDirectory()
        let result = await FeedFetcher().fetch(FeedRequest(url: directory))
        guard case let .unreadableFile(path, _) = result.error else {
            Issue.record("expected unreadableFile, got \(String(describing: result.error))")
            return
        }
        #expect(path == directory.path)
    }

    @Test func oversizedFile() async {
        let result = await FeedFetcher(configuration: .init(maxBodySize: 100)).fetch(FeedRequest(url: Corpus.url("rss20.xml")))
        #expect(result.error == .tooLarge(limit: 100))
    }

    @Test func unsupportedScheme() async {
        let result = await FeedFetcher().fetch(FeedRequest(location: "ftp://example.com/feed.xml"))
        #expect(result.error == .unsupportedScheme("ftp"))
        #expect(result.error?.description == "Unsupported address type \"ftp\" (use http, https or a file)")
    }

    @Test(arguments: [
        ("https://example.com/feed", "https://example.com/feed"),
        ("  http://example.com/a b  ", "http://example.com/a%20b"),
        ("file:///tmp/feed.xml", "file:///tmp/feed.xml"),
        ("/tmp/feed.xml", "file:///tmp/feed.xml"),
    ])
    func locations(text: String, expected: String) {
        #expect(FeedRequest(location: text).url.absoluteString == expected)
    }
}
