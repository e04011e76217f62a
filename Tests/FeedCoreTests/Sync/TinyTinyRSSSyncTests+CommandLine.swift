import Foundation
import GRDB
import Testing
import TestSupport
@testable import FeedCore

/// The command line against the server: the real `feed-reader` built beside the tests, killed
/// with SIGKILL at several points of `--mark-read` and `--sync`; nothing queued is lost.
extension TinyTinyRSSSyncTests {
    /// The feed-reader built beside this test bundle, run with its data in `dataHome`.
    struct Reader {
        let dataHome: URL
        let program: URL

        init() throws {
            let bundle = Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }
            let folder = (bundle ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()).deletingLastPathComponent()
            program = folder.appendingPathComponent("feed-reader")
            try #require(FileManager.default.isExecutableFile(atPath: program.path), "no feed-reader at \(program.path)")
            dataHome = try FeedCoreTests.temporaryDirectory()
        }

        func environment(_ extra: [String: String]) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            for name in ["DISPLAY", "WAYLAND_DISPLAY", "LANGUAGE"] { environment[name] = nil }
            environment["LANG"] = "C.UTF-8"
            environment["XDG_DATA_HOME"] = dataHome.path
            environment.merge(extra) { _, new in new }
            return environment
        }

        /// Runs to the end: exit status, standard output, standard error.
        func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) async throws -> (status: Int32, output: String, errors: String) {
            try await Subprocess(program.path, arguments, environment: environment(extra), input: input).finish()
        }

        /// Starts a run and kills it with SIGKILL after `delay`, unless it ended first.
        func kill(_ arguments: [String], after delay: Duration) async throws {
            let child = try Subprocess(program.path, arguments, environment: environment([:]))
            try await Task.sleep(for: delay)
            Foundation.kill(child.pid, SIGKILL)
            _ = await child.finish()
        }

        var database: DatabaseQueue {
            get throws { try DatabaseQueue(path: FeedStore.databaseURL(environment: ["XDG_DATA_HOME": dataHome.path]).path) }
        }

        /// The synced entries' unread server ids, and how many changes wait in the queue.
        func state() throws -> (unread: Set<String>, queued: Int) {
            try database.read { db in
                (Set(try String.fetchAll(db, sql: "SELECT remoteId FROM entries WHERE id IN (SELECT id FROM unreadEntries) AND remoteId IS NOT NULL")),
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM syncQueue") ?? 0)
            }
        }
    }

    @Test func theCommandLineAddsListsSyncsAndRemovesAnAccount() async throws {
        let user = try await server.newUser()
        let other = try await OtherClient(server: server, user: user.name, password: user.password)
        _ = try await other.subscribe(try server.writeFeed(title: "Command line", count: 7, dates: .fixedOldestFirst))
        try await server.update()
        let reader = try Reader()

        let wrong = try await reader.run(["--add-account", server.url.absoluteString, "--service", "tt-rss", "--user", user.name], input: "nope\n")
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("The server did not accept the user name or password."), "\(wrong.errors)")
        let noKeyring = try await reader.run(["--add-account", server.url.absoluteString, "--service", "tt-rss", "--user", user.name],
                                       input: user.password + "\n", environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(noKeyring.status != 0)
        #expect(noKeyring.errors.contains("No Secret Service"), "\(noKeyring.errors)")
        #expect(try await reader.run(["--list-accounts"]).output == "")

        let added = try await reader.run(["--add-account", server.url.absoluteString, "--service", "tt-rss", "--user", user.name],
                                   input: user.password + "\n")
        #expect(added.status == 0, "\(added.errors)")
        let id = added.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await reader.run(["--list-accounts"]).output == "\(id)\ttt-rss\t\(server.url.absoluteString)\t\(user.name)\n")
        let sync = try await reader.run(["--sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(try await reader.run(["--print-unread"]).output == "7 unread articles\n")
        #expect(try await reader.run(["--mark-read", "http://nowhere.invalid/feed"]).status != 0)

        let removed = try await reader.run(["--remove-account", id])
        #expect(removed.status == 0, "\(removed.errors)")
        #expect(try await reader.run(["--list-accounts"]).output == "")
        #expect(try await reader.run(["--print-unread"]).output == "0 unread articles\n")
        #expect(try await LibsecretStore().secret(for: SecretKey(kind: TinyTinyRSSService.kind, server: server.url, user: user.name)) == nil)
        #expect(try await other.unreadIDs.count == 7, "nothing changes on the server")
    }

    @Test func queuedChangesSurviveKillingTheProgramAtAnyPoint() async throws {
        let user = try await server.newUser()
        let other = try await OtherClient(server: server, user: user.name, password: user.password)
        let feedURL = try server.writeFeed(title: "Killed", count: 300, dates: .fixedOldestFirst)
        _ = try await other.subscribe(feedURL)
        try await server.update()
        let reader = try Reader()
        let added = try await reader.run(["--add-account", server.url.absoluteString, "--service", "tt-rss", "--user", user.name],
                                   input: user.password + "\n")
        try #require(added.status == 0, "\(added.errors)")
        try #require(try await reader.run(["--sync"]).status == 0)
        let all = try await other.allIDs.sorted()

        for (round, delay) in [5, 40, 90, 150, 250, 400].map(Duration.milliseconds).enumerated() {
            // Something to do: the other client marks a few unread again.
            let reopened = Array(all.shuffled().prefix(20))
            try await other.setRead(false, reopened)
            try #require(try await reader.run(["--sync"]).status == 0)
            let before = try reader.state()
            #expect(before.unread == (try await other.unreadIDs))

            let target = round.isMultiple(of: 2) ? "all" : feedURL.absoluteString
            try await reader.kill(["--mark-read", target], after: delay)
            let afterMark = try reader.state()
            let marked = afterMark.unread.isEmpty
            // All or nothing: every entry read with the server's "mark all as read" queued, or no change.
            #expect(marked ? afterMark.queued == 1 : afterMark == before, "round \(round): \(afterMark.unread.count) unread, \(afterMark.queued) queued")

            try await reader.kill(["--sync"], after: delay)
            let finished = try await reader.run(["--sync"])
            #expect(finished.status == 0, "\(finished.errors)")
            let after = try reader.state()
            #expect(after.queued == 0)
            let serverUnread = try await other.unreadIDs
            #expect(after.unread == serverUnread, "round \(round): here and on the server alike")
            if marked {
                #expect(serverUnread.isEmpty, "round \(round): the queued mark-all-read reached the server")
            } else {
                // Killed before committing: marked read now to the end, so the next round starts clean.
                try #require(try await reader.run(["--mark-read", target]).status == 0)
                try #require(try await reader.run(["--sync"]).status == 0)
                #expect(try await other.unreadIDs.isEmpty)
            }
        }
    }
}
