import FeedCore
import Foundation

/// The user's library as the window-less commands open it.
public enum CommandStore {
    /// The stores the command opened, closed at its end (`closeOpened`).
    @MainActor static var opened: [FeedStore] = []

    /// Closes the stores the command opened, their logs emptied into the database, so that the
    /// next start reads none of them.
    @MainActor
    public static func closeOpened() {
        for store in opened { try? store.close() }
        opened = []
    }

    /// The user's library, or nil after saying why it could not be opened; a command `changing`
    /// it refuses a library that would keep nothing.
    @MainActor
    static func open(changing: Bool) async -> FeedStore? {
        let databaseURL = FeedStore.databaseURL()
        do {
            let (store, notice) = try await FeedStore.openHealing(at: databaseURL, checkingPages: false)
            if let notice {
                CommandOutput.say("feed-reader: " + notice.message, to: .standardError)
                if changing, notice.keepsNoChanges { return nil }
            }
            opened.append(store)
            return store
        } catch {
            // TRANSLATORS: %@ is the database file's path.
            _ = CommandOutput.fail(tr("The feed database at %@ could not be opened.").filling(databaseURL.path))
            return nil
        }
    }
}
