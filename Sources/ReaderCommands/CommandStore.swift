import FeedCore
import Foundation

/// The user's library as the window-less commands open it.
enum CommandStore {
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
            return store
        } catch {
            // TRANSLATORS: %@ is the database file's path.
            _ = CommandOutput.fail(tr("The feed database at %@ could not be opened.").filling(databaseURL.path))
            return nil
        }
    }
}
