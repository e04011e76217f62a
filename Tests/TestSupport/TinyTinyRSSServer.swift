import Foundation

/// The tt-rss server meson-helpers/test started with meson-helpers/ttrss-server, for the window's
/// sync tests: `TTRSS_TEST_SERVER` names its state directory, `TTRSS_TEST_SKIP` says why there is
/// none. Its scripts run while the GTK main loop keeps turning, as xdotool does in `XDo`.
@MainActor
public struct TinyTinyRSSServer {
    public let directory: String
    /// The address tt-rss is served at, as a person types it into Add Account.
    public let url: URL
    /// Where the test feeds are served: a plain web server, not tt-rss.
    public let feedsURL: URL
    private let feedsDirectory: URL

    /// The server of this run, or nil when none was started.
    public static var shared: TinyTinyRSSServer? {
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
    }

    /// Why the server tests are skipped, for the test run's output.
    public nonisolated static var skipReason: String {
        "tt-rss server tests skipped: " + (ProcessInfo.processInfo.environment["TTRSS_TEST_SKIP"]
            ?? "no tt-rss test server: run through meson-helpers/test, which starts one with meson-helpers/ttrss-server")
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("meson-helpers/ttrss-server").path

    /// Runs `ttrss-server COMMAND DIR ARGUMENTS` and returns what it printed.
    @discardableResult
    public func run(_ command: String, _ arguments: String...) throws -> String {
        try Self.runProgram(Self.script, [command, directory] + arguments)
    }

    /// Runs `path`, the main loop turning until it ends; throws with its errors when it fails.
    /// Spawned and reaped here rather than by Foundation's Process, which counts a server the
    /// script leaves running (start-web) as the script still running.
    static func runProgram(_ path: String, _ arguments: [String], input: String = "") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ttrss-call-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputFile, outputFile, errorFile) = (folder.appendingPathComponent("in"), folder.appendingPathComponent("out"),
                                                  folder.appendingPathComponent("err"))
        try Data(input.utf8).write(to: inputFile)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputFile.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawn(&child, path, &actions, nil, argv, envp) == 0 else { throw Failure(description: "\(path) could not start") }
        var status: Int32 = 0
        guard GtkTestEnvironment.iterate(timeout: 60, until: { waitpid(child, &status, WNOHANG) == child }) else {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) did not end within a minute")
        }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard (status & 0x7f) == 0, (status >> 8) & 0xff == 0 else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) failed (\(status)): \(errors)")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new user of its own for a test, with API access unless told otherwise.
    public func newUser(apiAccess: Bool = true) throws -> (name: String, password: String) {
        let name = "w" + UUID().uuidString.prefix(8).lowercased()
        let password = "pw-" + UUID().uuidString.prefix(6)
        try run("user", name, password, apiAccess ? "api-on" : "api-off")
        return (name, password)
    }

    /// Writes an RSS feed titled `title` of `count` items ("TITLE item 0" newest), served to tt-rss over loopback.
    public func writeFeed(title: String, count: Int) throws -> URL {
        let name = "feed-" + UUID().uuidString.prefix(8).lowercased() + ".xml"
        let items = (0..<count).map { index in
            """
            <item><title>\(title) item \(index)</title><guid isPermaLink="false">\(name)-\(index)</guid>
            <link>http://example.org/\(name)/\(index)</link><description>Body of \(title) item \(index)</description>
            <pubDate>\(Self.rfc822(Date().addingTimeInterval(-Double(index) * 60)))</pubDate></item>
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

    /// Subscribes `user` to `feed` on the server, as another client of the account would, and
    /// has tt-rss fetch it now.
    public func subscribe(_ user: (name: String, password: String), to feed: URL) throws {
        let session = try call(["op": "login", "user": user.name, "password": user.password])
        guard let sid = session["session_id"] as? String else { throw Failure(description: "login: \(session)") }
        _ = try call(["op": "subscribeToFeed", "sid": sid, "feed_url": feed.absoluteString, "category_id": 0])
        try run("update")
    }

    /// Whether the server has the article titled `title` unread for `user`.
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
    public func feedAddresses(user: String) throws -> [String] {
        try run("sql", "SELECT f.feed_url FROM ttrss_feeds f JOIN ttrss_users u ON u.id = f.owner_uid WHERE u.login = '\(user)' ORDER BY f.id")
            .split(separator: "\n").map(String.init)
    }

    /// Calls tt-rss's API through curl, with a User-Agent of its own; returns the reply's content.
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
