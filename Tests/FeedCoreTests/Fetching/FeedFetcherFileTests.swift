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
        #expect(result.error == .notAFile(path: directory.path, kind: .directory))
        #expect(result.error?.description == "Could not read \(directory.path): it is a directory, not a file")
    }

    // A time limit, as reading a pipe with no writer or an endless device would otherwise never end.
    @Test(.timeLimit(.minutes(1)))
    func namedPipeIsRefusedWithoutWaitingForAWriter() async throws {
        let pipe = try temporaryDirectory().appendingPathComponent("feed.xml")
        #expect(mkfifo(pipe.path, 0o600) == 0)

        let result = await FeedFetcher().fetch(FeedRequest(url: pipe))

        #expect(result.error == .notAFile(path: pipe.path, kind: .namedPipe))
        #expect(result.error?.description == "Could not read \(pipe.path): it is a named pipe, not a file")
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["/dev/zero", "/dev/urandom", "/dev/null"])
    func deviceIsRefused(path: String) async {
        let result = await FeedFetcher().fetch(FeedRequest(location: path))

        #expect(result.error == .notAFile(path: path, kind: .device))
        #expect(result.error?.description == "Could not read \(path): it is a device, not a file")
    }

    @Test func oversizedFile() async {
        let result = await FeedFetcher(configuration: .init(maxBodySize: 100)).fetch(FeedRequest(url: Corpus.url("rss20.xml")))
        #expect(result.error == .tooLarge(limit: 100))
    }

    @Test(.timeLimit(.minutes(1)))
    func hugeFileIsRefusedWithoutReadingIt() async throws {
        // Sparse: a terabyte on paper that takes no disk, and more than any read could hold.
        let file = try temporaryDirectory().appendingPathComponent("huge.xml")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("<rss>".utf8)))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1 << 40)
        try handle.close()

        let result = await FeedFetcher().fetch(FeedRequest(url: file))

        #expect(result.error == .tooLarge(limit: FeedParser.defaultMaxDocumentSize))
    }

    @Test(arguments: [("javascript:alert(1)", "javascript"), ("data:text/html,<p>x</p>", "data")])
    func aTypedSchemeThatIsNotReadIsSaidToBeOne(text: String, scheme: String) async {
        let result = await FeedFetcher().fetch(FeedRequest(location: text))
        #expect(result.error == .unsupportedScheme(scheme))
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
        // A scheme without "//" is a URL too, so that it is refused as one rather than taken for a missing file.
        ("javascript:alert(1)", "javascript:alert(1)"),
        ("data:text/html,<p>x</p>", "data:text/html,%3Cp%3Ex%3C/p%3E"),
        ("mailto:a@example.com", "mailto:a@example.com"),
        ("./a:b.xml", "file://\(FileManager.default.currentDirectoryPath)/a:b.xml"),
        ("my notes: feed.xml", "file://\(FileManager.default.currentDirectoryPath)/my%20notes%3A%20feed.xml"),
    ])
    func locations(text: String, expected: String) {
        #expect(FeedRequest(location: text).url.absoluteString == expected)
    }
}
