import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway FreshRSS started by meson-helpers/freshrss-server, shared by a test process's
/// Google Reader API and Fever tests, each of which adds a user of its own.
///
/// FreshRSS comes from the tarball in ../shared/servers (or $REFRESHGTK_SERVERS); where it or PHP
/// is missing, `shared` throws `Unavailable` with the script's reason, for the tests to report
/// as skipped.
public final class FreshRSSServer: Sendable {
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Why starting it failed for another reason than its absence.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The address FreshRSS serves, ending in a slash.
    public let base: URL
    /// Where test feeds are served from, over loopback.
    public let feedsBase: URL
    private let state: URL

    public var greaderEndpoint: URL { base.appending(path: "api/greader.php") }
    public var feverEndpoint: URL { base.appending(path: "api/fever.php") }

    /// The server of this test process, started on first use and stopped when the process exits.
    public static func shared() async throws -> FreshRSSServer {
        try await starter.server()
    }

    private static let starter = Starter()

    /// Starts the server once, however many tests ask for it at the same time.
    private actor Starter {
        private var start: Task<FreshRSSServer, any Error>?

        func server() async throws -> FreshRSSServer {
            if let start { return try await start.value }
            let task = Task { try await FreshRSSServer.start() }
            start = task
            return try await task.value
        }
    }

    /// The started server, for the exit handler, which cannot capture it.
    private static let running = Mutex<FreshRSSServer?>(nil)

    private init(state: URL, base: URL, feedsBase: URL) {
        self.state = state
        self.base = base
        self.feedsBase = feedsBase
    }

    private static func start() async throws -> FreshRSSServer {
        let state = FileManager.default.temporaryDirectory.appending(path: "freshrss-\(getpid())-\(UUID().uuidString.prefix(8))")
        let (status, output, errors) = await script(["start", state.path])
        guard status == 0 else {
            try? FileManager.default.removeItem(at: state)
            if status == 77 {
                let reason = errors.trimmingCharacters(in: .whitespacesAndNewlines)
                throw Unavailable(description: reason.replacingOccurrences(of: "freshrss-server: skipped: ", with: ""))
            }
            throw Failure(description: "freshrss-server start failed (\(status)): \(errors)")
        }
        let feeds = try String(contentsOf: state.appending(path: "feeds.url"), encoding: .utf8)
        let server = FreshRSSServer(state: state, base: URL(string: output.trimmingCharacters(in: .whitespacesAndNewlines))!,
                                    feedsBase: URL(string: feeds.trimmingCharacters(in: .whitespacesAndNewlines))!)
        running.withLock { $0 = server }
        // At exit no test runs any more: waiting for the stop on this thread holds up nobody.
        atexit { FreshRSSServer.running.withLock { $0 }?.stopAtExit() }
        return server
    }

    private func stopAtExit() {
        _ = try? Subprocess(Self.helper.path, ["stop", state.path], input: "").wait()
        try? FileManager.default.removeItem(at: state)
    }

    /// Adds a user with the API password `password`; user names are letters and digits.
    public func addUser(_ name: String, password: String) async throws {
        let (status, _, errors) = await Self.script(["user", state.path, name, password])
        guard status == 0 else { throw Failure(description: "adding the user \(name) failed: \(errors)") }
    }

    /// Sets the API password of `name` again, which gives the user a new session token and makes
    /// the old one fail with 401, even when the password is the same.
    public func setAPIPassword(of name: String, to password: String) async throws {
        let (status, _, errors) = await Self.script(["password", state.path, name, password])
        guard status == 0 else { throw Failure(description: "setting \(name)'s API password failed: \(errors)") }
    }

    /// How many ClientLogin requests of the Google Reader API the web server has answered so far
    /// (its log has one line per request, without the form: every user's count together).
    public func answeredLogins() -> Int {
        guard let log = try? String(contentsOf: state.appending(path: "php-server.log"), encoding: .utf8) else { return 0 }
        return log.components(separatedBy: "]: POST /api/greader.php/accounts/ClientLogin").count - 1
    }

    /// Writes `contents` as the feed `path` and returns its address.
    @discardableResult
    public func writeFeed(_ path: String, _ contents: String) throws -> URL {
        let file = state.appending(path: "feeds").appending(path: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file, options: .atomic)
        return feedsBase.appending(path: path)
    }

    /// Has FreshRSS fetch every feed of `user` now.
    public func refresh(user: String) async throws {
        let (status, _, errors) = await Self.script(["refresh", state.path, user])
        guard status == 0 else { throw Failure(description: "refreshing \(user)'s feeds failed: \(errors)") }
    }

    /// Deletes the label `name` of `user` as another client does, through the Google Reader
    /// API's `disable-tag`.
    public func deleteLabel(_ name: String, user: String, password: String) async throws {
        let api = greaderEndpoint.absoluteString
        let (status, login, errors) = try await Subprocess("/usr/bin/curl", ["-sS", "--fail", "--data-urlencode", "Email=\(user)",
                                                                            "--data-urlencode", "Passwd=\(password)", api + "/accounts/ClientLogin"],
                                                          input: "").finish()
        guard status == 0, let auth = login.split(separator: "\n").first(where: { $0.hasPrefix("Auth=") })?.dropFirst(5) else {
            throw Failure(description: "logging in as \(user) failed: \(errors)")
        }
        let (deleted, answer, deleteErrors) = try await Subprocess("/usr/bin/curl", ["-sS", "--fail", "-H", "Authorization: GoogleLogin auth=\(auth)",
                                                                                    "--data-urlencode", "s=user/-/label/\(name)",
                                                                                    api + "/reader/api/0/disable-tag"], input: "").finish()
        guard deleted == 0, answer == "OK" else { throw Failure(description: "deleting the label \(name) failed: \(answer) \(deleteErrors)") }
    }

    /// Switches both APIs on or off for every user, as FreshRSS's Authentication settings do.
    public func setAPIEnabled(_ enabled: Bool) throws {
        let config = state.appending(path: "FreshRSS/data/config.php")
        let text = try String(contentsOf: config, encoding: .utf8)
        let changed = text.replacingOccurrences(of: "'api_enabled' => \(!enabled)", with: "'api_enabled' => \(enabled)")
        guard changed != text else { throw Failure(description: "no api_enabled setting in \(config.path)") }
        try Data(changed.utf8).write(to: config, options: .atomic)
    }

    /// An RSS 2.0 feed titled `title` with items of the given guids, newest first, titled after them.
    public static func rss(_ title: String, items: [String]) -> String {
        let entries = items.map { guid in
            "<item><title>\(guid)</title><link>http://example.com/\(guid)</link><guid isPermaLink=\"false\">urn:test:\(guid)</guid><description>Body of \(guid)</description></item>"
        }
        return #"<?xml version="1.0"?><rss version="2.0"><channel><title>\#(title)</title><link>http://example.com/</link>"#
            + entries.joined() + "</channel></rss>"
    }

    private static let helper = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../meson-helpers/freshrss-server").standardized

    /// Runs the script without holding a thread of the tasks' pool while it runs (on two cores a
    /// blocked one stalls every suite beside it); its exit status, standard output and standard error.
    private static func script(_ arguments: [String]) async -> (Int32, String, String) {
        do {
            return try await Subprocess(helper.path, arguments, input: "").finish()
        } catch {
            return (127, "", "could not run \(helper.path): \(error)")
        }
    }
}
