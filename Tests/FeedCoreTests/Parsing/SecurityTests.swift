import Foundation
import Testing
@testable import FeedCore

@Suite("Hostile input")
struct SecurityTests {
    @Test func billionLaughsExpandsNothing() throws {
        let parsed = try parseCorpus("billion-laughs.xml")
        #expect(parsed.feed.title?.contains("lol") == true)
        #expect((parsed.feed.title?.count ?? 0) < 100, "no entity expanded: \(parsed.feed.title ?? "")")
        #expect(parsed.warnings.map(\.code).contains(.entityDeclarationsIgnored))
    }

    @Test func externalEntityIsNeverRead() throws {
        let directory = try temporaryDirectory()
        let secretFile = directory.appendingPathComponent("secret.txt")
        try "TOP-SECRET-CONTENT".write(to: secretFile, atomically: true, encoding: .utf8)
        let template = try String(contentsOf: Corpus.url("external-entity.xml"), encoding: .utf8)
        let document = Data(template.replacingOccurrences(of: "SECRET_PATH", with: secretFile.path).utf8)

        let parsed = try FeedParser().parse(document)

        #expect(try String(decoding: parsed.jsonSummary(), as: UTF8.self).contains("TOP-SECRET") == false)
        #expect(parsed.warnings.map(\.code).contains(.entityDeclarationsIgnored))
    }

    @Test func anEntityHiddenBehindACommentInTheDoctypeIsNeverExpanded() throws {
        // A comment holding ']' and a quote once ended a naive DOCTYPE scan early, and one large
        // entity referenced 200,000 times took minutes of CPU.
        let value = String(repeating: "x", count: 1000)
        let references = String(repeating: "&big;", count: 200_000)
        let document = Data("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [
            <!-- ] ' " -->
            <!ENTITY big "\(value)">
            ]>
            <rss version="2.0"><channel><title>t</title><item><title>\(references)</title></item></channel></rss>
            """.utf8)
        let parsed = try FeedParser().parse(document)
        #expect(parsed.entries.first?.title?.contains(value) == false)
        #expect(parsed.entries.first?.title?.hasPrefix("&big;&big;") == true, "the references stay as written")
    }

    @Test func fortyThousandRepeatedEnclosuresAreOneEach() throws {
        let enclosures = (0..<40_000).map { #"<enclosure url="http://example.org/\#($0 % 100).mp3" type="audio/mpeg"/>"# }
        let document = Data(("<rss version=\"2.0\"><channel><title>t</title><item><title>i</title>"
            + enclosures.joined() + "</item></channel></rss>").utf8)
        let entry = try #require(try FeedParser().parse(document).entries.first)
        #expect(entry.enclosures.count == 100)
        #expect(entry.enclosures.first?.url.absoluteString == "http://example.org/0.mp3")
    }

    @Test func fortyThousandJSONFeedAttachmentsAreOneEachByAddress() throws {
        let attachments = (0..<40_000).map { #"{"url": "http://example.org/\#($0 % 100).mp3", "mime_type": "audio/mpeg"}"# }
        let document = Data(("{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"t\", \"items\": "
            + "[{\"id\": \"1\", \"attachments\": [" + attachments.joined(separator: ",") + "]}]}").utf8)
        let entry = try #require(try FeedParser().parse(document).entries.first)
        #expect(entry.enclosures.count == 100)
    }

    @Test func externalDTDIsNeverLoaded() throws {
        let directory = try temporaryDirectory()
        let dtd = directory.appendingPathComponent("evil.dtd")
        try #"<!ENTITY secret "TOP-SECRET-CONTENT">"#.write(to: dtd, atomically: true, encoding: .utf8)
        let template = try String(contentsOf: Corpus.url("external-dtd.xml"), encoding: .utf8)
        let document = Data(template.replacingOccurrences(of: "SECRET_PATH", with: dtd.path).utf8)

        let parsed = try FeedParser().parse(document)

        #expect(parsed.feed.title == "Leak: &secret;", "the unknown entity stays as written")
        #expect(parsed.feed.title?.contains("TOP-SECRET") == false)
    }

    @Test func documentsOverTheDefaultLimitAreRefusedBeforeParsing() {
        var data = Data("<rss><channel><title>".utf8)
        data.append(Data(repeating: UInt8(ascii: "a"), count: FeedParser.defaultMaxDocumentSize))
        data.append(Data("</title></channel></rss>".utf8))
        let error = parseError { try FeedParser().parse(data) }
        #expect(error == .tooLarge(limit: 20 * 1024 * 1024))
        #expect(error?.description == "Feed is larger than the 20 MB limit")
    }

    @Test func limitIsConfigurable() throws {
        let size = try Corpus.data("rss20.xml").count
        #expect(parseError { try parseCorpus("rss20.xml", parser: FeedParser(maxDocumentSize: size - 1)) } == .tooLarge(limit: size - 1))
        #expect(try parseCorpus("rss20.xml", parser: FeedParser(maxDocumentSize: size)).entries.count == 2)
    }
}
