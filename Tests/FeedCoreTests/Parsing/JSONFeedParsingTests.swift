import Foundation
import Testing
@testable import FeedCore

@Suite("JSON Feed 1.0 and 1.1")
struct JSONFeedParsingTests {
    @Test func version11FeedAndItems() throws {
        let parsed = try parseCorpus("jsonfeed11.json")
        #expect(parsed.format == .jsonFeed)
        #expect(parsed.feed.id == "https://json.example.com/feed.json")
        #expect(parsed.feed.title == "JSON Example")
        #expect(parsed.feed.link?.absoluteString == "https://json.example.com/")
        #expect(parsed.feed.iconURL?.absoluteString == "https://json.example.com/icon.png")
        let first = parsed.entries[0]
        #expect(first.id == "1")
        #expect(first.content == "<p>Hi</p>")
        #expect(first.summary == "First item")
        #expect(first.published == utc("2024-03-01T10:00:00Z"))
        #expect(first.author == "J. Son")
        #expect(first.enclosures == [Enclosure(url: URL(string: "https://json.example.com/1.mp3")!, type: "audio/mpeg", length: 2048)])
    }

    @Test func lenientAboutTypesAndRelativeURLs() throws {
        let entries = try parseCorpus("jsonfeed11.json").entries
        #expect(entries.count == 3)
        #expect(entries[1].id == "2", "numeric ids are read as text")
        #expect(entries[1].link?.absoluteString == "https://json.example.com/2")
        #expect(entries[1].content == "a &lt; b")
        #expect(entries[1].author == "Guest")
        #expect(entries[1].updated == utc("2024-03-02T10:00:00Z"))
        #expect(entries[2].title == nil, "an object where text belongs is dropped, not fatal")
    }

    @Test func version10SingleAuthor() throws {
        let parsed = try parseCorpus("jsonfeed10.json")
        let entry = try #require(parsed.entries.first)
        #expect(parsed.feed.id == "https://v1.example.com/")
        #expect(entry.author == "Old Author")
        #expect(entry.published == utc("2017-05-17T15:02:12Z"))
    }

    @Test func jsonThatIsNotAFeed() {
        let error = parseError { try FeedParser().parse(Data(#"{"hello": "world"}"#.utf8)) }
        #expect(error == .unsupportedFormat(found: "the JSON document is not a JSON Feed (no jsonfeed.org version)"))
        #expect(error?.description.hasPrefix("Not a feed: ") == true)
    }

    @Test func brokenJSONIsReportedAsMalformed() throws {
        let error = try #require(parseError { try FeedParser().parse(Data(#"{"version": "https://jsonfeed.org/version/1.1", "items": [}"#.utf8)) })
        guard case .malformedJSON = error else {
            Issue.record("expected malformedJSON, got \(error)")
            return
        }
        #expect(error.description.hasPrefix("Malformed JSON: "))
    }
}
