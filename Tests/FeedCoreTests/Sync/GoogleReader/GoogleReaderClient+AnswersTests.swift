import Foundation
import TestSupport
import Testing
@testable import FeedCore

/// The items and ids read from the answers of `stream/items/contents` and `stream/items/ids`. The
/// expected values are what the JSONDecoder path this reader replaced gave for the same answers.
@Suite("Google Reader API answers")
struct GoogleReaderAnswerTests {
    static func items(_ answer: String) throws(WebAPIError) -> [GoogleReaderItem] {
        var items: [GoogleReaderItem] = []
        try GoogleReaderClient.items(in: Data(answer.utf8), into: &items)
        return items
    }

    /// FreshRSS's spelling: times as strings but `published`, the body in `summary`, slashes
    /// escaped, every link in `canonical` and `alternate`, states in `categories`.
    @Test func aFreshRSSItem() throws {
        let items = try Self.items(#"""
            {"id":"user/-/state/com.google/reading-list","updated":1700000000,"items":[
            {"id":"tag:google.com,2005:reader/item/0005f5e1c0b1a2b3","crawlTimeMsec":"1700000000123","timestampUsec":"1700000000123456",
            "published":1699990000,"title":"Caf\u00e9 \ud83d\ude00 \"quoted\"","summary":{"content":"<p>Body<\/p>"},
            "canonical":[{"href":"http:\/\/example.com\/a"}],"alternate":[{"href":"http:\/\/example.com\/alt","type":"text\/html"}],
            "categories":["user\/-\/state\/com.google\/reading-list","user\/-\/label\/News","user\/-\/state\/com.google\/read",
            "user\/1005921515\/state\/com.google\/starred"],"origin":{"streamId":"feed\/3","title":"Feed","htmlUrl":"http:\/\/example.com\/"},
            "author":"Ann"}]}
            """#)
        #expect(items == [GoogleReaderItem(
            id: GoogleReaderItemID(0x0005_F5E1_C0B1_A2B3), feedID: "feed/3", title: "Caf\u{E9} \u{1F600} \"quoted\"",
            url: URL(string: "http://example.com/a"), author: "Ann", published: Date(timeIntervalSince1970: 1_699_990_000),
            crawled: Date(timeIntervalSince1970: Double(1_700_000_000_123_456) / 1_000_000), html: "<p>Body</p>",
            isRead: true, isStarred: true)])
    }

    /// Google's and Inoreader's spelling: the full text in `content` before `summary`, only an
    /// `alternate` link, times as numbers, an empty author, fields this client does not read.
    @Test func aGoogleItem() throws {
        let items = try Self.items("""
            {"direction":"ltr","id":"user/1005921515/state/com.google/reading-list","title":"Reading list","self":[{"href":"https://x/"}],
             "items":[{"crawlTimeMsec":1700000000123,"id":"tag:google.com,2005:reader/item/00000000000000ff","published":"1699990000",
             "updated":1699990001,"title":"Full","canonical":[],"alternate":[{"href":"https://example.org/full","type":"text/html"}],
             "summary":{"direction":"ltr","content":"short"},"content":{"direction":"ltr","content":"full <b>text</b>"},
             "author":"","likingUsers":[],"comments":[],"annotations":[],"enclosure":[{"href":"https://example.org/a.mp3","length":"1"}],
             "categories":["user/1005921515/state/com.google/reading-list","user/-/state/com.google/fresh"],
             "origin":{"streamId":"feed/https://example.org/feed","title":"Example","htmlUrl":"https://example.org/"}}],
             "continuation":"CLrX2a3","updated":1700000001}
            """)
        #expect(items == [GoogleReaderItem(
            id: GoogleReaderItemID(0xFF), feedID: "feed/https://example.org/feed", title: "Full", url: URL(string: "https://example.org/full"),
            author: nil, published: Date(timeIntervalSince1970: 1_699_990_000), crawled: Date(timeIntervalSince1970: Double(1_700_000_000_123) / 1000),
            html: "full <b>text</b>", isRead: false, isStarred: false)])
    }

    /// Whatever may be missing or null is nil or empty; a first canonical link without an address
    /// gives way to the alternate one.
    @Test func missingAndNullFields() throws {
        let items = try Self.items("""
            {"items":[{"id":"12345","origin":{"streamId":"feed/1"}},
            {"id":"12346","title":null,"published":null,"crawlTimeMsec":null,"timestampUsec":null,"canonical":null,"alternate":null,
             "author":null,"categories":null,"summary":null,"content":null,"origin":{"streamId":"feed/1","title":null}},
            {"id":"12347","canonical":[{"type":"text/html"},{"href":"http://second/"}],"alternate":[{"href":"http://alternate/"}],
             "summary":{"content":"kept"},"content":{"content":null},"timestampUsec":"not a time","crawlTimeMsec":"1700000000000",
             "published":1.5e9,"origin":{"streamId":"feed/2"}}],"continuation":null}
            """)
        let bare = GoogleReaderItem(id: GoogleReaderItemID(12345), feedID: "feed/1", title: "", url: nil, author: nil, published: nil,
                                    crawled: nil, html: "", isRead: false, isStarred: false)
        var null = bare
        null.id = GoogleReaderItemID(12346)
        let fallbacks = GoogleReaderItem(id: GoogleReaderItemID(12347), feedID: "feed/2", title: "", url: URL(string: "http://alternate/"),
                                         author: nil, published: Date(timeIntervalSince1970: 1_500_000_000),
                                         crawled: Date(timeIntervalSince1970: 1_700_000_000), html: "kept", isRead: false, isStarred: false)
        #expect(items == [bare, null, fallbacks])
        #expect(try Self.items(#"{"items":[]}"#).isEmpty)
    }

    @Test(arguments: [
        "{}", #"{"items":null}"#, #"{"items":{}}"#, #"{"items":[null]}"#, #"{"items":[{"origin":{"streamId":"feed/1"}}]}"#,
        #"{"items":[{"id":null,"origin":{"streamId":"feed/1"}}]}"#, #"{"items":[{"id":12345,"origin":{"streamId":"feed/1"}}]}"#,
        #"{"items":[{"id":"xyz","origin":{"streamId":"feed/1"}}]}"#, #"{"items":[{"id":"12345"}]}"#,
        #"{"items":[{"id":"12345","origin":null}]}"#, #"{"items":[{"id":"12345","origin":{}}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":3}}]}"#, #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"title":5}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"categories":[null]}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"categories":"user/-/state/com.google/read"}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"canonical":[null]}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"canonical":{"href":"http://x/"}}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"published":true}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"summary":"text"}]}"#,
        #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"},"author":["Ann"]}]}"#,
        #"{"items":[],"continuation":{}}"#, #"[]"#, #"{"items":[]} {"items":[]}"#, #"{"items":[{"id":"12345","origin":{"streamId":"feed/1"}}"#,
        "<html><body>Service Unavailable</body></html>", "",
    ])
    func malformedItems(answer: String) {
        #expect(throws: WebAPIError.malformedAnswer) { try Self.items(answer) }
    }

    @Test func itemRefs() throws {
        let page = try GoogleReaderClient.itemRefs(in: Data("""
            {"items":[],"itemRefs":[{"id":"1795698580517339","directStreamIds":[],"timestampUsec":"1700000000000000"},{"id":-1},
            {"id":42,"directStreamIds":["user/-/label/News"]}],"continuation":"1795698580517339"}
            """.utf8))
        #expect(page.ids == [GoogleReaderItemID(1_795_698_580_517_339), GoogleReaderItemID(UInt64.max), GoogleReaderItemID(42)])
        #expect(page.continuation == "1795698580517339")
        // FreshRSS leaves both out after the last item.
        let last = try GoogleReaderClient.itemRefs(in: Data(#"{"items":[]}"#.utf8))
        #expect(last.ids.isEmpty && last.continuation == nil)
        let null = try GoogleReaderClient.itemRefs(in: Data(#"{"itemRefs":null,"continuation":12}"#.utf8))
        #expect(null.ids.isEmpty && null.continuation == "12")
    }

    @Test(arguments: [
        #"{"itemRefs":[{}]}"#, #"{"itemRefs":[{"id":"x"}]}"#, #"{"itemRefs":[{"id":null}]}"#, #"{"itemRefs":[{"id":1.5}]}"#,
        #"{"itemRefs":[{"id":1e20}]}"#, #"{"itemRefs":{}}"#, #"{"itemRefs":[],"continuation":true}"#, #"{"itemRefs":[]"#, "OK",
    ])
    func malformedItemRefs(answer: String) {
        #expect(throws: WebAPIError.malformedAnswer) { try GoogleReaderClient.itemRefs(in: Data(answer.utf8)) }
    }
}

extension FreshRSSTests.GoogleReaderClientTests {
    /// A `stream/items/contents` answer as FreshRSS 1.24.3 writes it, for an item with escapes of
    /// every kind in its title and body, an author, a date, and both states.
    @Test func aRealAnswerReadsAsItsFeedSays() async throws {
        let client = client()
        // FreshRSS's times are whole seconds where they are not microseconds.
        let start = Date().addingTimeInterval(-1)
        let url = try server.writeFeed("\(user)/rich.xml", #"""
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
            <title>Rich</title><link>http://example.com/</link>
            <item><title>Caf\#u{E9} \#u{201C}quoted\#u{201D} \#u{1F600} back\slash/</title><link>http://example.com/rich?a=1&amp;b=2</link>
            <guid isPermaLink="false">urn:test:rich</guid><dc:creator>Zo\#u{EB} Writer</dc:creator><pubDate>Tue, 14 Nov 2023 22:13:00 GMT</pubDate>
            <description>&lt;p&gt;Line one&lt;/p&gt;&lt;p&gt;\#u{201C}Two\#u{201D} / \#u{65E5}\#u{672C} \#u{1F600} "3"&lt;/p&gt;</description></item>
            <item><title>plain</title><link>http://example.com/plain</link><guid isPermaLink="false">urn:test:plain</guid>
            <description>Body</description></item></channel></rss>
            """#)
        let feed = try await client.subscribe(to: url, folder: nil)
        let ids = try await client.itemIDs(stream: feed)
        try #require(ids.count == 2)
        try await client.editTag([ids[1]], adding: GoogleReaderStream.read)
        try await client.editTag([ids[1]], adding: GoogleReaderStream.starred)

        let answer = try await rawAnswer(["stream", "items", "contents"], form: ids.map { ("i", $0.longForm) })
        var items: [GoogleReaderItem] = []
        try GoogleReaderClient.items(in: answer, into: &items)

        // The server's own times: when it fetched the feed, the date of an item without one.
        let crawled = items.compactMap(\.crawled)
        try #require(crawled.count == 2)
        #expect(crawled.allSatisfy((start...Date()).contains))
        #expect(items == [
            GoogleReaderItem(id: ids[0], feedID: feed, title: "plain", url: URL(string: "http://example.com/plain"), author: nil,
                             published: Date(timeIntervalSince1970: crawled[0].timeIntervalSince1970.rounded(.down)), crawled: crawled[0], html: "Body",
                             isRead: false, isStarred: false),
            GoogleReaderItem(id: ids[1], feedID: feed, title: "Caf\u{E9} \u{201C}quoted\u{201D} \u{1F600} back\\slash/",
                             url: URL(string: "http://example.com/rich?a=1&b=2"), author: "Zo\u{EB} Writer",
                             published: Date(timeIntervalSince1970: 1_699_999_980), crawled: crawled[1],
                             html: "<p>Line one</p><p>\u{201C}Two\u{201D} / \u{65E5}\u{672C} \u{1F600} \"3\"</p>", isRead: true, isStarred: true),
        ])
    }

    /// The body of a POST under `reader/api/0/`, as the server sends it.
    func rawAnswer(_ path: [String], form: [(String, String)]) async throws -> Data {
        let connection = WebAPIConnection()
        let login = try await connection.send(server.greaderEndpoint.appending(path: "accounts/ClientLogin"),
                                              form: [("Email", user), ("Passwd", password)])
        let auth = try #require(String(decoding: login.body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Auth=") }?.dropFirst(5))
        let headers = [("Authorization", "GoogleLogin auth=\(auth)")]
        let api = server.greaderEndpoint.appending(path: "reader/api/0")
        let token = try await connection.send(api.appending(path: "token"), headers: headers)
        let answer = try await connection.send(path.reduce(api) { $0.appending(path: $1) }, headers: headers,
                                               form: form + [("T", String(decoding: token.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))])
        try #require(answer.status == 200)
        return answer.body
    }
}
