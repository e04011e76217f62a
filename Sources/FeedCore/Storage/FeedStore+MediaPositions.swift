import Foundation
import GRDB

extension FeedStore {
    /// Where playback of the entry's file at `url` was left, in seconds, or nil if never played.
    public func playbackPosition(entryID: Int64, url: URL) async throws -> Double? {
        try await reading { db in
            try Double.fetchOne(db, sql: "SELECT seconds FROM mediaPositions WHERE entryId = ? AND url = ?",
                                arguments: [entryID, url.absoluteString])
        }
    }

    /// Remembers where playback of the entry's file at `url` stopped; nil forgets it (played to the end).
    /// An entry that is gone meanwhile has nothing to remember.
    public func savePlaybackPosition(_ seconds: Double?, entryID: Int64, url: URL) async throws {
        try await writing { db in
            if let seconds {
                try db.execute(sql: """
                    INSERT INTO mediaPositions (entryId, url, seconds) SELECT id, ?, ? FROM entries WHERE id = ?
                    ON CONFLICT (entryId, url) DO UPDATE SET seconds = excluded.seconds
                    """, arguments: [url.absoluteString, max(0, seconds), entryID])
            } else {
                try db.execute(sql: "DELETE FROM mediaPositions WHERE entryId = ? AND url = ?", arguments: [entryID, url.absoluteString])
            }
        }
    }
}
