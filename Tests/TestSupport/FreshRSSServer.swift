import Foundation
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
    public static func shared() throws -> FreshRSSServer {
        try started.get()
    }

    private static let started: Result<FreshRSSServer, any Error> = Result {
        let server = try FreshRSSServer()
        atexit { try? FreshRSSServer.started.get().stop() }
        return server
    }

    private init() throws {
        state = FileManager.default.temporaryDirectory.appending(path: "freshrss-\(getpid())-\(UUID().uuidString.prefix(8))")
        let (status, output, errors) = Self.script(["start", state.path])
        guard status == 0 else {
            try? FileManager.default.removeItem(at: state)
            if status == 77 {
                let reason = errors.trimmingCharacters(in: .whitespacesAndNewlines)
                throw Unavailable(description: reason.replacingOccurrences(of: "freshrss-server: skipped: ", with: ""))
            }
            throw Failure(description: "freshrss-server start failed (\(status)): \(errors)")
        }
        base = URL(string: output.trimmingCharacters(in: .whitespacesAndNewlines))!
        let feeds = try String(contentsOf: state.appending(path: "feeds.url"), encoding: .utf8)
        feedsBase = URL(string: feeds.trimmingCharacters(in: .whitespacesAndNewlines))!
    }

    private func stop() {
        _ = Self.script(["stop", state.path])
        try? FileManager.default.removeItem(at: state)
    }

    /// Adds a user with the API password `password`; user names are letters and digits.
    public func addUser(_ name: String, password: String) throws {
        let (status, _, errors) = Self.script(["user", state.path, name, password])
        guard status == 0 else { throw Failure(description: "adding the user \(name) failed: \(errors)") }
    }

    /// Sets the API password of `name` again, which gives the user a new session token and makes
    /// the old one fail with 401, even when the password is the same.
    public func setAPIPassword(of name: String, to password: String) throws {
        let (status, _, errors) = Self.script(["password", state.path, name, password])
        guard status == 0 else { throw Failure(description: "setting \(name)'s API password failed: \(errors)") }
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
    public func refresh(user: String) throws {
        let (status, _, errors) = Self.script(["refresh", state.path, user])
        guard status == 0 else { throw Failure(description: "refreshing \(user)'s feeds failed: \(errors)") }
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

    /// Runs the script; its exit status, standard output and standard error.
    /// posix_spawn and waitpid rather than Process, whose exit watch misses a child started off the
    /// main thread; the output goes through files, which no server the script leaves running holds open.
    private static func script(_ arguments: [String]) -> (Int32, String, String) {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "freshrss-server-\(UUID().uuidString)")
        let outputFile = scratch.appendingPathExtension("out"), errorFile = scratch.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv = ([helper.path] + arguments).map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, helper.path, &actions, nil, argv, environ) == 0 else {
            return (127, "", "could not run \(helper.path): \(String(cString: strerror(errno)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let read = { (file: URL) in (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, read(outputFile), read(errorFile))
    }
}
