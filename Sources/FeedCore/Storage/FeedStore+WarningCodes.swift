import GRDB

extension FeedStore {
    /// `v21-warning-codes`: the English warnings earlier versions stored, one a line, rewritten as
    /// codes, so a feed's tooltip shows them in the user's language; a sentence no parser of this
    /// version writes is kept whole as the technical detail of `parse.repaired`.
    static func storeWarningsAsCodes(in db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, lastWarnings FROM feeds WHERE lastWarnings IS NOT NULL")
        for row in rows {
            let text: String = row["lastWarnings"]
            let warnings = text.split(separator: "\n").map { ErrorReason(legacyWarning: String($0)) }
            try db.execute(sql: "UPDATE feeds SET lastWarnings = ? WHERE id = ?",
                           arguments: [ErrorReason.storedWarnings(warnings), row["id"] as Int64])
        }
    }
}
