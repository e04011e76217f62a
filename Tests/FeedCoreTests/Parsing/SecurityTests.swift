import Foundation
import Testing
@testable import FeedCore

@Suite("Hostile input")
struct SecurityTests {
    @Test func billionLaughsIsRefusedQuickly() throws {
        let clock = ContinuousClock()
        var error: FeedParseError?
        let elapsed = clock.measure {
            error = parseError { try parseCorpus("billion-laughs.xml") }
        }
        #expect(error == .entityDeclarationsForbidden(line: 3, column: 3))
        #expect(elapsed < .seconds(1))
    }

    @Test func externalEntityIsNeverRead() throws {
        let directory = try temporaryDirectory()
        let secretFile = directory.appendingPathComponent("secret.txt")
        try "TOP-SECRET-CONTENT".write(to: secretFile, atomically: true, encoding: .utf8)
        let template = try String(contentsOf: Corpus.url("external-entity.xml"), encoding: .utf8)
        let document = Data(template.replacingOccurrences(of: "SECRET_PATH", with: secretFile.path).utf8)

        let error = parseError { try FeedParser().parse(document) }

        #expect(error == .entityDeclarationsForbidden(line: 3, column: 3))
        #expect(error?.description.contains("TOP-SECRET") == false)
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
