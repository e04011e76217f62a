import Foundation
import Testing
@testable import FeedCore

@Suite("Malformed and non-feed input")
struct MalformedInputTests {
    /// A feed that breaks off inside an entry is read up to the fault, which its warning names.
    @Test(arguments: [
        ("malformed-mismatched.xml", 5, 26, "end tag does not match the open element"),
        ("malformed-truncated.xml", 5, 18, "document ends before its elements are closed"),
        ("malformed-attribute.xml", 5, 18, "attribute value must be quoted"),
    ])
    func malformedFeedsAreReadUpToTheFaultWithAWarning(name: String, line: Int, column: Int, reason: String) throws {
        let parsed = try parseCorpus(name)
        #expect(parsed.entries.count == 1)
        #expect(parsed.warnings.map(\.englishWarning) == ["the document is not well-formed XML: \(reason) (line \(line), column \(column))"])
    }

    /// With no entry read before the fault there is nothing to show: the fault is the answer.
    @Test func aFeedBrokenBeforeItsFirstEntryIsMalformed() {
        let error = parseError { try parseCorpus("malformed-control-character.xml") }
        #expect(error == .malformedXML(line: 3, column: 13, reason: "invalid character (not allowed in XML)"))
        #expect(error?.description == "Malformed XML at line 3, column 13: invalid character (not allowed in XML)")
    }

    @Test(arguments: [
        ("not-a-feed.html", "the document is an HTML page"),
        ("opml.xml", "the XML document's root element is <opml>"),
    ])
    func otherDocumentsAreNotFeeds(name: String, found: String) {
        let error = parseError { try parseCorpus(name) }
        #expect(error == .unsupportedFormat(found: found))
        #expect(error?.description == "Not a feed: \(found)")
    }

    @Test(arguments: [
        ("", "the document is empty"),
        ("  \n\t ", "the document is empty"),
        ("Hello, world", "the document is neither XML nor JSON"),
    ])
    func emptyAndPlainText(text: String, found: String) {
        #expect(parseError { try FeedParser().parse(Data(text.utf8)) } == .unsupportedFormat(found: found))
    }

    @Test func aDocumentWithoutARootElementIsMalformed() {
        #expect(parseError { try FeedParser().parse(Data("<?xml version=\"1.0\"?>".utf8)) }
            == .malformedXML(line: 1, column: 22, reason: "the document has no root element"))
    }

    @Test func contentAfterTheFeedIsIgnoredWithAWarning() throws {
        let parsed = try FeedParser().parse(Data("<rss><channel><item><title>T</title></item></channel></rss><rss/>".utf8))
        #expect(parsed.entries.map(\.title) == ["T"])
        #expect(parsed.warnings.map(\.englishWarning) == ["the document is not well-formed XML: extra content after the root element (line 1, column 60)"])
    }

    /// Cuts a valid feed at many points: each prefix must parse or fail with a `FeedParseError`, never crash or hang.
    @Test(arguments: ["rss20.xml", "atom10.xml", "jsonfeed11.json", "utf16le.xml", "latin1.xml"])
    func everyTruncationFailsCleanly(name: String) throws {
        let data = try Corpus.data(name)
        var failures = 0
        for length in stride(from: 0, to: data.count, by: 3) {
            do {
                _ = try FeedParser().parse(data.prefix(length))
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
    }

    /// Flips bytes at pseudo-random places (fixed seed, so failures reproduce).
    @Test func corruptedBytesFailCleanly() throws {
        let original = try Corpus.data("rss20.xml")
        var generator = SplitMix64(seed: 42)
        var outcomes = (parsed: 0, refused: 0)
        for _ in 0..<300 {
            var data = original
            for _ in 0..<4 {
                let index = Int(generator.next() % UInt64(data.count))
                data[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            do {
                _ = try FeedParser().parse(data)
                outcomes.parsed += 1
            } catch {
                #expect(!error.description.isEmpty)
                outcomes.refused += 1
            }
        }
        #expect(outcomes.parsed > 0, "damage inside text should not stop parsing")
        #expect(outcomes.refused > 0, "damage to markup must be reported")
    }

    @Test func deeplyNestedElementsDoNotExhaustTheStack() throws {
        let depth = 100_000
        let text = "<rss><channel><title>Deep</title>" + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth) + "</channel></rss>"
        #expect(try FeedParser().parse(Data(text.utf8)).feed.title == "Deep")
    }
}

/// A small deterministic random number generator for reproducible fuzzing.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
