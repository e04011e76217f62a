import Foundation
import GRDB

/// The full-text index read on its own, for GNOME Shell's overview search: each question opens
/// a read-only connection that waits only briefly for a lock and never writes (no migration, no
/// search backlog taken in), so it answers while the window syncs or when no window runs. A
/// database that is missing, damaged, busy or of another schema answers nothing, never an error.
public struct ShellSearch: Sendable {
    /// One entry found, with what a result shows of it.
    public struct Hit: Sendable, Hashable {
        public let id: Int64
        public let title: String?
        /// The feed's name, or its address's host when it has none.
        public let feedTitle: String
        /// The feed's address, which names its icon file (`FeedIcons.file(forFeedAt:in:)`).
        public let feedURL: URL
        /// The date the entry lists by.
        public let date: Date
    }

    public let databasePath: String

    /// How long a question waits for a lock another connection holds before it answers nothing:
    /// the Shell drops a provider that keeps it waiting.
    public static let busyTimeout: TimeInterval = 0.1

    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// The best `limit` entries matching `text`, best first, as the window's search ranks them.
    public func hits(for text: String, limit: Int = 5) -> [Hit] {
        let query = SearchQuery(text)
        guard query.matchExpression != nil else { return [] }
        return read { db in
            guard let match = try FeedStore.matchExpression(of: query, in: db),
                  let within = try FeedStore.condition(of: query, in: db) else { return [] }
            return try Self.hits(db, sql: """
                \(Self.selection) FROM (\(FeedStore.rankedMatches(within: within))) AS hits
                JOIN entries ON entries.id = hits.rowid JOIN feeds ON feeds.id = entries.feedId
                WHERE entries.hiddenByRule IS NULL ORDER BY hits.score DESC, entries.id DESC
                """, arguments: [match, FeedStore.searchCandidates, limit, 0])
        }
    }

    /// The entries of `ids` still stored and not hidden, in the order of `ids`.
    public func hits(ids: [Int64]) -> [Hit] {
        guard !ids.isEmpty else { return [] }
        let found = read { db in
            try Self.hits(db, sql: """
                \(Self.selection) FROM entries JOIN feeds ON feeds.id = entries.feedId
                WHERE entries.id IN (\(ids.map { _ in "?" }.joined(separator: ","))) AND entries.hiddenByRule IS NULL
                """, arguments: StatementArguments(ids))
        }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    private static let selection = "SELECT entries.id, entries.title, entries.sortDate, feeds.title AS feedTitle, feeds.url AS feedURL"

    private static func hits(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Hit] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
            guard let feedURL = row.url("feedURL") else { return nil }
            let feedTitle = (row["feedTitle"] as String?).flatMap { $0.isEmpty ? nil : $0 } ?? feedURL.host ?? feedURL.absoluteString
            return Hit(id: row["id"], title: row["title"], feedTitle: feedTitle, feedURL: feedURL,
                       date: row.utcDate("sortDate") ?? row["sortDate"])
        }
    }

    /// Runs `body` on a new read-only connection; nothing when the database cannot be read.
    private func read(_ body: (Database) throws -> [Hit]) -> [Hit] {
        var configuration = FeedStore.configuration(busyTimeout: Self.busyTimeout)
        configuration.readonly = true
        do {
            return try DatabaseQueue(path: databasePath, configuration: configuration).read(body)
        } catch {
            return []
        }
    }
}
