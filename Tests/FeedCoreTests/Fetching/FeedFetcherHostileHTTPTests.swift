import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Fetching compressed and hostile bodies over HTTP", .serialized, .timeLimit(.minutes(1)))
struct FeedFetcherHostileHTTPTests {
    let rss: Data
    let limit = FeedParser.defaultMaxDocumentSize

    init() throws {
        rss = try Corpus.data("rss20.xml")
    }

    func fetch(_ response: TestHTTPServer.Response) async throws -> (FetchResult, TestHTTPServer) {
        let server = try TestHTTPServer { _ in response }
        let result = await FeedFetcher().fetch(FeedRequest(url: server.url("/feed.xml")))
        return (result, server)
    }

    @Test func onlyTheCodingsItDecodesAreAskedFor() async throws {
        let (result, server) = try await fetch(.ok(rss))
        defer { server.stop() }

        #expect(result.feed != nil)
        #expect(server.requests.first?.headers["accept-encoding"] == "gzip, deflate")
    }

    @Test(arguments: [
        ("gzip", Deflater.Format.gzip),
        ("deflate", .zlib),
        ("deflate", .raw),
    ])
    func compressedFeedIsRead(encoding: String, format: Deflater.Format) async throws {
        let (result, server) = try await fetch(.ok(Deflater.compress(rss, as: format), headers: [("Content-Encoding", encoding)]))
        defer { server.stop() }

        #expect(result.feed?.feed.title == "Example & Co. News")
    }

    @Test func layeredAndConcatenatedGzipIsRead() async throws {
        let half = rss.count / 2
        let members = Deflater.compress(rss.prefix(half), as: .gzip) + Deflater.compress(rss.dropFirst(half), as: .gzip)
        let (result, server) = try await fetch(.ok(Deflater.compress(members, as: .gzip), headers: [("Content-Encoding", "gzip, gzip")]))
        defer { server.stop() }

        #expect(result.feed?.entries.count == 2)
    }

    @Test(arguments: [
        ("gzip", Deflater.zeros(megabytes: 1024, as: .gzip)),
        ("deflate", Deflater.zeros(megabytes: 1024, as: .zlib)),
        ("deflate", Deflater.zeros(megabytes: 1024, as: .raw)),
        ("gzip, gzip", Deflater.compress(Deflater.zeros(megabytes: 1024, as: .gzip), as: .gzip)),
        ("gzip", Deflater.zeroMembers(count: 1024)),
    ])
    func gigabyteBombIsRefused(encoding: String, bomb: Data) async throws {
        let (result, server) = try await fetch(.ok(bomb, headers: [("Content-Encoding", encoding)]))
        defer { server.stop() }

        #expect(result.error == .tooLarge(limit: limit))
        #expect(result.error?.description == "Feed is larger than the 20 MB limit")
    }

    @Test func endlessChunkedBodyStopsAtTheLimit() async throws {
        let piece = Data(repeating: UInt8(ascii: " "), count: 64 * 1024)
        let (result, server) = try await fetch(TestHTTPServer.Response(status: 200, chunks: { piece }))
        defer { server.stop() }

        #expect(result.error == .tooLarge(limit: limit))
        #expect(server.waitForFinishedResponses(1))
        #expect(server.responsesCutByClient == 1, "the fetch hung up, not merely stopped reading")
        // What the kernel's socket buffers hold on top of what was read, and nothing more.
        #expect(server.bodyBytesSent < limit + 16 << 20, "server sent \(server.bodyBytesSent) bytes")
    }

    @Test func hugeContentLengthIsRefusedAtTheHeaders() async throws {
        // A client that waited for the body would get these few bytes, then the end of the connection.
        var response = TestHTTPServer.Response.ok(Data("<rss>".utf8), headers: [("Content-Length", "1000000000000")])
        response.omitContentLength = true
        let (result, server) = try await fetch(response)
        defer { server.stop() }

        #expect(result.error == .tooLarge(limit: limit))
    }

    @Test func unsupportedCodingIsReported() async throws {
        let (result, server) = try await fetch(.ok(rss, headers: [("Content-Encoding", "br")]))
        defer { server.stop() }

        #expect(result.error == .unsupportedEncoding("br"))
        #expect(result.error?.description == "Server sent the feed in an unsupported compression (br)")
    }

    @Test func corruptGzipIsReported() async throws {
        let compressed = Deflater.compress(rss, as: .gzip)
        let (result, server) = try await fetch(.ok(compressed.prefix(compressed.count - 20), headers: [("Content-Encoding", "gzip")]))
        defer { server.stop() }

        #expect(result.error == .corruptEncoding("gzip"))
        #expect(result.error?.description == "Server sent damaged gzip data")
    }

    @Test func errorStatusBodyIsNotRead() async throws {
        var response = TestHTTPServer.Response(status: 404, chunks: { Data(repeating: UInt8(ascii: " "), count: 64 * 1024) })
        response.headers = [("Content-Type", "text/html")]
        let (result, server) = try await fetch(response)
        defer { server.stop() }

        #expect(result.error == .httpStatus(404))
        #expect(server.waitForFinishedResponses(1))
        #expect(server.responsesCutByClient == 1, "the fetch hung up, not merely stopped reading")
        #expect(server.bodyBytesSent < 16 << 20, "server sent \(server.bodyBytesSent) bytes")
    }
}
