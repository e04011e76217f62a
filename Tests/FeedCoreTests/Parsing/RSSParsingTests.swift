import Foundation
import Testing
@testable import FeedCore

@Suite("RSS 0.91, 0.92, 2.0 and 1.0")
struct RSSParsingTests {
    @Test func rss20ChannelMetadata() throws {
        let parsed = try parseCorpus("rss20.xml")
        #expect(parsed.format == .rss)
        #expect(parsed.feed.title == "Example & Co. News")
        #expect(parsed.feed.link?.absoluteString == "https://example.com/")
        #expect(parsed.feed.description == "Everything new at Example")
        #expect(parsed.feed.iconURL?.absoluteString == "https://example.com/logo.png")
        #expect(parsed.feed.id == "https://example.com/")
        #expect(parsed.entries.count == 2)
    }

    @Test func rss20ItemWithEveryField() throws {
        let entry = try #require(try parseCorpus("rss20.xml").entries.first)
        #expect(entry.id == "tag:example.com,2024:release-2")
        #expect(entry.title == "Release 2.0 is out")
        #expect(entry.link?.absoluteString == "https://example.com/posts/release-2")
        #expect(entry.author == "Jane Doe")
        #expect(entry.published == utc("2024-03-05T10:30:00Z"))
        #expect(entry.summary == "We shipped 2.0 — read the notes.")
        #expect(entry.content == "<p>Full <em>story</em>.</p>")
        #expect(entry.enclosures == [
            Enclosure(url: URL(string: "https://example.com/media/release.mp3")!, type: "audio/mpeg", length: 123_456),
        ])
    }

    @Test func permalinkGuidDoublesAsLinkAndAuthorAddressIsReducedToName() throws {
        let entry = try parseCorpus("rss20.xml").entries[1]
        #expect(entry.id == "https://example.com/posts/permalink")
        #expect(entry.link?.absoluteString == "https://example.com/posts/permalink")
        #expect(entry.published == utc("2024-03-04T14:00:00Z"))
        #expect(entry.author == "Ed Itor")
        #expect(entry.summary == "Plain text with an & ampersand")
    }

    @Test func rss091WithNetscapeDoctypeDecodesHTMLEntities() throws {
        let parsed = try parseCorpus("rss091.xml")
        #expect(parsed.feed.title == "Café Weekly")
        #expect(parsed.feed.description == "Notes from the café")
        let entry = try #require(parsed.entries.first)
        #expect(entry.title == "Crème brûlée & more")
        #expect(entry.summary == "Recipe inside")
        #expect(entry.id == "http://cafe.example.org/2001/05/creme.html", "no guid: the link is the id")
        #expect(entry.published == nil)
    }

    @Test func rss092ItemWithoutTitleOrLinkGetsStableHashID() throws {
        let first = try parseCorpus("rss092.xml")
        let second = try parseCorpus("rss092.xml")
        let entry = try #require(first.entries.first)
        #expect(entry.title == nil)
        #expect(entry.link == nil)
        #expect(entry.summary == "An item with no title, only a description.")
        #expect(entry.id.hasPrefix("hash:"))
        #expect(entry.id == second.entries.first?.id, "the same entry must get the same id on every fetch")
        #expect(entry.enclosures.first?.length == 5000)
    }

    @Test func rss10RDF() throws {
        let parsed = try parseCorpus("rss10.rdf")
        #expect(parsed.format == .rdf)
        #expect(parsed.feed.title == "RDF Site")
        #expect(parsed.feed.link?.absoluteString == "http://rdf.example.org/")
        #expect(parsed.feed.iconURL?.absoluteString == "http://rdf.example.org/icon.gif")
        let entry = try #require(parsed.entries.first)
        #expect(parsed.entries.count == 1)
        #expect(entry.id == "http://rdf.example.org/a")
        #expect(entry.title == "First RDF item")
        #expect(entry.summary == "About RDF")
        #expect(entry.author == "R. D. Fox")
        #expect(entry.published == utc("2024-02-29T22:59:59Z"))
    }

    @Test func missingFieldsFallBackToLinkThenHash() throws {
        let parsed = try parseCorpus("missing-fields.xml")
        #expect(parsed.feed.title == nil)
        #expect(parsed.feed.id == "https://feeds.example.test/missing-fields.xml", "no link or id: the feed's own URL")
        let ids = parsed.entries.map(\.id)
        #expect(parsed.entries.count == 4)
        #expect(ids[0].hasPrefix("hash:"))
        #expect(ids[1].hasPrefix("hash:"))
        #expect(ids[0] != ids[1], "title-only and title+date entries must not collide")
        #expect(ids[2] == "https://missing.example/link-only")
        #expect(Set(ids).count == 4)
        #expect(parsed.entries[1].published == utc("2024-03-06T00:00:00Z"))
    }

    @Test(arguments: [
        ("rfc822", "2024-03-05T10:30:00Z"),
        ("no-seconds-est", "2024-03-05T15:30:00Z"),
        ("no-weekday-offset", "2024-03-05T09:30:00Z"),
        ("lowercase-spaces", "2024-03-05T17:30:00Z"),
        ("two-digit-year", "2024-03-05T10:30:00Z"),
        ("iso-zulu", "2024-03-05T10:30:00Z"),
        ("iso-no-zone", "2024-03-05T10:30:00Z"),
        ("iso-space-offset", "2024-03-05T05:00:00Z"),
    ])
    func pubDateStylesInCorpus(guid: String, expected: String) throws {
        let entry = try #require(try parseCorpus("dates.xml").entries.first { $0.id == guid })
        #expect(entry.published == utc(expected))
    }

    @Test func unparseableDateIsLeftOut() throws {
        let entry = try #require(try parseCorpus("dates.xml").entries.first { $0.id == "garbage" })
        #expect(entry.published == nil)
    }
}
