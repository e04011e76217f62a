import Foundation
import Testing
@testable import FeedCore

/// A feed as published, what a reader must show from it, and the warning it carries.
struct LiberalCase: Sendable, CustomTestStringConvertible {
    let name: String
    let document: String
    let title: String?
    let entryTitles: [String]
    let warning: String?

    var testDescription: String { name }
}

/// Documents that are not well-formed XML, or not the feed format to the letter, which
/// established readers show anyway: so must we, saying what was wrong.
@Suite("Feeds as published")
struct LiberalParsingTests {
    static let cases: [LiberalCase] = [
        LiberalCase(name: "whitespace before the XML declaration",
                    document: "\n  <?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Podcast</title><item><title>Episode 1</title></item></channel></rss>",
                    title: "Podcast", entryTitles: ["Episode 1"], warning: XMLRepair.Fix.leadingWhitespace.reason.englishWarning),
        LiberalCase(name: "two hyphens inside a comment",
                    document: "<rss><channel><!-- built -- by hand --><title>Comments</title><item><title>One</title></item></channel></rss>",
                    title: "Comments", entryTitles: ["One"], warning: XMLRepair.Fix.doubleHyphenInComment.reason.englishWarning),
        LiberalCase(name: "a bare ampersand in a link",
                    document: "<rss><channel><title>Q & A</title><link>https://example.test/?a=1&b=2</link><item><title>Ask</title></item></channel></rss>",
                    title: "Q & A", entryTitles: ["Ask"], warning: XMLRepair.Fix.bareAmpersand.reason.englishWarning),
        LiberalCase(name: "HTML entities XML does not define",
                    document: "<rss><channel><title>Caf&eacute;&nbsp;&mdash;&nbsp;Bar</title><item><title>&laquo;Quoted&raquo;</title></item></channel></rss>",
                    title: "Café — Bar", entryTitles: ["«Quoted»"], warning: XMLRepair.Fix.htmlEntity.reason.englishWarning),
        LiberalCase(name: "Atom without its namespace",
                    document: "<feed><title>Bare Atom</title><entry><title>First</title><id>urn:1</id></entry></feed>",
                    title: "Bare Atom", entryTitles: ["First"], warning: nil),
        LiberalCase(name: "Atom 0.3 under another namespace",
                    document: "<feed version=\"0.3\" xmlns=\"http://example.com/newformat#\"><title>Old Atom</title><entry><title>Zero three</title></entry></feed>",
                    title: "Old Atom", entryTitles: ["Zero three"], warning: nil),
        LiberalCase(name: "a standalone Atom entry",
                    document: "<entry xmlns=\"http://www.w3.org/2005/Atom\"><title>Alone</title><id>urn:alone</id><updated>2024-03-05T10:30:00Z</updated></entry>",
                    title: nil, entryTitles: ["Alone"], warning: nil),
        LiberalCase(name: "an id with a foreign-namespace attribute",
                    document: "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:x=\"urn:x\"><title>Ids</title><entry><id x:kind=\"permanent\">urn:2</id><title>Two</title></entry></feed>",
                    title: "Ids", entryTitles: ["Two"], warning: nil),
        LiberalCase(name: "an unclosed CDATA section",
                    document: "<rss><channel><title>CDATA</title><item><title><![CDATA[Open <b>end</title></item></channel></rss>",
                    title: "CDATA", entryTitles: ["Open end"], warning: XMLRepair.Fix.unclosedCDATA.reason.englishWarning),
        LiberalCase(name: "dc:title where title is missing",
                    document: "<rss xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><dc:title>Dublin Core</dc:title><item><dc:title>DC item</dc:title></item></channel></rss>",
                    title: "Dublin Core", entryTitles: ["DC item"], warning: nil),
        LiberalCase(name: "an unclosed element at the end",
                    document: "<rss><channel><title>Cut</title><item><title>Whole</title></item><item><title>Half",
                    title: "Cut", entryTitles: ["Whole", "Half"], warning: "the document is not well-formed XML"),
    ]

    @Test(arguments: cases)
    func isReadWithItsWarning(_ scenario: LiberalCase) throws {
        let parsed = try FeedParser().parse(Data(scenario.document.utf8))
        #expect(parsed.feed.title == scenario.title)
        #expect(parsed.entries.map(\.title) == scenario.entryTitles)
        if let warning = scenario.warning {
            #expect(parsed.warnings.map(\.englishWarning).contains { $0.hasPrefix(warning) }, "warnings: \(parsed.warnings)")
        } else {
            #expect(parsed.warnings.isEmpty)
        }
    }

    @Test func atomEntriesWithOnlyUpdatedAreDated() throws {
        let document = #"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><title>E</title><updated>2024-03-05T10:30:00Z</updated></entry></feed>"#
        let entry = try #require(try FeedParser().parse(Data(document.utf8)).entries.first)
        #expect(entry.date == utc("2024-03-05T10:30:00Z"))
    }

    @Test func aFeedOverLibxml2sDefaultTenMegabytesIsRead() throws {
        let item = "<item><title>Entry</title><description>" + String(repeating: "x", count: 1000) + "</description></item>"
        let items = String(repeating: item, count: 11_000)
        let document = Data("<rss><channel><title>Big</title>\(items)</channel></rss>".utf8)
        #expect(document.count > 11_000_000)
        let parsed = try FeedParser().parse(document)
        #expect(parsed.feed.title == "Big")
        #expect(parsed.entries.count == 11_000)
    }
}
