import Foundation
import GRDB

/// The write-ahead log (`feeds.sqlite-wal`): every commit lands there first and SQLite copies it
/// into the database in checkpoints, but never shrinks the file by itself. Left at the size of the
/// largest transaction (Mark All as Read on a million entries wrote 500 MB), it was read whole
/// again at every start before the first frame. A commit in the log is as safe as one in the
/// database: a process killed at any point loses nothing committed (StoreLogTests).
extension FeedStore {
    /// The size the log file is cut back to once checkpointed (`journal_size_limit`), and past
    /// which a write empties it at once: 32 MiB, eight times the log between SQLite's own
    /// checkpoints (1,000 pages), so that an ordinary sync's commits never reach it.
    static let logSizeLimit = 32 << 20

    /// Closes the store: the log is copied into the database and emptied, so that the next start
    /// reads nothing of it, then every connection closes. Waits for the write under way; a read
    /// or write asked for afterwards fails. For the end of the program (the window's quit, a
    /// command's end).
    public func close() throws {
        try database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try database.close()
    }

    /// After a write that left the log past `logSizeLimit` (a big write: Mark All as Read, its
    /// Undo, a clean-up, an initial sync's pages), copies it into the database and empties it.
    /// Waits for no reader: with one still reading the log the file is left for the next write
    /// (SQLite cuts it back to the limit at its next checkpoint).
    func emptyLargeLog() async {
        guard Self.fileSize(atPath: database.path + "-wal") > Self.logSizeLimit else { return }
        try? await database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(FeedStore.busyTimeout(of: db) * 1000))") }
            try db.checkpoint(.truncate)
        }
    }

    /// How long `db` waits for a lock, as configured.
    private static func busyTimeout(of db: Database) -> TimeInterval {
        if case let .timeout(seconds) = db.configuration.busyMode { return seconds }
        return 0
    }

    private static func fileSize(atPath path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
