import Foundation
import Testing
@testable import FeedCore

@Suite("Atom 1.0 and 0.3")
struct AtomParsingTests {
    @Test func feedMetadataResolvedAgainstXMLBase() throws {
        let parsed = try parseCorpus("atom10.xml")
        #expect(parsed.format == .atom)
        #expect(parsed.feed.title == "Atom Blog")
        #expect(parsed.feed.description == "Notes & links")
        #expect(parsed.feed.link?.absoluteString == "https://blog.example.com/", "the rel-less link, not rel=self")
        #expect(parsed.feed.id == "urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6")
        #expect(parsed.feed.iconURL?.absoluteString == "https://blog.example.com/favicon.ico")
    }

    @Test func nestedXMLBaseResolvesEntryLinksAndEnclosures() throws {
        let entry = try parseCorpus("atom10.xml").entries[0]
        #expect(entry.link?.absoluteString == "https://blog.example.com/posts/first.html")
        #expect(entry.enclosures == [
            Enclosure(url: URL(string: "https://blog.example.com/posts/media/clip.mp4")!, type: "video/mp4", length: 999),
        ])
    }

    @Test func entryDatesTextSummaryAndXHTMLContent() throws {
        let entry = try parseCorpus("atom10.xml").entries[0]
        #expect(entry.id == "tag:blog.example.com,2024:1")
        #expect(entry.published == utc("2024-03-05T13:00:00Z"))
        #expect(entry.updated == utc("2024-03-05T09:15:30.250Z"))
        #expect(entry.summary == "1 < 2 and 2 > 1", "type=text keeps angle brackets as text")
        #expect(entry.content == "<div><p>Hello <b>XHTML</b> &amp; <img src=\"pic.png\"/>world</p></div>")
        #expect(entry.author == "Feed Author", "entries inherit the feed's author")
    }

    @Test func linkWithoutRelIsAlternateAndOtherRelationsAreIgnored() throws {
        let entry = try parseCorpus("atom10.xml").entries[1]
        #expect(entry.title == "Second entry")
        #expect(entry.link?.absoluteString == "https://blog.example.com/second.html")
        #expect(entry.content == "<p>Escaped <i>HTML</i></p>")
        #expect(entry.published == nil)
        #expect(entry.updated == utc("2024-03-04T00:00:00Z"))
        #expect(entry.date == entry.updated)
    }

    @Test func absoluteXMLBaseReplacesInheritedBase() throws {
        let entry = try parseCorpus("atom10.xml").entries[2]
        #expect(entry.link?.absoluteString == "https://other.example.net/deep/up.html")
        #expect(entry.author == "Guest Writer")
        #expect(entry.content == "Plain &lt;text&gt; &amp; more", "text content is escaped so content is always HTML")
    }

    @Test func atom03EscapedAndBase64Content() throws {
        let parsed = try parseCorpus("atom03.xml")
        #expect(parsed.format == .atom03)
        #expect(parsed.feed.title == "Old Atom")
        #expect(parsed.feed.description == "Pre-standard Atom")
        #expect(parsed.feed.link?.absoluteString == "http://old.example.com/")
        let escaped = parsed.entries[0]
        #expect(escaped.link?.absoluteString == "http://old.example.com/2003/12/13/atom03")
        #expect(escaped.published == utc("2003-12-13T12:29:29Z"))
        #expect(escaped.updated == utc("2003-12-13T18:30:02Z"))
        #expect(escaped.summary == "Short")
        #expect(escaped.content == "<p>Escaped &amp; done</p>")
        let base64 = parsed.entries[1]
        #expect(base64.content == "<p>Base64 <b>body</b></p>")
        #expect(base64.id == "tag:old.example.com,2003:3.2398")
    }

    @Test func documentWithoutURLKeepsRelativeLinksRelative() throws {
        let parsed = try FeedParser().parse(Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>x</id><link href="a/b.html"/></entry></feed>
            """.utf8))
        #expect(parsed.entries.first?.link?.absoluteString == "a/b.html")
    }

    @Test func escapedAmpersandsInAttributesAreAmpersands() throws {
        let document = #"<feed xmlns="http://www.w3.org/2005/Atom"><link rel="alternate" href="https://example.test/?a=1&amp;b=2&amp;amp;c=3&#38;d=4"/><entry><title>E</title></entry></feed>"#
        #expect(try FeedParser().parse(Data(document.utf8)).feed.link?.absoluteString == "https://example.test/?a=1&b=2&amp;c=3&d=4")
    }
}
