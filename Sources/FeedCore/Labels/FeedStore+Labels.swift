import Foundation
import GRDB

extension FeedStore {
    /// Creates the labels and the links of entries to them (v23-labels).
    static func createLabels(in db: Database) throws {
        try db.create(table: "labels") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("name", .text).notNull().unique()
        }
        try db.create(table: "entryLabels", options: .withoutRowID) { table in
            table.column("entryId", .integer).notNull().references("entries", onDelete: .cascade)
            table.column("labelId", .integer).notNull().references("labels", onDelete: .cascade)
            table.primaryKey(["entryId", "labelId"])
        }
        try db.create(index: "entryLabels_by_label", on: "entryLabels", columns: ["labelId", "entryId"])
    }

    /// Every label by name, with its entries and unread entries counted (those a rule hid left out).
    public func labels() async throws -> [StoredLabel] {
        try await reading { db in
            try Row.fetchAll(db, sql: """
                SELECT labels.id, labels.name, COUNT(entries.id) AS entryCount, COALESCE(SUM(\(FeedStore.isUnread)), 0) AS unreadCount
                FROM labels LEFT JOIN entryLabels ON entryLabels.labelId = labels.id
                LEFT JOIN entries ON entries.id = entryLabels.entryId AND entries.hiddenByRule IS NULL
                GROUP BY labels.id ORDER BY labels.name COLLATE NOCASE, labels.name
                """).map { StoredLabel(id: $0["id"], name: $0["name"], entryCount: $0["entryCount"], unreadCount: $0["unreadCount"]) }
        }
    }

    /// The names of the labels on each of `entryIDs` (an entry without any is left out).
    public func labelNames(ofEntries entryIDs: [Int64]) async throws -> [Int64: [String]] {
        try await reading { db in
            var names: [Int64: [String]] = [:]
            for start in stride(from: 0, to: entryIDs.count, by: 500) {
                let slice = Array(entryIDs[start..<min(start + 500, entryIDs.count)])
                for row in try Row.fetchAll(db, sql: """
                    SELECT entryLabels.entryId, labels.name FROM entryLabels JOIN labels ON labels.id = entryLabels.labelId
                    WHERE entryLabels.entryId IN (\(Array(repeating: "?", count: slice.count).joined(separator: ",")))
                    ORDER BY labels.name COLLATE NOCASE, labels.name
                    """, arguments: StatementArguments(slice)) {
                    names[row["entryId"], default: []].append(row["name"])
                }
            }
            return names
        }
    }

    /// Marks read the unread entries carrying the label `id`; returns those that changed, for an
    /// undo. A synced entry's server is told, one queued change per entry.
    @discardableResult
    public func markAllRead(labelID id: Int64) async throws -> [Int64] {
        try await writing { db in
            let ids = try FeedStore.setRead(true, where: "id IN (SELECT entryId FROM entryLabels WHERE labelId = ?)", arguments: [id], db: db)
            try FeedStore.queueArticleState(.read, entryIDs: ids, db: db)
            return ids
        }
    }

    /// Makes a label named `name` (cleaned), or finds the one of that name; returns it.
    ///
    /// - Throws: `LabelError` for a name with nothing visible in it or too long.
    @discardableResult
    public func createLabel(named name: String) async throws -> StoredLabel {
        let name = try LabelName.cleaned(name)
        return try await writing { db in
            let id = try FeedStore.labelID(named: name, creating: true, db: db)!
            return StoredLabel(id: id, name: name)
        }
    }

    /// Puts the label `name` on `entryIDs`, made if it does not exist yet, or takes it off
    /// (`isOn: false`), in one transaction; a synced entry's change is queued for its server,
    /// replacing one of that label queued before. Unknown entries are skipped. Returns the
    /// entries whose labels changed, for an undo.
    ///
    /// - Throws: `LabelError` for a name with nothing visible in it or too long, or one to
    ///   take off that no label has (none for no entries: nothing changes).
    @discardableResult
    public func setLabel(_ name: String, on entryIDs: [Int64], _ isOn: Bool = true) async throws -> [Int64] {
        let name = try LabelName.cleaned(name)
        guard !entryIDs.isEmpty else { return [] }
        return try await writing { db in try FeedStore.setLabel(name, on: entryIDs, isOn, db: db) }
    }

    /// Puts the label `name` (cleaned) on `entryIDs` or takes it off in the caller's transaction,
    /// queueing the change for the synced entries whose labels change; unknown entries are skipped.
    /// Returns the entries whose labels changed.
    @discardableResult
    static func setLabel(_ name: String, on entryIDs: [Int64], _ isOn: Bool, db: Database) throws -> [Int64] {
        guard let labelID = try labelID(named: name, creating: isOn, db: db) else { throw LabelError.notFound(name: name) }
        var changed: [Int64] = []
        for start in stride(from: 0, to: entryIDs.count, by: 500) {
            let slice = Array(entryIDs[start..<min(start + 500, entryIDs.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
            // Only the entries whose labels change: nothing for a server to hear about the others.
            let ids = try Int64.fetchAll(db, sql: """
                SELECT id FROM entries WHERE id IN (\(marks))
                AND \(isOn ? "NOT" : "") EXISTS (SELECT 1 FROM entryLabels WHERE entryId = entries.id AND labelId = ?)
                """, arguments: StatementArguments(slice) + [labelID])
            guard !ids.isEmpty else { continue }
            let changing = Array(repeating: "?", count: ids.count).joined(separator: ",")
            if isOn {
                try db.execute(sql: "INSERT INTO entryLabels (entryId, labelId) SELECT id, ? FROM entries WHERE id IN (\(changing))",
                               arguments: [labelID] + StatementArguments(ids))
            } else {
                try db.execute(sql: "DELETE FROM entryLabels WHERE labelId = ? AND entryId IN (\(changing))",
                               arguments: [labelID] + StatementArguments(ids))
            }
            changed += ids
        }
        try queueLabelChange(name, isOn: isOn, entryIDs: changed, db: db)
        return changed
    }

    /// Gives the label `id` the name `newName` (cleaned); a synced entry carrying it has the old
    /// label taken off and the new one put on at its server.
    ///
    /// - Throws: `LabelError` for a bad name or one another label has.
    public func renameLabel(id: Int64, to newName: String) async throws {
        let newName = try LabelName.cleaned(newName)
        try await writing { db in
            guard let oldName = try String.fetchOne(db, sql: "SELECT name FROM labels WHERE id = ?", arguments: [id]) else {
                throw LabelError.notFound(name: newName)
            }
            guard oldName != newName else { return }
            if try FeedStore.labelID(named: newName, creating: false, db: db) != nil { throw LabelError.exists(name: newName) }
            try db.execute(sql: "UPDATE labels SET name = ? WHERE id = ?", arguments: [newName, id])
            let entryIDs = try Int64.fetchAll(db, sql: "SELECT entryId FROM entryLabels WHERE labelId = ?", arguments: [id])
            try FeedStore.queueLabelChange(oldName, isOn: false, entryIDs: entryIDs, db: db)
            try FeedStore.queueLabelChange(newName, isOn: true, entryIDs: entryIDs, db: db)
        }
    }

    /// Deletes the label `id`, taking it off every entry, at their servers too for synced ones.
    public func deleteLabel(id: Int64) async throws {
        try await writing { db in
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM labels WHERE id = ?", arguments: [id]) else { return }
            let entryIDs = try Int64.fetchAll(db, sql: "SELECT entryId FROM entryLabels WHERE labelId = ?", arguments: [id])
            try FeedStore.queueLabelChange(name, isOn: false, entryIDs: entryIDs, db: db)
            try db.execute(sql: "DELETE FROM labels WHERE id = ?", arguments: [id])
        }
    }

    /// The id of the label `name`, made when missing with `creating`; nil when missing otherwise.
    static func labelID(named name: String, creating: Bool, db: Database) throws -> Int64? {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM labels WHERE name = ?", arguments: [name]) { return id }
        guard creating else { return nil }
        try db.execute(sql: "INSERT INTO labels (name) VALUES (?)", arguments: [name])
        return db.lastInsertedRowID
    }
}
