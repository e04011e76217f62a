import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Fetching over HTTP", .serialized)
struct FeedFetcherHTTPTests {
    let rss: Data

    init() throws {
        rss = try Corpus.data("rss20.xml")
    }

    @Test func okResponseIsParsedWithValidators() async throws {
        let body = rss
        let server = try TestHTTPServer { _ in
            .ok(body, headers: [("ETag", "\"v1\""), ("Last-Modified", "Tue, 05 Mar 2024 10:30:00 GMT")])
        }
        defer { server.stop() }

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/feed.xml")))

        guard case let .fetched(feed, validators) = result.outcome else {
            Issue.record("expected a feed, got \(result.outcome)")
            return
        }
        #expect(feed.feed.title == "Example & Co. News")
        #expect(validators == CacheValidators(etag: "\"v1\"", lastModified: "Tue, 05 Mar 2024 10:30:00 GMT"))
        #expect(result.permanentRedirect == nil)
        let request = try #require(server.requests.first)
        #expect(request.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(request.headers["user-agent"] == "feed-reader/1.0 (FeedCore)")
        #expect(request.headers["if-none-match"] == nil)
    }

    @Test func theContentTypeCharsetDecidesTheEncoding() async throws {
        // windows-1251 bytes for "Новости" under a prolog that claims UTF-8.
        let body = Data(#"<?xml version="1.0" encoding="UTF-8"?><rss><channel><title>"#.utf8)
            + Data([0xCD, 0xEE, 0xE2, 0xEE, 0xF1, 0xF2, 0xE8]) + Data("</title></channel></rss>".utf8)
        let server = try TestHTTPServer { _ in .ok(body, headers: [("Content-Type", #"application/rss+xml; charset="windows-1251""#)]) }
        defer { server.stop() }

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/feed.xml")))

        guard case let .fetched(feed, _) = result.outcome else {
            Issue.record("expected a feed, got \(result.outcome)")
            return
        }
        #expect(feed.feed.title == "Новости")
    }

    @Test(arguments: [
        ("application/rss+xml; charset=KOI8-R", "KOI8-R"),
        ("text/xml;charset='utf-8'", "utf-8"),
        ("text/xml; format=flowed; Charset = big5", "big5"),
        ("application/atom+xml", nil),
        ("text/xml; charset=", nil),
    ] as [(String, String?)])
    func charsetParameter(contentType: String, charset: String?) {
        #expect(FeedFetcher.charset(inContentType: contentType) == charset)
    }

    @Test func conditionalRequestGetsNotModified() async throws {
        let body = rss
        let server = try TestHTTPServer { request in
            request.headers["if-none-match"] == "\"v1\"" ? .status(304) : .ok(body, headers: [("ETag", "\"v1\"")])
        }
        defer { server.stop() }
        let validators = CacheValidators(etag: "\"v1\"", lastModified: "Tue, 05 Mar 2024 10:30:00 GMT")

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/feed.xml"), validators: validators))

        guard case .notModified = result.outcome else {
            Issue.record("expected notModified, got \(result.outcome)")
            return
        }
        let request = try #require(server.requests.first)
        #expect(request.headers["if-none-match"] == "\"v1\"")
        #expect(request.headers["if-modified-since"] == "Tue, 05 Mar 2024 10:30:00 GMT")
    }

    @Test func permanentRedirectReportsTheNewAddress() async throws {
        let body = rss
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/old": .status(301, headers: [("Location", "/new")])
            case "/new": .ok(body)
            default: .status(404)
            }
        }
        defer { server.stop() }

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/old")))

        #expect(result.feed?.entries.count == 2)
        #expect(result.permanentRedirect == server.url("/new"))
    }

    @Test func temporaryRedirectKeepsTheOldAddress() async throws {
        let body = rss
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/moved": .status(301, headers: [("Location", "/temporary")])
            case "/temporary": .status(302, headers: [("Location", "/feed")])
            case "/feed": .ok(body)
            default: .status(404)
            }
        }
        defer { server.stop() }

        let temporary = await FeedFetcher().fetch(FeedRequest(url: server.url("/temporary")))
        let mixed = await FeedFetcher().fetch(FeedRequest(url: server.url("/moved")))

        #expect(temporary.feed != nil)
        #expect(temporary.permanentRedirect == nil)
        #expect(mixed.feed != nil)
        #expect(mixed.permanentRedirect == server.url("/temporary"), "only the permanent part of the chain counts")
    }

    @Test func redirectLoopsStop() async throws {
        let server = try TestHTTPServer { _ in .status(302, headers: [("Location", "/again")]) }
        defer { server.stop() }

        let result = await FeedFetcher(configuration: .init(maxRedirects: 3)).fetch(FeedRequest(url: server.url("/again")))

        #expect(result.error == .tooManyRedirects(limit: 3))
        #expect(server.requests.count == 4)
    }

    @Test func redirectToAFileIsRefused() async throws {
        let server = try TestHTTPServer { _ in .status(301, headers: [("Location", "file:///etc/passwd")]) }
        defer { server.stop() }

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/feed")))

        #expect(result.error == .redirectToLocalFile("file:///etc/passwd"))
    }

    @Test(arguments: [
        (404, "Server returned 404 Not Found"),
        (500, "Server returned 500 Internal Server Error"),
        (503, "Server returned 503 Service Unavailable"),
        (599, "Server returned HTTP status 599"),
    ])
    func errorStatuses(status: Int, message: String) async throws {
        let server = try TestHTTPServer { _ in .status(status) }
        defer { server.stop() }

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/feed")))

        #expect(result.error == .httpStatus(status))
        #expect(result.error?.description == message)
    }

    @Test func slowServerTimesOut() async throws {
        let body = rss
        let server = try TestHTTPServer { _ in
            var response = TestHTTPServer.Response.ok(body)
            response.delay = 3
            return response
        }
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now

        let result = await FeedFetcher(configuration: .init(timeout: .milliseconds(500))).fetch(FeedRequest(url: server.url("/slow")))

        #expect(result.error == .timedOut(after: .milliseconds(500)))
        #expect(result.error?.description == "Timed out after 0.5 s")
        // The timeout error itself says the answer, 3 s away, was not waited for; how soon the
        // test saw it depends on the machine's load, so only the lower bound is checked.
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(450), "took \(elapsed)")
    }

    /// The server holds its answer until the fetch has returned: a fetch that went on after the
    /// cancel would end in its own timeout, or with the feed, instead.
    @Test func cancellingTheTaskStopsTheFetch() async throws {
        let body = rss
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let answer = DispatchSemaphore(value: 0)
        let server = try TestHTTPServer { _ in
            arrival.yield()
            _ = answer.wait(timeout: .now() + 120)
            return .ok(body)
        }
        defer { server.stop() }
        let fetcher = FeedFetcher()

        let task = Task { await fetcher.fetch(FeedRequest(url: server.url("/slow"))) }
        var requests = arrived.makeAsyncIterator()
        await requests.next()
        task.cancel()
        let result = await task.value
        answer.signal()

        #expect(result.error == .cancelled)
    }

    @Test func gzipBodyIsDecompressed() async throws {
        let compressed = try Corpus.data("rss20.xml.gz")
        let server = try TestHTTPServer { _ in .ok(compressed, headers: [("Content-Encoding", "gzip")]) }
        defer { server.stop() }

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/feed.xml")))

        #expect(result.feed?.feed.title == "Example & Co. News")
        #expect(result.feed?.entries.count == 2)
    }

    @Test(arguments: [false, true])
    func oversizedBodyIsCutOff(omitContentLength: Bool) async throws {
        let server = try TestHTTPServer { _ in
            var response = TestHTTPServer.Response.ok(Data(repeating: UInt8(ascii: " "), count: 64 * 1024))
            response.omitContentLength = omitContentLength
            return response
        }
        defer { server.stop() }

        let result = await FeedFetcher(configuration: .init(maxBodySize: 8 * 1024)).fetch(FeedRequest(url: server.url("/big")))

        #expect(result.error == .tooLarge(limit: 8 * 1024))
        #expect(result.error?.description == "Feed is larger than the 8 KB limit")
    }

    @Test func htmlPageIsNotAFeed() async throws {
        let page = try Corpus.data("not-a-feed.html")
        let server = try TestHTTPServer { _ in .ok(page, headers: [("Content-Type", "text/html")]) }
        defer { server.stop() }

        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/")))

        #expect(result.error?.description == "Not a feed: the document is an HTML page")
    }

    @Test func refusedConnectionIsReported() async throws {
        let server = try TestHTTPServer { _ in .status(200) }
        let url = server.url("/gone")
        server.stop()

        let result = await FeedFetcher().fetch(FeedRequest(url: url))

        #expect(result.error == .network(.cannotConnect, host: "127.0.0.1"))
    }

    @Test func oneFailingFeedDoesNotStopTheOthers() async throws {
        let body = rss
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/broken": .status(500)
            case "/garbage": .ok(Data("<rss><channel><title>x</channel>".utf8))
            default: .ok(body)
            }
        }
        defer { server.stop() }
        let requests = ["/a", "/broken", "/b", "/garbage", "/c"].map { FeedRequest(url: server.url($0)) }

        let results = await FeedFetcher().fetchAll(requests)

        #expect(results.map(\.request) == requests, "results come back in request order")
        #expect(results.map { $0.feed != nil } == [true, false, true, false, true])
        #expect(results[1].error == .httpStatus(500))
        #expect(results[3].error?.description.hasPrefix("Malformed XML at line 1") == true)
    }

    @Test func parallelismIsBounded() async throws {
        let body = rss
        let server = try TestHTTPServer { _ in
            var response = TestHTTPServer.Response.ok(body)
            response.delay = 0.2
            return response
        }
        defer { server.stop() }
        let requests = (0..<6).map { FeedRequest(url: server.url("/feed\($0)")) }

        let results = await FeedFetcher(configuration: .init(maxConcurrentFetches: 2)).fetchAll(requests)

        #expect(results.allSatisfy { $0.feed != nil })
        #expect(server.maximumConcurrentRequests <= 2)
        #expect(server.maximumConcurrentRequests == 2, "two at a time should actually overlap")
    }
}
