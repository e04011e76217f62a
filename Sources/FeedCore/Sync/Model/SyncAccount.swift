import Foundation
import GRDB

/// An account on a sync server, as stored here; its password is in the secret store, never here.
public struct SyncAccount: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var kind: SyncServiceKind
    public var server: URL
    public var user: String
    /// The account's place among the accounts (its section in the sidebar).
    public var position: Int
    /// When the last sync that completed ended.
    public var lastSync: Date?
    /// Why the last sync failed, or nil when it completed.
    public var lastError: SyncError?
    /// Where the next sync's articles start (opaque to all but the service).
    public var cursor: SyncCursor?
}

extension SyncAccount: FetchableRecord {
    public init(row: Row) throws {
        id = row["id"]
        kind = SyncServiceKind(rawValue: row["service"])
        guard let server = row.url("server") else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "account \(id) has no address that can be read")
        }
        self.server = server
        user = row["user"]
        position = row["position"]
        lastSync = row.utcDate("lastSync")
        lastError = (row["lastErrorCode"] as String?).flatMap(ErrorCode.init(rawValue:)).map { SyncError($0, row["lastErrorDetail"] ?? "") }
        cursor = row["cursor"]
    }
}
