import FeedCore
import Foundation

/// Where each entry's episodes and videos were left, read from and written to the store one
/// write after another, so an older position never lands after a newer one.
@MainActor
final class MediaPositions {
    /// The store the positions live in; nil until the window gives it, and then nothing is remembered.
    var store: FeedStore?
    /// Told when a position could not be saved, once per failing run of writes.
    var onSaveFailure: ((any Error) -> Void)?
    private var lastWrite: Task<Void, Never>?
    private var reportedFailure = false

    /// The position saved for the entry's file at `url`, nil if none (or it could not be read:
    /// the file then plays from its start, which loses nothing).
    func position(entryID: Int64, url: URL) async -> Double? {
        await lastWrite?.value
        guard let store else { return nil }
        return try? await store.playbackPosition(entryID: entryID, url: url)
    }

    /// Saves `seconds` as where the file was left; nil forgets it, for a file played to its end.
    func save(_ seconds: Double?, entryID: Int64, url: URL) {
        guard let store else { return }
        let previous = lastWrite
        lastWrite = Task { @MainActor [weak self] in
            await previous?.value
            do {
                try await store.savePlaybackPosition(seconds, entryID: entryID, url: url)
                self?.reportedFailure = false
            } catch {
                guard let self, !self.reportedFailure else { return }
                self.reportedFailure = true
                self.onSaveFailure?(error)
            }
        }
    }
}
