import Foundation
import Testing
import TestSupport
@testable import FeedCore

/// The tt-rss server that meson-helpers/test started with meson-helpers/ttrss-server, shared by
/// the tests of one run: `TTRSS_TEST_SERVER` names its state directory; `TTRSS_TEST_SKIP` says
/// why there is none (packages missing and not root, say).
struct TinyTinyRSSTestServer: Sendable {
    let directory: String
    let url: URL
    let feedsURL: URL
    let feedsDirectory: URL

    static let shared: TinyTinyRSSTestServer? = {
        guard let directory = ProcessInfo.processInfo.environment["TTRSS_TEST_SERVER"],
              let text = try? String(contentsOfFile: directory + "/env", encoding: .utf8) else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let url = values["TTRSS_URL"].flatMap(URL.init(string:)), let feedsURL = values["TTRSS_FEEDS_URL"].flatMap(URL.init(string:)),
              let feeds = values["TTRSS_FEEDS_DIR"] else { return nil }
        return TinyTinyRSSTestServer(directory: directory, url: url, feedsURL: feedsURL, feedsDirectory: URL(fileURLWithPath: feeds))
    }()

    /// Why the server tests are skipped, shown by the test run.
    static var skipReason: Comment {
        let reason = ProcessInfo.processInfo.environment["TTRSS_TEST_SKIP"]
            ?? "no tt-rss test server: run through meson-helpers/test, which starts one with meson-helpers/ttrss-server"
        return Comment(rawValue: "tt-rss server tests skipped: " + reason)
    }

    /// Whether a Secret Service answers on the session bus (meson-helpers/keyring-session starts one).
    static func secretServiceRuns() async -> Bool {
        let key = SecretKey(kind: SyncServiceKind(rawValue: "probe"), server: URL(string: "http://probe.invalid/")!, user: "probe")
        do {
            try await LibsecretStore().save("probe", for: key)
            try await LibsecretStore().remove(for: key)
            return true
        } catch {
            return false
        }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("meson-helpers/ttrss-server").path

    /// Runs `ttrss-server COMMAND DIR ARGUMENTS` and returns what it printed.
    @discardableResult
    func run(_ command: String, _ arguments: String...) async throws -> String {
        try await Self.runProgram(Self.script, [command, directory] + arguments)
    }

    /// Runs a program to its end without holding a thread of the tasks' pool (on two cores a blocked
    /// one stalls every suite beside it) and returns its trimmed output; a failure throws.
    static func runProgram(_ path: String, _ arguments: [String], input: String = "") async throws -> String {
        let run = try await Subprocess(path, arguments, input: input).finish()
        guard run.status == 0 else {
            throw ScriptFailure(text: "\(path) \(arguments.joined(separator: " ")) failed (\(run.status)): \(run.errors)")
        }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ScriptFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    /// A new user of its own for a test, with API access unless told otherwise.
    func newUser(apiAccess: Bool = true) async throws -> (name: String, password: String) {
        let name = "u" + UUID().uuidString.prefix(8).lowercased()
        let password = "pw-" + UUID().uuidString.prefix(6)
        try await run("user", name, password, apiAccess ? "api-on" : "api-off")
        return (name, password)
    }

    /// Adds a category for `user` (the API cannot) and returns its id.
    func newCategory(user: String, title: String) async throws -> Int {
        try #require(Int(try await run("category", user, title)))
    }

    /// Writes an RSS feed of `count` items with GUIDs of its own, served to tt-rss over loopback.
    func writeFeed(title: String, count: Int) throws -> URL {
        let name = "feed-" + UUID().uuidString.prefix(8).lowercased() + ".xml"
        let items = (0..<count).map { index in
            """
            <item><title>\(title) item \(index)</title><guid isPermaLink="false">\(name)-\(index)</guid>
            <link>http://example.org/\(name)/\(index)</link><description>Body of \(title) item \(index)</description>
            <pubDate>\(Self.rfc822(Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)))</pubDate></item>
            """
        }.joined(separator: "\n")
        let rss = """
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\(title)</title>
            <link>http://example.org/\(name)</link><description>test</description>
            \(items)
            </channel></rss>
            """
        try Data(rss.utf8).write(to: feedsDirectory.appendingPathComponent(name))
        return feedsURL.appendingPathComponent(name)
    }

    private static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Fetches every feed now, as tt-rss's update daemon would.
    func update() async throws {
        try await run("update")
    }

    @discardableResult
    func sql(_ statement: String) async throws -> String {
        try await run("sql", statement)
    }

    /// API requests the web server has answered so far (its log has one line per request).
    func answeredRequests() -> Int {
        guard let log = try? String(contentsOfFile: directory + "/php.log", encoding: .utf8) else { return 0 }
        return log.components(separatedBy: "]: POST /api/").count - 1
    }

    /// Kills the web server at once, as a crash or a pulled cable would: PostgreSQL stays up.
    func killWebServer() throws {
        let pid = try #require(Int32(try String(contentsOfFile: directory + "/web.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGKILL)
    }
}

/// Another client of the same account, as a phone app would be: it speaks the API through curl
/// with a User-Agent of its own, independently of the reader's client code.
struct OtherClient {
    let endpoint: URL
    let sid: String

    init(server: TinyTinyRSSTestServer, user: String, password: String) async throws {
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
        let output = try await TinyTinyRSSTestServer.runProgram("/usr/bin/curl", ["-s", "-A", "other-client/1.0", "--data-binary", "@-", url.absoluteString],
                                                          input: body)
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "reply: \(output)")
        guard reply["status"] as? Int == 0 else { throw TinyTinyRSSTestServer.ScriptFailure(text: "\(fields["op"] ?? ""): \(output)") }
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
