import Foundation
import GRDB

/// A removed feed as it was stored, with every row its removal deleted (its entries, their
/// full articles and marks, its icon...), so that an undo can put it all back.
public struct RemovedFeed: Sendable {
    /// The rows of one table, all with the same columns.
    struct TableRows: @unchecked Sendable {
        let table: String
        let columns: [String]
        let rows: [[DatabaseValue]]
    }

    /// The feed's identifier, which it keeps when put back.
    public let feedID: Int64
    /// Each table's rows, a table before the tables whose rows refer to it.
    let tables: [TableRows]
}

extension FeedStore {
    /// Removes a local feed as ``removeFeed(id:)`` does, in the same transaction keeping a copy
    /// of every row the removal deletes: the rows of each table that refers to the feed, or to
    /// those rows, with `ON DELETE CASCADE`, found from the schema so that a table added later
    /// comes back too.
    ///
    /// - Throws: `FeedStoreError.feedNotFound` when there is no such feed.
    public func removeFeedKeepingCopy(id: Int64) async throws -> RemovedFeed {
        let removed = try await writing { db in
            let tables = try FeedStore.rowsDeleted(withFeed: id, in: db)
            guard tables.first?.rows.isEmpty == false else { throw FeedStoreError.feedNotFound(id: id) }
            try db.execute(sql: "DELETE FROM feeds WHERE id = ?", arguments: [id])
            return RemovedFeed(feedID: id, tables: tables)
        }
        await saveSubscriptionsCopy()
        return removed
    }

    /// Puts back a feed removed by ``removeFeedKeepingCopy(id:)``, with its entries, their read
    /// and starred states, and its folder when that still exists (else it comes back outside any).
    public func restore(_ removed: RemovedFeed) async throws {
        try await writing { db in
            for table in removed.tables where !table.rows.isEmpty {
                let cleared = try FeedStore.referencesToClear(in: table, db: db)
                let columns = table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                let statement = try db.makeStatement(sql: "INSERT INTO \"\(table.table)\" (\(columns)) VALUES (\(marks))")
                for row in table.rows {
                    var values = row
                    for (index, exists) in cleared where try !exists(values[index]) { values[index] = .null }
                    try statement.execute(arguments: StatementArguments(values))
                }
            }
        }
        await saveSubscriptionsCopy()
    }

    /// The rows that deleting the feed `feedID` deletes, the feed's first, then table by table
    /// along the schema's cascading foreign keys.
    private static func rowsDeleted(withFeed feedID: Int64, in db: Database) throws -> [RemovedFeed.TableRows] {
        let names = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'
            """)
        // Each table's cascading references: (column, parent table, parent column).
        var cascades: [String: [(column: String, parent: String, parentColumn: String)]] = [:]
        for name in names {
            for key in try Row.fetchAll(db, sql: "SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?)", arguments: [name])
            where (key["on_delete"] as String?)?.uppercased() == "CASCADE" {
                cascades[name, default: []].append((key["from"], key["table"], (key["to"] as String?) ?? "id"))
            }
        }
        // Which rows of each table go, as a condition on that table.
        var conditions: [(table: String, condition: String)] = [("feeds", "id = \(feedID)")]
        var index = 0
        while index < conditions.count {
            let parent = conditions[index]
            // The entries put back enter the search index and their feed's unread count as they
            // are inserted (by triggers): a backlog or count row put back with them would count twice.
            for name in names.sorted() where !["searchBacklog", "feedUnreadCounts"].contains(name)
                && !conditions.contains(where: { $0.table == name }) {
                let keys = cascades[name, default: []].filter { $0.parent == parent.table }
                guard !keys.isEmpty else { continue }
                let condition = keys.map { "\"\($0.column)\" IN (SELECT \"\($0.parentColumn)\" FROM \"\(parent.table)\" WHERE \(parent.condition))" }
                    .joined(separator: " OR ")
                conditions.append((name, condition))
            }
            index += 1
        }
        return try conditions.map { table, condition in
            let columns = try db.columns(in: table).map(\.name)
            // An entry put back arrives with the mark it has now, which its trigger files again.
            let selected = columns.map { table == "entries" && $0 == "readOnArrival" ? "NOT \(isUnread)" : "\"\($0)\"" }
                .joined(separator: ", ")
            let rows = try Row.fetchAll(db, sql: "SELECT \(selected) FROM \"\(table)\" WHERE \(condition)")
                .map { row in columns.indices.map { row[$0] as DatabaseValue } }
            return RemovedFeed.TableRows(table: table, columns: columns, rows: rows)
        }
    }

    /// The columns of `table` whose references (`ON DELETE SET NULL`, such as a feed's folder)
    /// may point at a row deleted since, each with a test of whether a value still exists.
    private static func referencesToClear(in table: RemovedFeed.TableRows, db: Database)
        throws -> [(Int, (DatabaseValue) throws -> Bool)] {
        try Row.fetchAll(db, sql: "SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?)", arguments: [table.table])
            .filter { ($0["on_delete"] as String?)?.uppercased() == "SET NULL" }
            .compactMap { key in
                guard let index = table.columns.firstIndex(of: key["from"]) else { return nil }
                let parent: String = key["table"]
                let parentColumn = (key["to"] as String?) ?? "id"
                return (index, { value in
                    if value.isNull { return true }
                    return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \"\(parent)\" WHERE \"\(parentColumn)\" = ?)",
                                             arguments: [value]) ?? false
                })
            }
    }
}
