import Foundation
import GRDB
import Testing
@testable import FeedCore
import func TestSupport.withReadOnlyFolder

@Suite("A damaged store heals and tells")
struct StoreHealingTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let feedURLs = [URL(string: "https://one.example/feed")!, URL(string: "https://two.example/feed")!]

    /// A closed store with two feeds, the second in the folder "News", and their entries.
    static func closedStore(in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("feeds.sqlite")
        let store = try FeedStore(path: url.path)
        for (index, feedURL) in feedURLs.enumerated() {
            let feed = try await store.addFeed(url: feedURL)
            let entries = (0..<300).map { Entry(id: "\($0)", title: "Entry \($0)", summary: String(repeating: "words ", count: 40)) }
            try await store.apply(fetched(entries, title: "Feed \(index)"), toFeed: feed.id)
            if index == 1 { try await store.moveFeed(feed.id, toFolder: try await store.createFolder(named: "News")) }
        }
        return url
    }

    static func damage(_ url: URL, by fault: Fault) throws {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        switch fault {
        case .truncated:
            try FileHandle(forWritingTo: url).truncate(atOffset: UInt64(size / 2))
        case .garbageFirstPage:
            try DatabaseFileCheckTests.overwrite(url.path, at: 0, count: 4096)
        case .garbageMidTable:
            let pages = try DatabaseFileCheckTests.leafPages(of: "entries", path: url.path)
            try DatabaseFileCheckTests.overwrite(url.path, at: (pages[pages.count / 2] - 1) * 4096, count: 4096)
        case .garbageIndexPage:
            let pages = try DatabaseFileCheckTests.leafPages(of: "entries_by_date", path: url.path)
            try DatabaseFileCheckTests.overwrite(url.path, at: (pages[pages.count / 2] - 1) * 4096, count: 4096)
        case .foundDamagedInUse:
            try Data("SQLITE_CORRUPT: database disk image is malformed".utf8).write(to: FeedStore.damageNoteURL(forDatabaseAt: url.path))
        }
    }

    enum Fault: CaseIterable {
        case truncated, garbageFirstPage, garbageMidTable, foundDamagedInUse, garbageIndexPage

        static let losingRows = allCases.filter { !$0.keepsEveryRow }
        /// Whether every table's rows can still be read, so the store is repaired, not replaced.
        var keepsEveryRow: Bool { self == .foundDamagedInUse || self == .garbageIndexPage }

        /// Where the subscriptions come back from: page 1 holds the schema, so without it only the copy is left.
        var source: RecoverySource { self == .garbageFirstPage ? .subscriptionsCopy : .damagedDatabase }
    }

    /// With `checkStartedEarly`, the page check runs ahead of the opening, as the app starts it while GTK starts.
    @Test(arguments: Fault.losingRows, [false, true])
    func aDamagedDatabaseIsKeptAsideByteForByteAndItsSubscriptionsComeBack(_ fault: Fault, checkStartedEarly: Bool) async throws {
        let directory = try temporaryDirectory()
        let url = try await Self.closedStore(in: directory)
        try Self.damage(url, by: fault)
        let damagedBytes = try Data(contentsOf: url)
        let started = checkStartedEarly ? DatabaseFileCheck.Started(path: url.path) : nil

        let (store, notice) = try await FeedStore.openHealing(at: url, now: Self.now, started: started)

        guard case let .replacedDamagedDatabase(keptAt, recovered, source, details) = notice else {
            Issue.record("\(fault): \(String(describing: notice))")
            return
        }
        #expect(URL(fileURLWithPath: keptAt).deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(URL(fileURLWithPath: keptAt).lastPathComponent.hasPrefix("feeds-damaged-20"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAt)) == damagedBytes, "the damaged file is kept as it was")
        #expect(recovered == 2)
        #expect(source == fault.source)
        #expect(details.contains(url.path))
        let feeds = try await store.feeds()
        #expect(feeds.map(\.url) == Self.feedURLs)
        #expect(try await store.folders().map(\.name) == ["News"])
        #expect(feeds.map { $0.folderID != nil } == [false, true])
        #expect(DatabaseFileCheck.check(path: url.path) == nil)
        #expect(!FileManager.default.fileExists(atPath: FeedStore.damageNoteURL(forDatabaseAt: url.path).path))
        try await store.addFeed(url: URL(string: "https://three.example/feed")!)
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAt)) == damagedBytes, "nothing is written to it after")
    }

    /// Damage to an index, or met in use in a file whose tables read whole: the file is set aside
    /// as it was and every row is copied into a new one, the indexes built anew.
    @Test(arguments: Fault.allCases.filter(\.keepsEveryRow), [false, true])
    func aDatabaseWhoseTablesReadWholeIsRepairedWithEveryEntryKept(_ fault: Fault, checkStartedEarly: Bool) async throws {
        let directory = try temporaryDirectory()
        let url = try await Self.closedStore(in: directory)
        let marked = try FeedStore(path: url.path)
        try await marked.setRead(true, entryIDs: [1, 2, 3])
        try await marked.setStarred(entryID: 4)
        // Counts gone wrong in the damaged file are counted again from its entries, not copied.
        try await marked.database.write { db in try db.execute(sql: "UPDATE feedUnreadCounts SET unread = 999") }
        try await marked.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try Self.damage(url, by: fault)
        let damagedBytes = try Data(contentsOf: url)
        let started = checkStartedEarly ? DatabaseFileCheck.Started(path: url.path) : nil

        let (store, notice) = try await FeedStore.openHealing(at: url, now: Self.now, started: started)

        guard case let .repairedDamagedDatabase(keptAt, details) = notice else {
            Issue.record("\(fault): \(String(describing: notice))")
            return
        }
        #expect(URL(fileURLWithPath: keptAt).lastPathComponent.hasPrefix("feeds-damaged-20"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAt)) == damagedBytes, "the damaged file is kept as it was")
        #expect(details.contains(url.path))
        #expect(try await store.feeds().map(\.url) == Self.feedURLs)
        #expect(try await store.folders().map(\.name) == ["News"])
        #expect(try await store.entryCount() == 600)
        #expect(try await store.entryCount(unreadOnly: true) == 597)
        #expect(try await store.feeds().map(\.unreadCount) == [297, 300], "each feed's unread count")
        #expect(try await store.entryCount(starredOnly: true) == 1)
        try await store.indexSearchBacklog()
        let found = try await store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries_search WHERE entries_search MATCH 'words'")
        }
        #expect(found == 600, "the search index is made again")
        #expect(DatabaseFileCheck.check(path: url.path) == nil)
        #expect(try await store.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        #expect(!FileManager.default.fileExists(atPath: FeedStore.damageNoteURL(forDatabaseAt: url.path).path))
        let added = try await store.addFeed(url: URL(string: "https://three.example/feed")!)
        #expect(added.id > 2, "new rows take new ids")
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAt)) == damagedBytes, "nothing is written to it after")
    }

    @Test(arguments: [false, true])
    func aWholeStoreOpensWithoutNoticeAndKeepsAnOPMLCopy(checkStartedEarly: Bool) async throws {
        let directory = try temporaryDirectory()
        let url = try await Self.closedStore(in: directory)
        try FileManager.default.removeItem(at: FeedStore.subscriptionsCopyURL(forDatabaseAt: url.path))
        let started = checkStartedEarly ? DatabaseFileCheck.Started(path: url.path) : nil

        let (store, notice) = try await FeedStore.openHealing(at: url, now: Self.now, started: started)

        #expect(notice == nil)
        #expect(try await store.entryCount() == 600)
        let copy = try OPMLDocument(data: Data(contentsOf: FeedStore.subscriptionsCopyURL(forDatabaseAt: url.path)))
        #expect(copy.subscriptions.map(\.url) == Self.feedURLs)
        #expect(copy.subscriptions.map(\.folderPath) == [[], ["News"]])
        #expect(copy.subscriptions.map(\.title) == ["Feed 0", "Feed 1"])
    }

    @Test func theCopyFollowsEveryChangeToTheSubscriptions() async throws {
        let url = try temporaryDirectory().appendingPathComponent("feeds.sqlite")
        let store = try FeedStore(path: url.path)
        let copyURL = FeedStore.subscriptionsCopyURL(forDatabaseAt: url.path)
        func copied() throws -> [String] {
            try OPMLDocument(data: Data(contentsOf: copyURL)).subscriptions.map {
                "\($0.folderPath.isEmpty ? "-" : $0.folderPath.joined(separator: "/")) \($0.url.host ?? "")"
            }
        }

        let first = try await store.addFeed(url: Self.feedURLs[0])
        #expect(try copied() == ["- one.example"])
        let second = try await store.addFeed(url: Self.feedURLs[1])
        let folder = try await store.createFolder(named: "News")
        try await store.moveFeed(second.id, toFolder: folder)
        #expect(try copied() == ["- one.example", "News two.example"])
        try await store.renameFolder(folder, to: "Daily")
        #expect(try copied() == ["- one.example", "Daily two.example"])
        let outer = try await store.createFolder(named: "Reading")
        try await store.moveFolder(folder, into: outer)
        #expect(try copied() == ["- one.example", "Reading/Daily two.example"])
        try await store.moveFolder(folder, into: nil)
        try await store.removeFeed(id: first.id)
        #expect(try copied() == ["Daily two.example"])
        try await store.deleteFolder(folder)
        #expect(try copied() == ["- two.example"])
    }

    @Test(arguments: [false, true])
    func aReadOnlyFolderRunsOnACopyInMemoryAndWritesNothing(damaged: Bool) async throws {
        let directory = try temporaryDirectory()
        let url = try await Self.closedStore(in: directory)
        if damaged { try Self.damage(url, by: .garbageMidTable) }
        let bytes = try Data(contentsOf: url)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()

        let (notice, entries) = try await withReadOnlyFolder(directory) {
            let (store, notice) = try await FeedStore.openHealing(at: url, now: Self.now)
            #expect(try await store.feeds().map(\.url) == Self.feedURLs)
            try await store.addFeed(url: URL(string: "https://three.example/feed")!)
            return (notice, try await store.entryCount())
        }

        guard case let .folderReadOnly(folder, recovered, details) = notice else {
            Issue.record("\(String(describing: notice))")
            return
        }
        #expect(folder == directory.path)
        #expect(recovered == 2)
        #expect(details.contains(directory.path))
        #expect(entries == (damaged ? 0 : 600), "a whole database is copied with its entries, a damaged one gives its subscriptions")
        #expect(try Data(contentsOf: url) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == listing)
    }

    @Test func aNoteLeftAboutADatabaseNoLongerThereIsDropped() async throws {
        let url = try temporaryDirectory().appendingPathComponent("feeds.sqlite")
        let note = FeedStore.damageNoteURL(forDatabaseAt: url.path)
        try Data("SQLITE_CORRUPT".utf8).write(to: note)

        let (store, notice) = try await FeedStore.openHealing(at: url, now: Self.now)

        #expect(notice == nil)
        #expect(!FileManager.default.fileExists(atPath: note.path))
        try await store.addFeed(url: Self.feedURLs[0])
        #expect(FileManager.default.fileExists(atPath: url.path), "a new database in its place")
    }

    @Test func aFolderThatCannotBeMadeRunsInMemory() async throws {
        let file = try temporaryDirectory().appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let url = file.appendingPathComponent("feed-reader/feeds.sqlite")

        let (store, notice) = try await FeedStore.openHealing(at: url, now: Self.now)

        #expect(notice == .folderUnavailable(folder: url.deletingLastPathComponent().path,
                                             details: "\(url.deletingLastPathComponent().path): Not a directory"))
        try await store.addFeed(url: Self.feedURLs[0])
        #expect(try await store.feeds().count == 1)
    }

    /// The command line's commands open without the page check: damage they never read stays
    /// for the next opening that checks, and damage they do read is healed at the next opening.
    @Test func anOpeningWithoutThePageCheckLeavesUnreadDamageToTheNextCheck() async throws {
        let directory = try temporaryDirectory()
        let url = try await Self.closedStore(in: directory)
        try Self.damage(url, by: .garbageMidTable)

        let (unchecked, notice) = try await FeedStore.openHealing(at: url, now: Self.now, checkingPages: false)
        #expect(notice == nil)
        #expect(try await unchecked.feeds().count == 2, "the feeds' pages are whole")
        await #expect(throws: FeedStoreError.self) { try await unchecked.entries(EntryQuery(limit: 1000)) }
        #expect(unchecked.damageFound != nil)

        let (_, healed) = try await FeedStore.openHealing(at: url, now: Self.now, checkingPages: false)
        guard case .replacedDamagedDatabase = healed else {
            Issue.record("the note left in use heals at the next opening: \(String(describing: healed))")
            return
        }
    }

    @Test func damageFoundInUseStopsWritesAndLeavesANote() async throws {
        let directory = try temporaryDirectory()
        let url = try await Self.closedStore(in: directory)
        try Self.damage(url, by: .garbageMidTable)
        let bytes = try Data(contentsOf: url)
        let store = try FeedStore(path: url.path)

        await #expect(throws: FeedStoreError.self) { try await store.entries(EntryQuery(limit: 1000)) }
        let reason = try #require(store.damageFound)
        await #expect(throws: FeedStoreError.damaged(reason)) { try await store.addFeed(url: URL(string: "https://three.example/feed")!) }

        #expect(try String(contentsOf: FeedStore.damageNoteURL(forDatabaseAt: url.path), encoding: .utf8) == reason)
        #expect(try Data(contentsOf: url) == bytes)
    }

    /// Damage past what a start checks opens the store as usual; the check of the whole file
    /// once it is in use finds it, refuses every write from then on, and the next opening
    /// repairs the file with every entry kept, the damaged file kept aside as it was.
    @Test func damagePastTheStartCheckIsFoundInUseAndRepairedAtTheNextOpening() async throws {
        let directory = try temporaryDirectory()
        let url = try await Self.closedStore(in: directory)
        try Self.damage(url, by: .garbageIndexPage)
        let damagedBytes = try Data(contentsOf: url)
        let topOnly = DatabaseFileCheck.Started(path: url.path, extent: .top(pages: 4))

        try await Self.openAndCheckWholeFile(url, started: topOnly, damagedBytes: damagedBytes)

        let (repaired, healed) = try await FeedStore.openHealing(at: url, now: Self.now, started: DatabaseFileCheck.Started(path: url.path))
        guard case .repairedDamagedDatabase = healed else {
            Issue.record("the next opening repairs it: \(String(describing: healed))")
            return
        }
        #expect(try await repaired.entryCount() == 600)
        #expect(await repaired.checkPages() == nil)
    }

    /// Opens the store at `url` through a check of its top (`started`), finds the damage past it
    /// with the whole check, and closes it again, as a window does before the next start.
    private static func openAndCheckWholeFile(_ url: URL, started: DatabaseFileCheck.Started, damagedBytes: Data) async throws {
        let (store, notice) = try await FeedStore.openHealing(at: url, now: Self.now, started: started)
        #expect(notice == nil, "the start reads only the top of the file")
        #expect(try await store.feeds().count == 2)

        let reason = try #require(await store.checkPages())
        #expect(store.damageFound == reason)
        await #expect(throws: FeedStoreError.damaged(reason)) { try await store.addFeed(url: URL(string: "https://three.example/feed")!) }
        #expect(try String(contentsOf: FeedStore.damageNoteURL(forDatabaseAt: url.path), encoding: .utf8) == reason)
        #expect(try Data(contentsOf: url) == damagedBytes, "nothing is written to the damaged file")
    }

    /// The whole check reads the file and its log while the store writes: the checkpoints going
    /// on meanwhile never make a whole store look damaged.
    @Test func aStoreBeingWrittenIsWholeToTheCheck() async throws {
        let directory = try temporaryDirectory()
        let store = try FeedStore(path: directory.appendingPathComponent("feeds.sqlite").path)
        let feed = try await store.addFeed(url: Self.feedURLs[0])
        let writes = Task {
            for round in 0..<40 {
                let entries = (0..<100).map { Entry(id: "\(round)-\($0)", title: "Entry \($0)", summary: String(repeating: "words ", count: 60)) }
                try await store.apply(fetched(entries), toFeed: feed.id)
                if round % 5 == 4 {
                    try await store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(RESTART)") }
                }
            }
        }
        var checks = 0
        while try await store.entryCount() < 4000, checks < 1000 {
            let found = await store.checkPages()
            #expect(found == nil, "\(found ?? "")")
            checks += 1
            if found != nil { break }
        }
        try await writes.value
        #expect(checks > 0, "the checks ran while the store was written")
        #expect(await store.checkPages() == nil)
        #expect(try await store.entryCount() == 4000)
    }
}
