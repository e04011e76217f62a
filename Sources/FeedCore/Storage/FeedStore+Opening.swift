import Foundation
import GRDB

/// What opening the store found wrong and did about it, for the window to tell the person.
public enum StorageNotice: Sendable, Equatable {
    /// The database was damaged or unreadable: it was moved to `keptAt`, untouched, a new one
    /// was made, and `recovered` subscriptions were restored from `source` (nil: none found).
    case replacedDamagedDatabase(keptAt: String, recovered: Int, source: RecoverySource?, details: String)
    /// The database was damaged only where it can be made again (an index, the search index, or
    /// damage SQLite met in use): it was moved to `keptAt`, untouched, and every row of its tables
    /// was copied into a new one, so nothing was lost.
    case repairedDamagedDatabase(keptAt: String, details: String)
    /// The data folder can be read but not written: the reader runs on a copy in memory and
    /// keeps no changes; `recovered` subscriptions were read from the database or its copy.
    case folderReadOnly(folder: String, recovered: Int, details: String)
    /// The data folder could not be made: the reader runs in memory and keeps nothing.
    case folderUnavailable(folder: String, details: String)

    /// What went wrong in technical terms, for the details the window shows on request.
    public var details: String {
        switch self {
        case let .replacedDamagedDatabase(_, _, _, details), let .repairedDamagedDatabase(_, details), let .folderReadOnly(_, _, details),
             let .folderUnavailable(_, details): details
        }
    }
}

/// Where recovered subscriptions came from.
public enum RecoverySource: Sendable, Equatable {
    case damagedDatabase
    case subscriptionsCopy
}

extension FeedStore {
    /// Opens the store at `url`, healing what can be healed, and never writing to a damaged file.
    ///
    /// A database that fails the page check of its top (`DatabaseFileCheck.Extent.atStart`; the
    /// rest is read by `checkPages()` once the store is in use), that a previous run or check
    /// found damaged, or that SQLite calls damaged is renamed aside with the time in its name, a
    /// new one is made, and the subscriptions are read back from the old file (opened read-only
    /// and immutable) or else from the OPML copy kept beside it. A folder that cannot be written
    /// or made leaves the reader running on a store in memory. Throws only when not even a store
    /// in memory can be made, or with `FeedStoreError.busy` when another program held the database
    /// longer than `busyTimeout`. `started` is the page check begun earlier for the same file, if any.
    /// Without `checkingPages` there is no page check: for the command line's one-shot commands,
    /// which would read the whole file at every run (0.76 s before a sync of 20,000 articles under
    /// load); damage SQLite finds in use still leaves the note that the next opening heals from.
    public static func openHealing(at url: URL, now: Date = Date(), started: DatabaseFileCheck.Started? = nil,
                                   checkingPages: Bool = true) async throws -> (store: FeedStore, notice: StorageNotice?) {
        let folder = url.deletingLastPathComponent()
        let path = url.path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return (try inMemory(), .folderUnavailable(folder: folder.path, details: "\(folder.path): \(reason(error))"))
        }
        let damageNote = damageNoteURL(forDatabaseAt: path)
        var problem: String?
        if let note = try? String(contentsOf: damageNote, encoding: .utf8) {
            if FileManager.default.fileExists(atPath: path) {
                problem = "found damaged while in use: \(note)"
            } else {
                // The file it was about is gone (moved or deleted by hand): nothing to heal.
                try? FileManager.default.removeItem(at: damageNote)
            }
        }
        if problem == nil, checkingPages {
            let found = if let started, started.path == path {
                await started.problem
            } else {
                DatabaseFileCheck.check(path: path, extent: .atStart)
            }
            problem = found?.description
        }
        guard access(folder.path, W_OK) == 0 else {
            let readOnly = "\(folder.path): \(String(cString: strerror(errno)))"
            return try await readOnlyCopy(of: path, details: problem.map { "\(path): \($0)\n\(readOnly)" } ?? readOnly)
        }
        if problem == nil {
            do {
                let store = try FeedStore(path: path)
                if !FileManager.default.fileExists(atPath: subscriptionsCopyURL(forDatabaseAt: path).path) {
                    await store.saveSubscriptionsCopy()
                }
                return (store, nil)
            } catch let error as DatabaseError where !damages(error) {
                // Only damage sets a database aside: one another program keeps busy is whole,
                // and one that cannot be written is read as a folder that cannot be.
                if let refusal = FeedStoreError(refusal: error), case .busy = refusal { throw refusal }
                return try await readOnlyCopy(of: path, details: "\(path): \(reason(error))")
            } catch {
                problem = reason(error)
            }
        }
        let details = "\(path): \(problem ?? "")"
        guard let keptAt = moveAside(path, now: now) else {
            return try await readOnlyCopy(of: path, details: details)
        }
        try? FileManager.default.removeItem(at: damageNote)
        if let repaired = await copyTables(of: keptAt, into: path) {
            return (repaired, .repairedDamagedDatabase(keptAt: keptAt, details: details))
        }
        let store: FeedStore
        do {
            store = try FeedStore(path: path)
        } catch {
            return try await readOnlyCopy(of: keptAt, details: details + "\n" + reason(error))
        }
        let (subscriptions, source) = recoverSubscriptions(from: keptAt, copy: subscriptionsCopyURL(forDatabaseAt: path))
        let added = (try? await store.addSubscriptions(subscriptions).added.count) ?? 0
        return (store, .replacedDamagedDatabase(keptAt: keptAt, recovered: added, source: source, details: details))
    }

    /// A new store at `path` holding every row of every table of the damaged database at `keptAt`,
    /// when they can all be read: each table is read through its own pages alone (`NOT INDEXED`,
    /// and a column list, so SQLite cannot copy an index's pages as they are), and every index is
    /// built anew, the search index from the backlog the next search or `indexSearchBacklog`
    /// takes. Nil, with nothing left at `path`, when a table's pages are damaged too or the file
    /// is of another version of the schema.
    private static func copyTables(of keptAt: String, into path: String) async -> FeedStore? {
        let created = ["-wal", "-shm"].filter { !FileManager.default.fileExists(atPath: keptAt + $0) }
        defer {
            // Those SQLite made beside the damaged file to read it; the file itself is never written.
            for suffix in created { try? FileManager.default.removeItem(atPath: keptAt + suffix) }
        }
        do {
            let store = try FeedStore(path: path)
            let escaped = keptAt.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? keptAt
            try await store.database.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS damaged", arguments: ["file:\(escaped)?mode=ro"])
                defer { try? db.execute(sql: "DETACH DATABASE damaged") }
                func migrations(_ schema: String) throws -> [String] {
                    try String.fetchAll(db, sql: "SELECT identifier FROM \(schema).grdb_migrations ORDER BY identifier")
                }
                guard try migrations("damaged") == migrations("main") else {
                    throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "the damaged database has another schema version")
                }
                // The rows go in as they were, in any order: references held before the damage.
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                try db.inTransaction {
                    // The search index and its backlog are made by the rows' own triggers, the
                    // entries' first, so a full article's text joins its entry's in the index.
                    let schema = try Row.fetchAll(db, sql: "SELECT name, sql FROM main.sqlite_master WHERE type = 'table'")
                    let virtual = schema.filter { ($0["sql"] as String? ?? "").hasPrefix("CREATE VIRTUAL") }.map { $0["name"] as String }
                    let others = schema.map { $0["name"] as String }.filter { name in
                        !name.hasPrefix("sqlite_") && !["grdb_migrations", "searchBacklog", "entries", "feedUnreadCounts"].contains(name)
                            && !virtual.contains { name == $0 || name.hasPrefix($0 + "_") }
                    }
                    for table in ["entries"] + others {
                        let columns = try db.columns(in: table).map { $0.name.quotedDatabaseIdentifier }.joined(separator: ", ")
                        let quoted = table.quotedDatabaseIdentifier
                        try db.execute(sql: "DELETE FROM main.\(quoted)")
                        // The entries wait in the search backlog, as a sync's do, for one statement
                        // to index them (`indexSearchBacklog`): filling the index row by row is
                        // most of what storing an entry costs (docs/performance.md, Sync).
                        try FeedStore.$deferringSearchIndex.withValue(true) {
                            try db.execute(sql: "INSERT INTO main.\(quoted) (\(columns)) SELECT \(columns) FROM damaged.\(quoted) NOT INDEXED")
                        }
                    }
                    // The counts are counted again from the rows copied, not taken from the damaged file.
                    try FeedStore.recountUnread(in: db)
                    // New rows take ids after the removed ones', as they would have.
                    try db.execute(sql: """
                        UPDATE main.sqlite_sequence SET seq = MAX(seq, COALESCE(
                            (SELECT seq FROM damaged.sqlite_sequence AS old WHERE old.name = main.sqlite_sequence.name), 0))
                        """)
                    return .commit
                }
            }
            return store
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            return nil
        }
    }

    /// A store in memory holding what can be read of the database at `path`: all of it when
    /// SQLite can copy it, else the subscriptions. Nothing at `path` is written.
    private static func readOnlyCopy(of path: String, details: String) async throws -> (store: FeedStore, notice: StorageNotice?) {
        let memory = try DatabaseQueue(configuration: configuration)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if DatabaseFileCheck.check(path: path) == nil, let source = try? immutableDatabase(at: path), (try? source.backup(to: memory)) != nil,
           let store = try? FeedStore(database: memory, subscriptionsCopyURL: nil) {
            let count = (try? await store.feeds().count) ?? 0
            return (store, .folderReadOnly(folder: folder, recovered: count, details: details))
        }
        let store = try inMemory()
        let copy = subscriptionsCopyURL(forDatabaseAt: path)
        let (subscriptions, _) = recoverSubscriptions(from: path, copy: copy)
        let added = (try? await store.addSubscriptions(subscriptions).added.count) ?? 0
        return (store, .folderReadOnly(folder: folder, recovered: added, details: details))
    }

    /// The subscriptions of the database at `path` read without writing to it, else those of the OPML copy.
    static func recoverSubscriptions(from path: String, copy: URL) -> ([OPMLDocument.Subscription], RecoverySource?) {
        if let database = try? immutableDatabase(at: path),
           let document = try? database.read({ db in try subscriptionsDocument(in: db) }), !document.subscriptions.isEmpty {
            return (document.subscriptions, .damagedDatabase)
        }
        if let data = try? Data(contentsOf: copy), let document = try? OPMLDocument(data: data, allowingLocalFiles: true),
           !document.subscriptions.isEmpty {
            return (document.subscriptions, .subscriptionsCopy)
        }
        return ([], nil)
    }

    /// The database at `path` opened read-only as an immutable file: SQLite takes no lock, makes
    /// no journal or shared memory beside it and never writes to it.
    private static func immutableDatabase(at path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        // SQLite refuses a file shorter than its header says unless the schema is "writable";
        // on a read-only immutable connection that only lets the pages that are there be read.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA writable_schema = ON") }
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration)
    }

    /// Renames the database and its log aside as `feeds-damaged-<time>.sqlite`; returns the new
    /// path, or nil when it could not be moved.
    private static func moveAside(_ path: String, now: Date) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let url = URL(fileURLWithPath: path)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        let stem = url.deletingPathExtension().lastPathComponent + "-damaged-" + formatter.string(from: now)
        var target = url.deletingLastPathComponent().appendingPathComponent(stem).appendingPathExtension(url.pathExtension)
        var attempt = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = url.deletingLastPathComponent().appendingPathComponent("\(stem)-\(attempt)").appendingPathExtension(url.pathExtension)
            attempt += 1
        }
        guard rename(path, target.path) == 0 else { return nil }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            _ = rename(path + suffix, target.path + suffix)
        }
        return target.path
    }

    /// The system's words for why a file operation failed, without Foundation's error dump.
    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let database = error as? DatabaseError { return "\(database.resultCode): \(database.message ?? "")" }
        return "\(error)"
    }
}
