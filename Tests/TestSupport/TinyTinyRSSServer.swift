import Foundation
import TestProcesses
#if canImport(Glibc)
import Glibc
#endif

/// The tt-rss server meson-helpers/test started with meson-helpers/ttrss-server, shared by the
/// tests of one run: `TTRSS_TEST_SERVER` names its state directory, `TTRSS_TEST_SKIP` says why
/// there is none (packages missing and not root, say).
///
/// Its scripts run two ways. Async tests wait for them without holding a thread of the tasks'
/// pool (on two cores a blocked one stalls every suite beside it). Window tests, synchronous on
/// the main thread, call the synchronous forms: the GTK main loop keeps turning meanwhile, as
/// xdotool's calls do in `XDo`.
public struct TinyTinyRSSServer: Sendable {
    public let directory: String
    /// The address tt-rss is served at, as a person types it into Add Account.
    public let url: URL
    /// Where the test feeds are served: a plain web server, not tt-rss.
    public let feedsURL: URL
    private let feedsDirectory: URL

    /// The server of this run, or nil when none was started.
    public static let shared: TinyTinyRSSServer? = {
        guard let directory = ProcessInfo.processInfo.environment["TTRSS_TEST_SERVER"],
              let text = try? String(contentsOfFile: directory + "/env", encoding: .utf8) else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let url = values["TTRSS_URL"].flatMap(URL.init(string:)), let feedsURL = values["TTRSS_FEEDS_URL"].flatMap(URL.init(string:)),
              let feeds = values["TTRSS_FEEDS_DIR"] else { return nil }
        return TinyTinyRSSServer(directory: directory, url: url, feedsURL: feedsURL, feedsDirectory: URL(fileURLWithPath: feeds))
    }()

    /// Why the server tests are skipped, for the test run's output.
    public static var skipReason: String {
        "tt-rss server tests skipped: " + (ProcessInfo.processInfo.environment["TTRSS_TEST_SKIP"]
            ?? "no tt-rss test server: run through meson-helpers/test, which starts one with meson-helpers/ttrss-server")
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("meson-helpers/ttrss-server").path

    /// Runs `ttrss-server COMMAND DIR ARGUMENTS` and returns what it printed.
    @discardableResult
    public func run(_ command: String, _ arguments: String...) async throws -> String {
        try await Self.runProgram(Self.script, [command, directory] + arguments)
    }

    /// Runs `ttrss-server COMMAND DIR ARGUMENTS` and returns what it printed.
    @MainActor @discardableResult
    public func run(_ command: String, _ arguments: String...) throws -> String {
        try Self.runProgram(Self.script, [command, directory] + arguments)
    }

    /// Runs a program to its end and returns its trimmed output; a failure throws.
    public static func runProgram(_ path: String, _ arguments: [String], input: String = "") async throws -> String {
        let run = try await Subprocess(path, arguments, input: input).finish()
        return try output(of: (run.status, run.output, run.errors), path, arguments)
    }

    /// Runs a program to its end, a minute at most, and returns its trimmed output; a failure throws.
    @MainActor
    static func runProgram(_ path: String, _ arguments: [String], input: String = "") throws -> String {
        try output(of: try Subprocess(path, arguments, input: input).finishTurningMainLoop(timeout: 60), path, arguments)
    }

    private static func output(of run: (status: Int32?, output: String, errors: String), _ path: String, _ arguments: [String]) throws -> String {
        guard let status = run.status else { throw Failure(description: "\(path) \(arguments.joined(separator: " ")) did not end within a minute") }
        guard status == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) failed (\(status)): \(run.errors)")
        }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new user of its own for a test, with API access unless told otherwise.
    public func newUser(apiAccess: Bool = true) async throws -> (name: String, password: String) {
        let user = Self.newCredentials()
        try await run("user", user.name, user.password, apiAccess ? "api-on" : "api-off")
        return user
    }

    /// A new user of its own for a test, with API access unless told otherwise.
    @MainActor
    public func newUser(apiAccess: Bool = true) throws -> (name: String, password: String) {
        let user = Self.newCredentials()
        try run("user", user.name, user.password, apiAccess ? "api-on" : "api-off")
        return user
    }

    private static func newCredentials() -> (name: String, password: String) {
        ("u" + UUID().uuidString.prefix(8).lowercased(), "pw-" + UUID().uuidString.prefix(6))
    }

    /// When the items of a written feed were published.
    public enum ItemDates: Sendable {
        /// Item N was published N minutes ago: item 0 is the newest.
        case minutesAgo
        /// Item N was published N minutes after a fixed moment of 2023, the same every run: item 0 is the oldest.
        case fixedOldestFirst

        func date(ofItem index: Int) -> Date {
            switch self {
            case .minutesAgo: Date().addingTimeInterval(-Double(index) * 60)
            case .fixedOldestFirst: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            }
        }
    }

    /// Writes an RSS feed titled `title` of `count` items ("TITLE item N", with GUIDs of its own),
    /// served to tt-rss over loopback.
    public func writeFeed(title: String, count: Int, dates: ItemDates = .minutesAgo) throws -> URL {
        let name = "feed-" + UUID().uuidString.prefix(8).lowercased() + ".xml"
        let items = (0..<count).map { index in
            """
            <item><title>\(title) item \(index)</title><guid isPermaLink="false">\(name)-\(index)</guid>
            <link>http://example.org/\(name)/\(index)</link><description>Body of \(title) item \(index)</description>
            <pubDate>\(Self.rfc822(dates.date(ofItem: index)))</pubDate></item>
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

    /// Adds a category for `user` (the API cannot) and returns its id.
    public func newCategory(user: String, title: String) async throws -> Int {
        let answer = try await run("category", user, title)
        guard let id = Int(answer) else { throw Failure(description: "category: \(answer)") }
        return id
    }

    /// Fetches every feed now, as tt-rss's update daemon would.
    public func update() async throws {
        try await run("update")
    }

    @discardableResult
    public func sql(_ statement: String) async throws -> String {
        try await run("sql", statement)
    }

    /// API requests the web server has answered so far (its log has one line per request).
    public func answeredRequests() -> Int {
        guard let log = try? String(contentsOfFile: directory + "/php.log", encoding: .utf8) else { return 0 }
        return log.components(separatedBy: "]: POST /api/").count - 1
    }

    /// Kills the web server at once, as a crash or a pulled cable would: PostgreSQL stays up.
    public func killWebServer() throws {
        let text = try String(contentsOfFile: directory + "/web.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text) else { throw Failure(description: "web.pid holds \(text)") }
        kill(pid, SIGKILL)
    }

    /// Subscribes `user` to `feed` on the server, as another client of the account would, and
    /// has tt-rss fetch it now.
    @MainActor
    public func subscribe(_ user: (name: String, password: String), to feed: URL) throws {
        let session = try call(["op": "login", "user": user.name, "password": user.password])
        guard let sid = session["session_id"] as? String else { throw Failure(description: "login: \(session)") }
        _ = try call(["op": "subscribeToFeed", "sid": sid, "feed_url": feed.absoluteString, "category_id": 0])
        try run("update")
    }

    /// Whether the server has the article titled `title` unread for `user`.
    @MainActor
    public func isUnread(_ title: String, user: String) throws -> Bool? {
        let answer = try run("sql", """
            SELECT ue.unread FROM ttrss_user_entries ue JOIN ttrss_entries e ON e.id = ue.ref_id
            JOIN ttrss_users u ON u.id = ue.owner_uid WHERE u.login = '\(user)' AND e.title = '\(title)'
            """)
        switch answer {
        case "t": return true
        case "f": return false
        default: return nil
        }
    }

    /// The addresses of the feeds `user` is subscribed to on the server.
    @MainActor
    public func feedAddresses(user: String) throws -> [String] {
        try run("sql", "SELECT f.feed_url FROM ttrss_feeds f JOIN ttrss_users u ON u.id = f.owner_uid WHERE u.login = '\(user)' ORDER BY f.id")
            .split(separator: "\n").map(String.init)
    }

    /// Calls tt-rss's API through curl, with a User-Agent of its own; returns the reply's content.
    @MainActor
    private func call(_ fields: [String: Any]) throws -> [String: Any] {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        let output = try Self.runProgram("/usr/bin/curl", ["-s", "-A", "other-client/1.0", "--data-binary", "@-",
                                                           url.appendingPathComponent("api/").absoluteString], input: body)
        guard let reply = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], reply["status"] as? Int == 0 else {
            throw Failure(description: "\(fields["op"] ?? ""): \(output)")
        }
        return reply["content"] as? [String: Any] ?? [:]
    }
}
