import Foundation
import Testing
@testable import FeedCore

@Suite("JSON summary for --parse")
struct ParsedFeedJSONTests {
    @Test func prettyPrintedSortedWithNulls() throws {
        let parsed = ParsedFeed(
            format: .rss,
            feed: Feed(id: "https://example.com/", title: "Example", link: URL(string: "https://example.com/")),
            entries: [
                Entry(id: "a", title: "First", link: URL(string: "https://example.com/a"), published: utc("2024-03-05T10:30:00Z"), summary: "Hello"),
                Entry(id: "b"),
            ],
            warnings: [ErrorReason(.bareAmpersand)]
        )
        let json = String(decoding: try parsed.jsonSummary(), as: UTF8.self)
        #expect(json == """
            {
              "entries" : [
                {
                  "id" : "a",
                  "link" : "https://example.com/a",
                  "published" : "2024-03-05T10:30:00Z",
                  "summary" : "Hello",
                  "title" : "First"
                },
                {
                  "id" : "b",
                  "link" : null,
                  "published" : null,
                  "summary" : null,
                  "title" : null
                }
              ],
              "id" : "https://example.com/",
              "link" : "https://example.com/",
              "title" : "Example",
              "warnings" : [
                "a bare '&' was read as text"
              ]
            }
            """)
    }

    @Test func corpusFeedRoundTripsThroughJSONSerialization() throws {
        let data = try parseCorpus("atom10.xml").jsonSummary()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["title"] as? String == "Atom Blog")
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == 3)
        #expect(entries[0]["published"] as? String == "2024-03-05T13:00:00Z")
        #expect(entries[1]["published"] as? String == "2024-03-04T00:00:00Z", "dated by its update alone")
        #expect(entries[2]["published"] as? String == "2024-03-03T00:00:00Z")
        #expect(object["warnings"] as? [String] == [])
    }
}
