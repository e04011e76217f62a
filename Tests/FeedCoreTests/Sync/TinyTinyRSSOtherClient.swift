import Foundation
import Testing
import TestSupport

/// Another client of the same account, as a phone app would be: it speaks the API through curl
/// with a User-Agent of its own, independently of the reader's client code.
struct OtherClient {
    let endpoint: URL
    let sid: String

    init(server: TinyTinyRSSServer, user: String, password: String) async throws {
        endpoint = server.url.appendingPathComponent("api/")
        let reply = try await Self.post(endpoint, ["op": "login", "user": user, "password": password])
        sid = try #require((reply as? [String: Any])?["session_id"] as? String, "login: \(reply)")
    }

    /// Calls `operation` and returns the reply's content; a failed call throws.
    @discardableResult
    func call(_ operation: String, _ parameters: [String: Any] = [:]) async throws -> Any {
        var fields = parameters
        fields["op"] = operation
        fields["sid"] = sid
        return try await Self.post(endpoint, fields)
    }

    private static func post(_ url: URL, _ fields: [String: Any]) async throws -> Any {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        let output = try await TinyTinyRSSServer.runProgram("/usr/bin/curl", ["-s", "-A", "other-client/1.0", "--data-binary", "@-", url.absoluteString],
                                                          input: body)
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "reply: \(output)")
        guard reply["status"] as? Int == 0 else { throw TinyTinyRSSServer.Failure(description: "\(fields["op"] ?? ""): \(output)") }
        return reply["content"] as Any
    }

    /// The ids of a feed's headlines in a view mode, every page.
    func headlineIDs(feed: Int, viewMode: String, isCategory: Bool = false) async throws -> Set<String> {
        var ids = Set<String>()
        var skip = 0
        while true {
            let page = try #require(try await call("getHeadlines", ["feed_id": feed, "view_mode": viewMode, "limit": 200, "skip": skip,
                                                                "is_cat": isCategory]) as? [[String: Any]])
            ids.formUnion(page.compactMap { ($0["id"] as? Int).map(String.init) })
            if page.count < 200 { return ids }
            skip += page.count
        }
    }

    var unreadIDs: Set<String> { get async throws { try await headlineIDs(feed: -4, viewMode: "unread") } }
    var starredIDs: Set<String> { get async throws { try await headlineIDs(feed: -1, viewMode: "all_articles") } }
    var allIDs: Set<String> { get async throws { try await headlineIDs(feed: -4, viewMode: "all_articles") } }

    func setRead(_ isRead: Bool, _ ids: [String]) async throws {
        try await call("updateArticle", ["article_ids": ids.joined(separator: ","), "field": 2, "mode": isRead ? 0 : 1])
    }

    func setStarred(_ isStarred: Bool, _ ids: [String]) async throws {
        try await call("updateArticle", ["article_ids": ids.joined(separator: ","), "field": 0, "mode": isStarred ? 1 : 0])
    }

    /// Subscribes the account to `url` in category `category` (0: none) and returns the feed's id.
    func subscribe(_ url: URL, category: Int = 0) async throws -> Int {
        let content = try #require(try await call("subscribeToFeed", ["feed_url": url.absoluteString, "category_id": category]) as? [String: Any])
        let status = try #require(content["status"] as? [String: Any])
        return try #require(status["feed_id"] as? Int, "subscribeToFeed: \(content)")
    }

    /// The account's feeds on the server: id, address and category.
    func feeds() async throws -> [(id: Int, url: String, category: Int)] {
        try #require(try await call("getFeeds", ["cat_id": -3]) as? [[String: Any]]).compactMap { feed in
            guard let id = feed["id"] as? Int, let url = feed["feed_url"] as? String else { return nil }
            return (id, url, feed["cat_id"] as? Int ?? 0)
        }
    }
}
