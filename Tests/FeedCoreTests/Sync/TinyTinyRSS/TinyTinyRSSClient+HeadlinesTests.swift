import Foundation
import Testing
@testable import FeedCore

/// The articles read from `getHeadlines` replies. The expected values are what the JSONDecoder
/// path this reader replaced gave for the same replies.
@Suite("tt-rss headlines replies")
struct TinyTinyRSSHeadlinesReplyTests {
    /// The reply's articles, or its error code.
    static func reply(_ json: String) throws(SyncError) -> Result<[RemoteArticle], TinyTinyRSSFailureCode> {
        switch try TinyTinyRSSClient.headlinesReply("getHeadlines", Data(json.utf8)) {
        case let .success(articles): return .success(articles)
        case let .failure(code): return .failure(TinyTinyRSSFailureCode(code: code))
        }
    }

    /// tt-rss 21.x's spelling: the feed id as a string, an attachment with and one without an
    /// address, fields this client does not read.
    static let headline = #"""
        {"id":4211,"guid":"SHA1:5d2c","unread":true,"marked":false,"published":false,"updated":1700000000,"is_updated":false,
         "title":"Caf\u00e9 \ud83d\ude00 <b>\"bold\"<\/b>","link":"https:\/\/example.org\/a?b=1&c=2","feed_id":"12","tags":[""],
         "attachments":[{"id":3,"content_url":"https:\/\/example.org\/a.mp3","content_type":"audio\/mpeg","title":"","duration":"",
         "width":0,"height":0,"post_id":4211},{"id":4,"content_url":null,"content_type":"image\/png"}],
         "excerpt":"x","content":"<p>Body \/ \u65e5<\/p>","labels":[],"feed_title":"Example","comments_count":0,"comments_link":"",
         "always_display_attachments":false,"author":"Ann","score":0,"note":null,"lang":"en","site_url":"https:\/\/example.org\/"}
        """#
    static let expected = RemoteArticle(
        id: "4211", feedID: "12", title: "Caf\u{E9} \u{1F600} <b>\"bold\"</b>", link: URL(string: "https://example.org/a?b=1&c=2"),
        author: "Ann", published: Date(timeIntervalSince1970: 1_700_000_000), updated: nil, content: "<p>Body / \u{65E5}</p>",
        enclosures: [Enclosure(url: URL(string: "https://example.org/a.mp3")!, type: "audio/mpeg")], isRead: false, isStarred: false)

    @Test func theStatusBeforeOrAfterTheContent() throws {
        #expect(try Self.reply(#"{"seq":0,"status":0,"content":[\#(Self.headline)]}"#) == .success([Self.expected]))
        #expect(try Self.reply(#"{"content":[\#(Self.headline)],"seq":0,"status":0}"#) == .success([Self.expected]))
        #expect(try Self.reply(#"{"seq":0,"status":0,"content":[]}"#) == .success([]))
    }

    @Test func missingAndNullFields() throws {
        let bare = #"{"id":1,"feed_id":2,"unread":false,"marked":true}"#
        let null = #"{"id":"3","feed_id":"4","unread":false,"marked":true,"title":null,"link":null,"author":"","updated":null,"content":null,"attachments":null}"#
        let articles = [
            RemoteArticle(id: "1", feedID: "2", title: nil, link: nil, author: nil, published: nil, updated: nil, content: nil, isRead: true, isStarred: true),
            RemoteArticle(id: "3", feedID: "4", title: nil, link: nil, author: nil, published: nil, updated: nil, content: nil, isRead: true, isStarred: true),
        ]
        #expect(try Self.reply(#"{"seq":0,"status":0,"content":[\#(bare),\#(null)]}"#) == .success(articles))
    }

    @Test func anErrorReplyGivesItsCode() throws {
        #expect(try Self.reply(#"{"seq":0,"status":1,"content":{"error":"NOT_LOGGED_IN"}}"#) == .failure(TinyTinyRSSFailureCode(code: "NOT_LOGGED_IN")))
        #expect(try Self.reply(#"{"content":{"error":"API_DISABLED"},"status":1}"#) == .failure(TinyTinyRSSFailureCode(code: "API_DISABLED")))
    }

    @Test(arguments: [
        #"{"seq":0,"content":[]}"#, #"{"status":0}"#, #"{"status":"0","content":[]}"#, #"{"status":null,"content":[]}"#,
        #"{"status":0,"content":{}}"#, #"{"status":0,"content":null}"#, #"{"status":0,"content":[null]}"#, #"{"status":1,"content":{}}"#,
        #"{"status":1,"content":[]}"#, #"{"content":[{"id":1}],"status":0}"#,
        #"{"status":0,"content":[{"feed_id":2,"unread":false,"marked":false}]}"#,
        #"{"status":0,"content":[{"id":1,"unread":false,"marked":false}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"marked":false}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"unread":false}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"unread":1,"marked":false}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"unread":false,"marked":false,"updated":"1700000000"}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"unread":false,"marked":false,"updated":1.5}]}"#,
        #"{"status":0,"content":[{"id":true,"feed_id":2,"unread":false,"marked":false}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"unread":false,"marked":false,"title":5}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"unread":false,"marked":false,"attachments":[null]}]}"#,
        #"{"status":0,"content":[{"id":1,"feed_id":2,"unread":false,"marked":false,"attachments":{}}]}"#,
        #"{"seq":0,"status":0,"content":[{"id":1,"title":"#, "<html>Welcome</html>", "", #"{"status":0,"content":[]} x"#,
    ])
    func malformedReplies(json: String) {
        #expect(throws: SyncError(.badResponse, "getHeadlines: the answer is not the tt-rss API's: malformed JSON")) { _ = try Self.reply(json) }
    }
}

/// An error code, for comparing replies.
struct TinyTinyRSSFailureCode: Error, Equatable {
    var code: String
}

extension TinyTinyRSSSyncTests {
    /// A real tt-rss's `getHeadlines` reply, read into the articles its feed holds.
    @Test func aRealHeadlinesReplyReadsAsItsFeedSays() async throws {
        let user = try await server.newUser()
        let other = try await OtherClient(server: server, user: user.name, password: user.password)
        let feedID = try await other.subscribe(try server.writeFeed(title: "Real", count: 3, dates: .fixedOldestFirst))
        try await server.update()
        let ids = try await other.headlineIDs(feed: feedID, viewMode: "all_articles")
        try await other.setStarred(true, [ids.sorted().last!])
        let client = TinyTinyRSSClient(credentials: SyncCredentials(server: server.url, user: user.name, password: user.password))

        let articles = try await client.headlines(["feed_id": feedID, "view_mode": "all_articles", "show_content": true,
                                                   "include_attachments": true, "limit": 200])

        #expect(Set(articles.map(\.id)) == ids)
        let byTitle = Dictionary(uniqueKeysWithValues: articles.map { ($0.title ?? "", $0) })
        for index in 0..<3 {
            let article = try #require(byTitle["Real item \(index)"])
            #expect(article.feedID == String(feedID))
            #expect(article.link?.absoluteString.hasSuffix(".xml/\(index)") == true)
            // tt-rss wraps a plain description in a paragraph.
            #expect(article.content == "<p>Body of Real item \(index)</p>")
            #expect(article.published == Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60))
            #expect(article.author == nil && article.enclosures.isEmpty)
            #expect(!article.isRead)
            #expect(article.isStarred == (article.id == ids.sorted().last))
        }
    }
}
