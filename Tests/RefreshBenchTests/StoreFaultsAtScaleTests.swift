import Foundation
import GRDB
import TestSupport
import Testing
@testable import FeedCore

/// The faults issue 38 names for a large store, on tens of thousands of entries (the code paths
/// of a million): Mark All as Read, by the built `feed-reader --mark-read all` (the store's
/// `markAllRead`, as the window's), interrupted by a real SIGKILL while it writes and by a disk
/// that fills while it writes (a tmpfs of the store's size, mounted in a private mount namespace
/// by `unshare`); and an index damaged on disk. No entry, mark or text is lost, the marks are all
/// changed or none, and what happened is said in the person's language.
@Suite(.serialized) struct StoreFaultsAtScaleTests {
    static let feeds = 40
    static let entriesPerFeed = 500
    static var entries: Int { feeds * entriesPerFeed }

    /// What a store holds, read back after the fault.
    struct Contents: Equatable {
        var entries = 0
        var unread = 0
        /// The unread count the store keeps for its feeds, which must agree.
        var keptUnread = 0
        var starred = 0
        /// Entries the search index finds by a word every entry's text has.
        var searchable = 0
    }

    static var program: URL { RefreshBenchQuickTests.binaryFolder.appendingPathComponent("feed-reader") }

    /// Since v30 the marking writes a few pages of `unreadEntries` and the counts, all at its
    /// commit: it is killed once it has the store open (before any write) and as soon as its log
    /// grows (amid or just past the commit's pages), and each time the marks are all changed or none.
    @Test(.timeLimit(.minutes(5)))
    func killedMidwayMarksAllOrNothing() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path]).path
        let before = try await Self.makeStore(at: path)
        var marked = before
        marked.unread = 0
        marked.keptUnread = 0

        var killedBeforeItsCommit = 0
        for waitsForTheLog in [false, false, true, true, true] {
            let child = try Subprocess(Self.program.path, ["--mark-read", "all"], environment: Self.environment(dataHome: folder))
            let deadline = Date() + 60
            while Date() < deadline, !(waitsForTheLog ? Self.fileSize(path + "-wal") > 0 : Self.process(child.pid, hasOpen: path)) {
                usleep(100)
            }
            kill(child.pid, SIGKILL)
            let ended = child.wait()

            #expect(DatabaseFileCheck.check(path: path) == nil, "the page check finds the file whole")
            let after = try await Self.contents(at: path)
            #expect(after == before || after == marked, "all marked or none, nothing lost: \(after)")
            if after == before, ended.status == 128 + SIGKILL { killedBeforeItsCommit += 1 }
            if after == marked {
                let store = try FeedStore(path: path)
                try await store.setRead(false, entryIDs: try await store.reading { db in try Int64.fetchAll(db, sql: "SELECT id FROM entries") })
                #expect(try await Self.contents(in: store) == before, "the marks undone")
                try await store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
        }
        #expect(killedBeforeItsCommit > 0, "a kill landed before the marking's commit")

        let finished = await (try Subprocess(Self.program.path, ["--mark-read", "all"], environment: Self.environment(dataHome: folder))).finish()
        #expect(finished.status == 0, "\(finished.errors)")
        #expect(try await Self.contents(at: path) == marked)
    }

    /// `v30-unread-marks` moves every read mark into its own table in one transaction: the
    /// program that runs it at its start is killed once it has the store open and as soon as
    /// the migration's log grows, and the store is either as it was or migrated, every mark kept.
    @Test(.timeLimit(.minutes(5)))
    func killedAmidTheMigrationKeepsEveryMark() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path]).path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v29-bulk-read-marks")
            try await old.write { db in
                try db.execute(sql: "INSERT INTO feeds (url, position) SELECT 'https://feed' || value || '.example/feed.xml', value FROM json_each(?)",
                               arguments: [String(describing: Array(0..<Self.feeds))])
                // Every third entry read.
                try db.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
                    INSERT INTO entries (feedId, entryId, title, isRead, insertedAt, sortDate)
                    SELECT i % ? + 1, 'entry-' || i, 'Entry ' || i, i % 3 = 0, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000' FROM n
                    """, arguments: [Self.entries, Self.feeds])
            }
            try await old.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let read = Set((0..<Self.entries).filter { $0 % 3 == 0 }.map { "entry-\($0)" })

        var killedBeforeItsCommit = 0
        for waitsForTheLog in [false, true, true] {
            let child = try Subprocess(Self.program.path, ["--print-unread"], environment: Self.environment(dataHome: folder))
            let deadline = Date() + 60
            while Date() < deadline, !(waitsForTheLog ? Self.fileSize(path + "-wal") > 0 : Self.process(child.pid, hasOpen: path)) {
                usleep(100)
            }
            kill(child.pid, SIGKILL)
            _ = child.wait()
            #expect(DatabaseFileCheck.check(path: path) == nil, "the page check finds the file whole")
            let migrated = try await DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").contains("v30-unread-marks")
            }
            if !migrated { killedBeforeItsCommit += 1 }
            if migrated { break }
        }
        #expect(killedBeforeItsCommit > 0, "a kill landed before the migration's commit")

        let store = try FeedStore(path: path)
        let entries = try await store.entries(EntryQuery(limit: Self.entries + 1))
        #expect(entries.count == Self.entries)
        #expect(Set(entries.filter(\.isRead).map(\.entryID)) == read, "every read mark kept, no other")
        #expect(try await store.entryCount(unreadOnly: true) == Self.entries - read.count, "the kept counts agree")
    }

    @Test(.timeLimit(.minutes(5)))
    func fullDiskMarksNothingAndSaysSoInTheUsersLanguage() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path]).path
        let before = try await Self.makeStore(at: path)
        let mountPoint = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)

        // A disk of the store's size and a little more, filled but for some room: from too little
        // to open the store for writing to enough for the marking's few pages (since v30), the
        // disk filling at its commit between. A fresh disk each time, the store copied there.
        let size = (try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            .map { Self.fileSize(((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent($0)) }.reduce(0, +))
        let script = """
            set -e
            for free in 40960 49152 57344 65536 73728 81920 98304 131072; do
                mount -t tmpfs -o size=$(( $4 + 4194304 )) tmpfs "$1"
                cp -r "$2/feed-reader" "$1/"
                dd if=/dev/zero of="$1/filler" bs=4096 2>/dev/null || true
                truncate -s -$free "$1/filler"
                set +e
                XDG_DATA_HOME="$1" "$3" --mark-read all 2>"$2/errors-$free"
                status=$?
                set -e
                rm "$1/filler"
                unread=$(XDG_DATA_HOME="$1" "$3" --print-unread | tr -dc 0-9)
                echo "$free $status $unread"
                umount "$1"
            done
            """
        var environment = Self.environment(dataHome: folder)
        environment["LANGUAGE"] = "de"
        let run = await (try Subprocess("/usr/bin/unshare", ["--map-root-user", "--mount", "/bin/sh", "-c", script, "sh",
                                                            mountPoint.path, folder.path, Self.program.path, String(size)],
                                        environment: environment)).finish()
        #expect(run.status == 0, "each disk was mounted and the store read back: \(run.errors)")
        var saidFull = false
        for line in run.output.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 3 else { continue }
            let errors = try String(contentsOf: folder.appendingPathComponent("errors-\(fields[0])"), encoding: .utf8)
            if fields[1] == "0" {
                #expect(fields[2] == "0", "with \(fields[0]) bytes free the marking succeeded whole: \(line)")
            } else {
                #expect(fields[2] == String(Self.entries), "with \(fields[0]) bytes free nothing was marked: \(line)")
                #expect(errors.contains("Der Datenträger ist voll.") || errors.contains("wohin nicht geschrieben werden kann"),
                        "what happened is said in German: \(errors)")
                #expect(!errors.contains("SQLITE"), "no SQLite error in front of the person: \(errors)")
                saidFull = saidFull || errors.contains("Der Datenträger ist voll.")
            }
        }
        #expect(run.output.split(separator: "\n").count == 8, "every amount of room tried: \(run.output)")
        #expect(saidFull, "at one amount of room the marking itself met the full disk: \(run.output)")

        #expect(DatabaseFileCheck.check(path: path) == nil, "the page check finds the file whole")
        #expect(try await Self.contents(at: path) == before, "nothing was marked and nothing lost")
        let again = await (try Subprocess(Self.program.path, ["--mark-read", "all"], environment: Self.environment(dataHome: folder))).finish()
        #expect(again.status == 0, "with room again the marking succeeds: \(again.errors)")
        var marked = before
        marked.unread = 0
        marked.keptUnread = 0
        #expect(try await Self.contents(at: path) == marked)
    }

    /// Garbage over a page of each kind of index: found by the start's check of the file's top
    /// or, deeper, by the whole file's check once the store is in use (the window runs it once
    /// its entries show), the file is set aside at the next opening and every row is kept.
    @Test(.timeLimit(.minutes(5)), arguments: ["entries_by_feed_and_date", "entries_by_date", "entries_search_data"])
    func aDamagedIndexIsRepairedWithNothingLost(_ index: String) async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path])
        let before = try await Self.makeStore(at: url.path)
        let page = try Self.damageLeafPage(of: index, in: url)
        let damagedBytes = try Data(contentsOf: url)
        #expect(DatabaseFileCheck.check(path: url.path) != nil, "the page check finds the damage")

        var opened: (store: FeedStore, notice: StorageNotice?)? = try await FeedStore.openHealing(at: url)
        // What the file is when the damage is found: in use, the store wrote to it until then.
        var keptBytes = damagedBytes
        if opened?.notice == nil {
            #expect(DatabaseFileCheck.check(path: url.path, extent: .atStart) == nil, "only damage past the start's check opens unnoticed")
            let found = await opened?.store.checkPages()
            #expect(found?.contains("page \(page)") == true, "the whole check finds it: \(String(describing: found))")
            // Closed before the next opening, as the next start finds it.
            opened = nil
            keptBytes = try Data(contentsOf: url)
            opened = try await FeedStore.openHealing(at: url)
        }
        let (store, notice) = try #require(opened)

        guard case let .repairedDamagedDatabase(keptAt, details) = notice else {
            Issue.record("\(index): \(String(describing: notice))")
            return
        }
        #expect(details.contains("page \(page)"), "the details say where: \(details)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAt)) == keptBytes, "the damaged file is kept as it was found")
        #expect(try await Self.contents(in: store) == before, "every entry, mark and word is kept")
        let integrity = try await store.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        try await store.markAllRead()
        #expect(try await store.entryCount(unreadOnly: true) == 0, "the repaired store is written to")
    }

    /// The command line, which opens without the page check, meets the damaged index when marking
    /// a feed's entries read looks them up in it, says so and leaves the note the next opening
    /// repairs from: all in German. The page damaged is amid the 17th feed's entries (the index is
    /// ordered by feed, and the feeds have as many entries each), not at a boundary between feeds.
    @Test(.timeLimit(.minutes(5)))
    func aDamagedIndexMetInUseIsSaidAndRepairedAtTheNextStart() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = FeedStore.databaseURL(environment: ["XDG_DATA_HOME": folder.path])
        let before = try await Self.makeStore(at: url.path)
        _ = try Self.damageLeafPage(of: "entries_by_feed_and_date", in: url, at: 16.5 / Double(Self.feeds))
        var environment = Self.environment(dataHome: folder)
        environment["LANGUAGE"] = "de"

        let marking = await (try Subprocess(Self.program.path, ["--mark-read", "https://feed16.example/feed.xml"],
                                            environment: environment)).finish()
        #expect(marking.status == 1)
        #expect(marking.errors.contains("Die Feed-Datenbank ist beschädigt"), "said in German: \(marking.errors)")
        #expect(!marking.errors.contains("SQLITE"), "no SQLite error in front of the person: \(marking.errors)")

        let counting = await (try Subprocess(Self.program.path, ["--print-unread"], environment: environment)).finish()
        #expect(counting.status == 0, "\(counting.errors)")
        #expect(counting.errors.contains("wurde repariert"), "the repair is said in German: \(counting.errors)")
        #expect(counting.output.contains("\(Self.entries)"), "every entry is still unread: \(counting.output)")
        #expect(try await Self.contents(at: url.path) == before, "every entry, mark and word is kept")
        let again = await (try Subprocess(Self.program.path, ["--mark-read", "all"], environment: environment)).finish()
        #expect(again.status == 0, "the repaired store is written to: \(again.errors)")
    }

    /// Overwrites a leaf page of `index`, the one at `fraction` of its leaves in order, with bytes
    /// that are no b-tree page.
    static func damageLeafPage(of index: String, in url: URL, at fraction: Double = 0.5) throws -> Int {
        let pages = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", arguments: [index])
        }
        let page = try #require(pages.dropFirst(Int(Double(pages.count) * fraction)).first, "\(index) has leaf pages")
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64((page - 1) * 4096))
        try handle.write(contentsOf: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 13) }))
        try handle.close()
        return page
    }

    /// The store of `feeds` × `entriesPerFeed` unread entries, one in ten starred, with its log
    /// folded into the file; returns what it holds.
    static func makeStore(at path: String) async throws -> Contents {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let store = try FeedStore(path: path)
        let text = String(repeating: "<p>An entry with a <b>long</b> body, as feeds carry them, for the marking to rewrite.</p> ", count: 6)
        for feed in 0..<feeds {
            let stored = try await store.addFeed(url: URL(string: "https://feed\(feed).example/feed.xml")!)
            let entries = (0..<entriesPerFeed).map {
                Entry(id: "entry-\($0)", title: "Entry \(feed)-\($0) marmalade", published: Date() - Double($0) * 60, content: text)
            }
            try await store.apply(FetchResult(request: stored.request, outcome: .fetched(
                ParsedFeed(format: .rss, feed: Feed(id: "feed\(feed)", title: "Feed \(feed)"), entries: entries),
                validators: CacheValidators())), toFeed: stored.id)
        }
        try await store.database.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE entries SET isStarred = 1 WHERE id % 10 = 0")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let contents = try await contents(in: store)
        #expect(contents == Contents(entries: entries, unread: entries, keptUnread: entries, starred: entries / 10, searchable: entries))
        return contents
    }

    static func contents(at path: String) async throws -> Contents {
        let store = try FeedStore(path: path)
        let integrity = try await store.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        let contents = try await contents(in: store)
        // An empty log again, so the next kill waits for the next run's own writes.
        try await store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return contents
    }

    static func contents(in store: FeedStore) async throws -> Contents {
        // As a search does first: a repaired store's entries wait in the search backlog.
        try await store.indexSearchBacklog()
        return try await store.database.read { db in
            Contents(entries: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") ?? -1,
                     unread: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries WHERE id IN (SELECT id FROM unreadEntries)") ?? -1,
                     keptUnread: try Int.fetchOne(db, sql: "SELECT SUM(unread) FROM feedUnreadCounts") ?? -1,
                     starred: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries WHERE isStarred = 1") ?? -1,
                     searchable: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries_search WHERE entries_search MATCH 'marmalade'") ?? -1)
        }
    }

    /// The reader's environment with its data in `dataHome` and its other folders beside it.
    static func environment(dataHome: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "LANGUAGE"] { environment[name] = nil }
        environment["LANG"] = "C.UTF-8"
        environment["XDG_DATA_HOME"] = dataHome.path
        for (name, folder) in [("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")] {
            environment[name] = dataHome.appendingPathComponent(folder).path
        }
        return environment
    }

    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mark-all-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Whether the process `pid` has the file at `path` open, as its `/proc` folder lists it.
    static func process(_ pid: pid_t, hasOpen path: String) -> Bool {
        let descriptors = "/proc/\(pid)/fd", file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == file
        }
    }

    static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
