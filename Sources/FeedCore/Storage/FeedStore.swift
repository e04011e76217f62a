import Foundation
import GRDB
import Synchronization

/// The reader's subscriptions and entries, kept in SQLite.
///
/// Every method is `async` and runs on GRDB's own queues, so calling from a task started on the
/// GTK main thread never blocks it. The store is `Sendable`: share one instance across tasks.
public final class FeedStore: Sendable {
    let database: any DatabaseWriter
    /// The OPML copy of the subscriptions kept beside the database, rewritten after every change
    /// to them, so a damaged database never loses the list; nil for a store in memory.
    public let subscriptionsCopyURL: URL?
    /// Why the database was found damaged while in use; from then on nothing is written to it.
    private let damage = Mutex<String?>(nil)

    init(database: any DatabaseWriter, subscriptionsCopyURL: URL?) throws {
        self.database = database
        self.subscriptionsCopyURL = subscriptionsCopyURL
        try database.writeWithoutTransaction { db in
            // The setting needs a VACUUM once the file exists (WAL mode has written it): instant while
            // there are no tables. A database with tables switches at its first compaction.
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0 {
                try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL; VACUUM")
            }
        }
        try FeedStore.migrator.migrate(database)
    }

    /// Opens (creating if needed) the store at `path`, in WAL mode so reads do not wait for writes.
    public convenience init(path: String) throws {
        try self.init(path: path, busyTimeout: FeedStore.busyTimeout)
    }

    /// Opens the store at `path`, waiting at most `busyTimeout` for another program's lock.
    convenience init(path: String, busyTimeout: TimeInterval) throws {
        try self.init(database: DatabasePool(path: path, configuration: FeedStore.configuration(busyTimeout: busyTimeout)),
                      subscriptionsCopyURL: FeedStore.subscriptionsCopyURL(forDatabaseAt: path))
    }

    /// Where the subscriptions' OPML copy of the database at `path` is kept: `feeds.opml` beside `feeds.sqlite`.
    public static func subscriptionsCopyURL(forDatabaseAt path: String) -> URL {
        URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("opml")
    }

    /// Where a store that found its database damaged in use leaves a note, so the next start
    /// moves the file aside even when its pages look whole.
    public static func damageNoteURL(forDatabaseAt path: String) -> URL {
        URL(fileURLWithPath: path + ".damaged")
    }

    /// The reason the database was found damaged while in use, or nil.
    public var damageFound: String? { damage.withLock { $0 } }

    /// Reads through the damage guard (see `writing`).
    func reading<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try await guardingDamage { try await self.database.read(body) }
    }

    /// Writes unless the database was found damaged; SQLite finding it damaged now refuses every
    /// later write and leaves the note the next start acts on. A write that found the database
    /// busy even after waiting (`busyTimeout`) is tried once more: it was rolled back whole.
    func writing<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        if let reason = damageFound { throw FeedStoreError.damaged(reason) }
        let result = try await retryingBusy { try await self.guardingDamage { try await self.database.write(body) } }
        await emptyLargeLog()
        return result
    }

    /// Like `writing`, outside a transaction: for statements SQLite runs only there, such as VACUUM.
    func writingWithoutTransaction<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        if let reason = damageFound { throw FeedStoreError.damaged(reason) }
        let result = try await retryingBusy { try await self.guardingDamage { try await self.database.writeWithoutTransaction(body) } }
        await emptyLargeLog()
        return result
    }

    private func retryingBusy<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch FeedStoreError.busy {
            return try await operation()
        }
    }

    /// Runs `operation`, turning SQLite's errors a person can act on into `FeedStoreError`s:
    /// damage (which also refuses every later write), a database busy too long, a full disk, a
    /// file that cannot be written. Only damage ever sets a database aside.
    private func guardingDamage<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch let error as DatabaseError where FeedStore.damages(error) {
            let reason = "\(error.resultCode): \(error.message ?? "")"
            recordDamage(reason)
            throw FeedStoreError.damaged(reason)
        } catch let error as DatabaseError {
            throw FeedStoreError(refusal: error) ?? error
        }
    }

    /// Refuses every later write, and leaves the note the next opening heals from (the first
    /// reason found is the one kept).
    func recordDamage(_ reason: String) {
        let isFirst = damage.withLock { found in
            defer { found = found ?? reason }
            return found == nil
        }
        if isFirst, subscriptionsCopyURL != nil {
            try? Data(reason.utf8).write(to: FeedStore.damageNoteURL(forDatabaseAt: database.path))
        }
    }

    /// Whether `error` says the database file is damaged.
    static func damages(_ error: DatabaseError) -> Bool {
        [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode)
    }

    /// How long a statement waits for another connection or program to release the database
    /// before it gives up as busy: longer than any write the reader makes takes.
    static let busyTimeout: TimeInterval = 10

    /// The page cache of the connection that writes, in KiB.
    static let writerCacheKiB = 500

    /// Every connection has the SQL functions the search index's triggers and the search call.
    static var configuration: Configuration { configuration(busyTimeout: busyTimeout) }

    /// The configuration, waiting at most `busyTimeout` for a lock another connection holds.
    static func configuration(busyTimeout: TimeInterval) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // Each statement that stores an entry also writes the search index through its
            // triggers, so SQLite keeps a statement journal of the pages it touches: kept in a
            // file, that was two writes a page, most of a sync's writes (about 25 an article).
            // In memory it is one entry's pages at a time; VACUUM (compact) asks for a file.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // The writer appends: the pages it reads again are the B-trees' right edges and the
            // search index's newest segments. SQLite's default 2 MB cache only raised a sync's
            // peak memory, by 1.5 MB, for no time saved (docs/performance.md, Sync); readers keep it.
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA cache_size = -\(writerCacheKiB)")
                // The log's file shrinks back to this after a checkpoint (FeedStore+Log).
                try db.execute(sql: "PRAGMA journal_size_limit = \(logSizeLimit)")
            }
            db.add(function: FeedStore.plainTextFunction)
            db.add(function: FeedStore.summaryFunction)
            db.add(function: FeedStore.searchDeferredFunction)
            db.add(function: FeedStore.markingInBulkFunction)
            try FeedStore.addSearchRanking(to: db)
            try FeedStore.addIndexedWords(to: db)
        }
        return configuration
    }

    /// Opens the store in the user's data directory: `$XDG_DATA_HOME/<appDirectory>/feeds.sqlite`,
    /// or `~/.local/share/<appDirectory>/feeds.sqlite` when `XDG_DATA_HOME` is unset.
    public convenience init(appDirectory: String = "feed-reader", environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let url = FeedStore.databaseURL(appDirectory: appDirectory, environment: environment)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try self.init(path: url.path)
    }

    /// A store that lives only in memory, for tests and previews.
    public static func inMemory() throws -> FeedStore {
        try FeedStore(database: DatabaseQueue(configuration: FeedStore.configuration), subscriptionsCopyURL: nil)
    }

    /// Where `init(appDirectory:environment:)` keeps the database, following the XDG base directory spec.
    public static func databaseURL(appDirectory: String = "feed-reader", environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let dataHome: URL
        // The spec says relative values are invalid and must be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        } else {
            dataHome = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome.appendingPathComponent(appDirectory, isDirectory: true).appendingPathComponent("feeds.sqlite")
    }

    /// The identifiers of the schema migrations applied, oldest first.
    public func appliedMigrations() async throws -> [String] {
        try await reading { db in try FeedStore.migrator.appliedMigrations(db) }
    }
}
