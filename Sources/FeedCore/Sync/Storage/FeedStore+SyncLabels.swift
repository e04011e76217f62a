import Foundation
import GRDB

extension FeedStore {
    /// Gives the account's stored entries the server's labels, in one transaction: an entry has
    /// a label the server decides on exactly when the server lists it among the label's articles.
    /// The server decides on the labels it lists, and on every label when `coversEveryLabel`. An
    /// entry with a change of that label waiting in the queue keeps the label as it is here. A
    /// label new here is made only when some stored entry gets it. Returns the links that changed.
    func applyLabels(_ labels: RemoteLabels, accountID: Int64) async throws -> Int {
        try await writing { db in
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS syncLabels (name TEXT NOT NULL, remoteId TEXT NOT NULL, PRIMARY KEY (name, remoteId)) WITHOUT ROWID;
                CREATE TEMP TABLE IF NOT EXISTS syncLabelNames (name TEXT PRIMARY KEY) WITHOUT ROWID;
                DELETE FROM syncLabels; DELETE FROM syncLabelNames;
                """)
            let addName = try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncLabelNames (name) VALUES (?)")
            let addLink = try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncLabels (name, remoteId) VALUES (?, ?)")
            for (name, ids) in labels.articles {
                try addName.execute(arguments: [name])
                for id in ids { try addLink.execute(arguments: [name, id]) }
            }
            // Whether a change of the label named by the column `name` on the entry waits in the queue.
            func queued(_ name: String) -> String {
                """
                EXISTS (SELECT 1 FROM syncQueue WHERE accountId = ?1 AND remoteId = entries.remoteId
                        AND action IN ('label', 'unlabel') AND argument = \(name))
                """
            }
            try db.execute(sql: """
                INSERT OR IGNORE INTO labels (name)
                SELECT DISTINCT syncLabels.name FROM syncLabels
                JOIN entries ON entries.remoteId = syncLabels.remoteId JOIN feeds ON feeds.id = entries.feedId AND feeds.accountId = ?1
                WHERE NOT \(queued("syncLabels.name"))
                """, arguments: [accountID])
            try db.execute(sql: """
                DELETE FROM entryLabels WHERE (entryId, labelId) IN (
                    SELECT entryLabels.entryId, entryLabels.labelId FROM entryLabels
                    JOIN labels ON labels.id = entryLabels.labelId
                    JOIN entries ON entries.id = entryLabels.entryId JOIN feeds ON feeds.id = entries.feedId AND feeds.accountId = ?1
                    WHERE entries.remoteId IS NOT NULL AND (?2 OR labels.name IN (SELECT name FROM syncLabelNames))
                      AND NOT EXISTS (SELECT 1 FROM syncLabels WHERE name = labels.name AND remoteId = entries.remoteId)
                      AND NOT \(queued("labels.name")))
                """, arguments: [accountID, labels.coversEveryLabel])
            var changed = db.changesCount
            try db.execute(sql: """
                INSERT OR IGNORE INTO entryLabels (entryId, labelId)
                SELECT entries.id, labels.id FROM syncLabels JOIN labels ON labels.name = syncLabels.name
                JOIN entries ON entries.remoteId = syncLabels.remoteId JOIN feeds ON feeds.id = entries.feedId AND feeds.accountId = ?1
                WHERE NOT \(queued("syncLabels.name"))
                """, arguments: [accountID])
            changed += db.changesCount
            try db.execute(sql: "DELETE FROM syncLabels; DELETE FROM syncLabelNames")
            return changed
        }
    }
}
