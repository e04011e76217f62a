import Foundation
import GRDB

/// The reader's subscriptions and entries, kept in SQLite.
///
/// Every method is `async` and runs on GRDB's own queues, so calling from a task started on the
/// GTK main thread never blocks it. The store is `Sendable`: share one instance across tasks.
public final class FeedStore: Sendable {
    let database: any DatabaseWriter

    private init(database: any DatabaseWriter) throws {
        self.database = database
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
        try self.init(database: DatabasePool(path: path, configuration: FeedStore.configuration))
    }

    /// Every connection has the SQL functions the search index's triggers call.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: FeedStore.plainTextFunction) }
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
        try FeedStore(database: DatabaseQueue(configuration: FeedStore.configuration))
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
        try await database.read { db in try FeedStore.migrator.appliedMigrations(db) }
    }
}
