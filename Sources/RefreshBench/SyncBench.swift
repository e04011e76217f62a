import FeedCore
import Foundation

/// The sync figures (`--only=sync`): `feed-reader --sync` against real servers holding
/// `feeds × itemsPerFeed` articles, each run in a fresh process with a fresh store and timed
/// from its start to its exit, its peak memory taken by GNU time.
///
/// - Tiny Tiny RSS (meson-helpers/ttrss-server): our initial sync against newsboat's `-x reload`
///   with `urls-source "ttrss"` on the same server, then our incremental sync after another
///   client changed `changes` articles, its requests counted in the server's access log.
/// - The Google Reader API of FreshRSS (meson-helpers/freshrss-server): our initial sync against
///   its floor, the requests our sync made (read from FreshRSS's access log) sent again by curl
///   one after another, as our sync sends them, with nothing done with the answers, each the
///   median of `googleReaderRounds` taken in turn (on a shared machine one run of either moved by
///   a third from one second to the next); then the incremental sync as for tt-rss.
///
/// Both servers are seeded straight into their databases (the scripts' `seed`), the same rows
/// every run. The account's state is a reader's who keeps up: every article read but the newest
/// `unread`, and `starred` of them starred. The changes: 50 articles read, 30 unread, 20 starred.
@MainActor
enum SyncBench {
    static let itemsPerFeed = 40
    static let unread = 200
    static let starred = 50
    static let changes = (read: 50, unread: 30, starred: 20)
    static var changedArticles: Int { changes.read + changes.unread + changes.starred }

    static func feeds(_ options: BenchOptions) -> Int { options.quick ? 25 : 500 }

    /// How many initial syncs, each in a fresh store, and floors the Google Reader figures are the medians of.
    static func googleReaderRounds(_ options: BenchOptions) -> Int { options.quick ? 1 : 5 }

    /// What a sync is measured on: the servers' articles and the account's state before and after
    /// another client's changes; the state folders are named after it, so two sizes never share one.
    struct Scenario {
        var name: String
        var feeds: Int
        var itemsPerFeed: Int
        var unread: Int
        var starred: Int
        var changes: (read: Int, unread: Int, starred: Int)
        var googleReaderRounds: Int

        var articles: Int { feeds * itemsPerFeed }
        var changedArticles: Int { changes.read + changes.unread + changes.starred }
        /// What `--print-unread` says after the incremental sync.
        var unreadAfterChanges: Int { unread - changes.read + changes.unread }
    }

    /// The default run's sync: 20,000 articles in 500 feeds (1,000 in 25 when quick).
    static func standard(_ options: BenchOptions) -> Scenario {
        Scenario(name: "", feeds: feeds(options), itemsPerFeed: itemsPerFeed, unread: unread, starred: starred,
                 changes: changes, googleReaderRounds: googleReaderRounds(options))
    }

    struct Run {
        var seconds: Double
        var peakRSS: Double
    }

    struct TinyTinyRSSResult {
        var initial: Run
        /// nil when newsboat (or sqlite3) is not installed.
        var newsboat: Run?
        var incrementalRequests: Int
        var incrementalSeconds: Double
    }

    struct GoogleReaderResult {
        var initial: Run
        var floorSeconds: Double
        var incrementalRequests: Int
        var incrementalSeconds: Double
    }

    /// Why a server could not run here (its script's reason), for the table.
    struct Unavailable: Error {
        var reason: String
    }

    // MARK: - Tiny Tiny RSS

    static func runTinyTinyRSS(_ options: BenchOptions) throws -> TinyTinyRSSResult {
        try runTinyTinyRSS(standard(options))
    }

    static func runTinyTinyRSS(_ scenario: Scenario) throws -> TinyTinyRSSResult {
        let (total, unread, starred, changes) = (scenario.articles, scenario.unread, scenario.starred, scenario.changes)
        let ttrss = try Server("ttrss-server", folder: "ttrss" + scenario.name, unavailableStatus: 3)
        defer { ttrss.stop() }
        let server = try ttrss.setting("TTRSS_URL")
        let user = "bench", password = "bench-password"
        try ttrss.run("user", user, password)
        try ttrss.run("seed", user, String(scenario.feeds), String(scenario.itemsPerFeed))
        // Read long ago, but for the newest; some of those starred.
        try ttrss.run("sql", """
            UPDATE ttrss_user_entries SET unread = false, last_read = NOW() - INTERVAL '2 days'
                WHERE ref_id NOT IN (SELECT id FROM ttrss_entries ORDER BY id DESC LIMIT \(unread));
            UPDATE ttrss_user_entries SET marked = true, last_marked = NOW() - INTERVAL '2 days'
                WHERE ref_id IN (SELECT id FROM ttrss_entries ORDER BY id DESC LIMIT \(starred));
            """)
        // At rest, as a server that has kept these articles a while is: its planner's statistics
        // gathered and the rows the updates above left behind cleared, which autovacuum would
        // otherwise do during the first sync measured (ours, newsboat's runs after it).
        try ttrss.run("sql", "VACUUM ANALYZE")

        let ours = try Reader(folder: BenchFiles.directory.appendingPathComponent("ttrss-ours" + scenario.name))
        try ours.addAccount(server: server, service: "tt-rss", user: user, password: password)
        let initial = try ours.sync(expectedEntries: total, expectedUnread: unread)

        let newsboat = try newsboatPath().map { executable in
            try runNewsboat(executable, folder: "ttrss-newsboat" + scenario.name, server: server, user: user, password: password,
                            expectedItems: total)
        }

        // Another client's changes, as its updateArticle calls leave them.
        try ttrss.run("sql", """
            UPDATE ttrss_user_entries SET unread = false, last_read = NOW()
                WHERE ref_id IN (SELECT id FROM ttrss_entries ORDER BY id DESC LIMIT \(changes.read));
            UPDATE ttrss_user_entries SET unread = true
                WHERE ref_id IN (SELECT id FROM ttrss_entries ORDER BY id DESC LIMIT \(changes.unread) OFFSET \(unread));
            UPDATE ttrss_user_entries SET marked = true, last_marked = NOW()
                WHERE ref_id IN (SELECT id FROM ttrss_entries ORDER BY id DESC LIMIT \(changes.starred) OFFSET \(starred));
            """)
        let log = ttrss.state + "/php.log"
        let before = try requestLines(in: log, matching: "]: POST /api/").count
        let incremental = try ours.sync(expectedEntries: total, expectedUnread: scenario.unreadAfterChanges)
        let requests = try requestLines(in: log, matching: "]: POST /api/").count - before
        return TinyTinyRSSResult(initial: initial, newsboat: newsboat, incrementalRequests: requests,
                                 incrementalSeconds: incremental.seconds)
    }

    /// newsboat's first reload of the account, with one reload thread: our sync sends one request at a time.
    private static func runNewsboat(_ executable: String, folder name: String, server: String, user: String, password: String,
                                    expectedItems: Int) throws -> Run {
        let folder = BenchFiles.directory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            urls-source "ttrss"
            ttrss-url "\(server)"
            ttrss-login "\(user)"
            ttrss-password "\(password)"
            ttrss-mode "multi"
            reload-threads 1
            """.write(toFile: folder + "/config", atomically: true, encoding: .utf8)
        try "".write(toFile: folder + "/urls", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        for key in ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"] { environment[key] = folder }
        let child = try ChildProcess.run(executable, ["-C", folder + "/config", "-c", folder + "/cache.db", "-u", folder + "/urls",
                                                      "-x", "reload"], environment: environment)
        guard child.status == 0 else { throw BenchError("newsboat -x reload exited with \(child.status): \(child.errors)") }
        let stored = try ChildProcess.run("/usr/bin/sqlite3", [folder + "/cache.db", "SELECT COUNT(*) FROM rss_item"],
                                          environment: environment).output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(stored) == expectedItems else {
            throw BenchError("newsboat stored \(stored) articles of \(expectedItems)")
        }
        return Run(seconds: child.seconds, peakRSS: child.peakRSSMegabytes)
    }

    /// newsboat, when it and the sqlite3 that counts what it stored are installed (the bench's set-up installs both).
    private static func newsboatPath() throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return nil }
        return ["/usr/bin/newsboat", "/usr/local/bin/newsboat"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    // MARK: - Google Reader API

    static func runGoogleReader(_ options: BenchOptions) throws -> GoogleReaderResult {
        try runGoogleReader(standard(options))
    }

    static func runGoogleReader(_ scenario: Scenario) throws -> GoogleReaderResult {
        let (total, unread, starred, changes) = (scenario.articles, scenario.unread, scenario.starred, scenario.changes)
        let freshRSS = try Server("freshrss-server", folder: "freshrss" + scenario.name, unavailableStatus: 77)
        defer { freshRSS.stop() }
        let base = freshRSS.startOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let endpoint = base + "api/greader.php"
        let user = "reader", password = "api-password-1"
        try freshRSS.run("seed", user, String(scenario.feeds), String(scenario.itemsPerFeed))
        try freshRSS.run("sql", user, """
            UPDATE entry SET is_read = 1 WHERE id NOT IN (SELECT id FROM entry ORDER BY id DESC LIMIT \(unread));
            UPDATE entry SET is_favorite = 1 WHERE id IN (SELECT id FROM entry ORDER BY id DESC LIMIT \(starred));
            UPDATE feed SET cache_nbUnreads = (SELECT COUNT(*) FROM entry WHERE id_feed = feed.id AND is_read = 0);
            """)

        let log = freshRSS.state + "/php-server.log"
        var syncs: [Run] = []
        var floors: [Double] = []
        var ours: Reader?
        for round in 0..<scenario.googleReaderRounds {
            let reader = try Reader(folder: BenchFiles.directory.appendingPathComponent("greader-ours\(scenario.name)-\(round)"))
            try reader.addAccount(server: endpoint, service: "greader", user: user, password: password)
            let before = try requestLines(in: log, matching: "]: ").count
            syncs.append(try reader.sync(expectedEntries: total, expectedUnread: unread))
            let requests = Array(try requestLines(in: log, matching: "]: ").dropFirst(before))
            floors.append(try replay(requests, base: base, endpoint: endpoint, user: user, password: password))
            ours = reader
        }
        guard let ours else { throw BenchError("no Google Reader sync ran") }
        let initial = Run(seconds: Stats.median(syncs.map(\.seconds)), peakRSS: syncs.map(\.peakRSS).max() ?? 0)
        let floor = Stats.median(floors)

        try freshRSS.run("sql", user, """
            UPDATE entry SET is_read = 1 WHERE id IN (SELECT id FROM entry ORDER BY id DESC LIMIT \(changes.read));
            UPDATE entry SET is_read = 0 WHERE id IN (SELECT id FROM entry ORDER BY id DESC LIMIT \(changes.unread) OFFSET \(unread));
            UPDATE entry SET is_favorite = 1 WHERE id IN (SELECT id FROM entry ORDER BY id DESC LIMIT \(changes.starred) OFFSET \(starred));
            UPDATE feed SET cache_nbUnreads = (SELECT COUNT(*) FROM entry WHERE id_feed = feed.id AND is_read = 0);
            """)
        let beforeIncremental = try requestLines(in: log, matching: "]: ").count
        let incremental = try ours.sync(expectedEntries: total, expectedUnread: scenario.unreadAfterChanges)
        let incrementalRequests = try requestLines(in: log, matching: "]: ").count - beforeIncremental
        return GoogleReaderResult(initial: initial, floorSeconds: floor, incrementalRequests: incrementalRequests,
                                  incrementalSeconds: incremental.seconds)
    }

    /// The floor: the requests of our sync, as FreshRSS logged them, sent again in the same order
    /// by one curl, one at a time, the answers thrown away. The log has no POST bodies: the login
    /// sends the user and password, and each `items/contents` the next batch of the ids the listing
    /// before it answered, oldest first, as many as ours sent (the listing is fetched once first).
    private static func replay(_ lines: [String], base: String, endpoint: String, user: String, password: String) throws -> Double {
        let requests = lines.compactMap { line -> (method: String, path: String)? in
            guard let range = line.range(of: "]: ") else { return nil }
            let parts = line[range.upperBound...].split(separator: " ", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        let environment = ProcessInfo.processInfo.environment
        let login = try ChildProcess.run("/usr/bin/curl", ["-sf", "--data-urlencode", "Email=\(user)", "--data-urlencode", "Passwd=\(password)",
                                                           endpoint + "/accounts/ClientLogin"], environment: environment)
        guard let auth = login.output.split(separator: "\n").first(where: { $0.hasPrefix("Auth=") })?.dropFirst(5) else {
            throw BenchError("ClientLogin for the floor failed: \(login.output)")
        }
        let header = "Authorization: GoogleLogin auth=\(auth)"
        // The ids every page of a listing answered, newest first, and what is left of them, oldest
        // first, for the batches of items/contents that follow the listing.
        var listedIDs: [String] = []
        var pendingIDs: [String]?
        var config: [String] = []
        for request in requests {
            let url = base + request.path.dropFirst()
            var entry = ["url = \"\(url)\"", "output = \"/dev/null\""]
            if request.path.hasSuffix("/accounts/ClientLogin") {
                entry += ["data-urlencode = \"Email=\(user)\"", "data-urlencode = \"Passwd=\(password)\""]
            } else {
                entry.append("header = \"\(header)\"")
            }
            if request.path.contains("/stream/items/ids?") {
                let listed = try ChildProcess.run("/usr/bin/curl", ["-sf", "-H", header, url], environment: environment)
                let object = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any]
                let refs = object?["itemRefs"] as? [[String: Any]] ?? []
                if pendingIDs != nil { (listedIDs, pendingIDs) = ([], nil) }
                listedIDs += refs.compactMap { $0["id"] as? String }
            }
            if request.method == "POST", request.path.hasSuffix("/stream/items/contents") {
                var left = pendingIDs ?? listedIDs.reversed()
                let batch = left.prefix(GoogleReaderService.capabilities.articlePageLimit)
                entry.append("data = \"" + batch.map { "i=\($0)" }.joined(separator: "&") + "\"")
                left.removeFirst(batch.count)
                pendingIDs = left
            }
            config.append(entry.joined(separator: "\n"))
        }
        let file = BenchFiles.directory.appendingPathComponent("floor.curl").path
        try config.joined(separator: "\nnext\n").write(toFile: file, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run("/usr/bin/curl", ["-s", "--fail-early", "-K", file], environment: environment)
        guard run.status == 0 else { throw BenchError("the floor's curl exited with \(run.status): \(run.errors)") }
        return run.seconds
    }

    // MARK: - Shared

    /// feed-reader in a data folder of its own, its password in the session's Secret Service.
    @MainActor
    struct Reader {
        let environment: [String: String]
        let program = ReaderBench.executable().path

        init(folder: URL) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
            environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
            environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
            self.environment = environment
        }

        func addAccount(server: String, service: String, user: String, password: String) throws {
            let child = try ChildProcess.run(program, ["--add-account", server, "--service", service, "--user", user],
                                             environment: environment, input: password + "\n")
            guard child.status == 0 else { throw BenchError("feed-reader --add-account exited with \(child.status): \(child.errors)") }
        }

        /// One `--sync`, checked by what it stored: `expectedEntries` articles, `expectedUnread` unread.
        func sync(expectedEntries: Int, expectedUnread: Int) throws -> Run {
            let child = try ChildProcess.run(program, ["--sync"], environment: environment)
            guard child.status == 0 else { throw BenchError("feed-reader --sync exited with \(child.status): \(child.errors)") }
            let store = try FeedStore(path: FeedStore.databaseURL(environment: environment).path)
            let counts = try blocking { (try await store.entryCount(), try await store.entryCount(unreadOnly: true)) }.get()
            guard counts == (expectedEntries, expectedUnread) else {
                throw BenchError("feed-reader --sync stored \(counts.0) articles, \(counts.1) unread, "
                                 + "not \(expectedEntries) and \(expectedUnread)")
            }
            return Run(seconds: child.seconds, peakRSS: child.peakRSSMegabytes)
        }
    }

    /// The lines of a server's access log holding `marker`.
    private static func requestLines(in log: String, matching marker: String) throws -> [String] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains(marker) }.map(String.init)
    }

    /// A server run by its meson-helpers script (`start`, `stop` and the rest, each given the state folder first).
    struct Server {
        private static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("meson-helpers")

        let script: String
        /// The server's state folder, in the bench's.
        let state: String
        /// What `start` printed.
        let startOutput: String

        /// Starts it; a `start` exiting with `unavailableStatus` is the script saying the server cannot run here.
        init(_ script: String, folder: String, unavailableStatus: Int32) throws {
            self.script = script
            state = BenchFiles.directory.appendingPathComponent(folder).path
            let started = try Self.run(script, ["start", state])
            guard started.status == 0 else {
                if started.status == unavailableStatus {
                    throw Unavailable(reason: started.errors.split(separator: "\n").last.map(String.init) ?? started.errors)
                }
                throw BenchError("\(script) start failed (\(started.status)): \(started.errors)")
            }
            startOutput = started.output
        }

        /// Runs `command` on this server, failing when the script does.
        func run(_ command: String, _ arguments: String...) throws {
            let child = try Self.run(script, [command, state] + arguments)
            guard child.status == 0 else { throw BenchError("\(script) \(command) failed (\(child.status)): \(child.errors)") }
        }

        /// The value of `name` in the `env` file the script leaves in the server's state folder.
        func setting(_ name: String) throws -> String {
            let settings = try String(contentsOfFile: state + "/env", encoding: .utf8)
            guard let line = settings.split(separator: "\n").first(where: { $0.hasPrefix(name + "=") }) else {
                throw BenchError("no \(name) in \(state)/env")
            }
            return String(line.dropFirst(name.count + 1))
        }

        func stop() {
            _ = try? Self.run(script, ["stop", state])
        }

        private static func run(_ script: String, _ arguments: [String]) throws -> ChildProcess {
            try ChildProcess.run(scripts.appendingPathComponent(script).path, arguments, environment: ProcessInfo.processInfo.environment)
        }
    }
}
