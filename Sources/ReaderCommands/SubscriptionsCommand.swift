import FeedCore
import Foundation

/// `feed-reader --import FILE` and `feed-reader --export FILE`: the subscription list in and out
/// of the user's library as OPML, without opening a window, saying what happened in the same
/// sentences as the window, in the user's language.
enum SubscriptionsCommand {
    case importing(LocalFile)
    case exporting(LocalFile)

    /// Does the work, printing what it did on standard output and problems on standard error;
    /// returns the exit status.
    @MainActor
    func run() async -> Int32 {
        let library: FeedLibrary
        let databaseURL = FeedStore.databaseURL()
        do {
            let (store, notice) = try await FeedStore.openHealing(at: databaseURL, checkingPages: false)
            if let notice {
                CommandOutput.say("feed-reader: " + notice.message, to: .standardError)
                // The library is only in memory: an import would be lost at exit.
                if case .importing = self, notice.keepsNoChanges { return 1 }
            }
            CommandStore.opened.append(store)
            library = FeedLibrary(store: store)
        } catch {
            // TRANSLATORS: %@ is the database file's path.
            let failure = tr("The feed database at %@ could not be opened.").filling(databaseURL.path)
            return CommandOutput.fail(SubscriptionsFailure.sentences(failure, ErrorReason.storeRefusal(error)))
        }
        switch self {
        case let .importing(file):
            return await Self.importSubscriptions(from: file, into: library)
        case let .exporting(file):
            do {
                let count = try await library.exportSubscriptions(to: file)
                CommandOutput.say(SubscriptionsReport.exported(count, to: file))
                return 0
            } catch {
                return CommandOutput.fail(SubscriptionsFailure.exporting(file, error))
            }
        }
    }

    @MainActor
    private static func importSubscriptions(from file: LocalFile, into library: FeedLibrary) async -> Int32 {
        do {
            let report = try await library.importSubscriptions(fromFile: file) { done, total in
                guard total > 0 else { return }
                CommandOutput.say(SubscriptionsReport.progress(done: done, total: total), to: .standardError)
            }
            CommandOutput.say(SubscriptionsReport.summary(of: report))
            return 0
        } catch {
            return CommandOutput.fail(SubscriptionsFailure.importing(file, error))
        }
    }

}

extension StorageNotice {
    /// Whether the library opened despite this keeps nothing written to it after the program ends.
    public var keepsNoChanges: Bool {
        switch self {
        case .replacedDamagedDatabase, .repairedDamagedDatabase: false
        case .folderReadOnly, .folderUnavailable: true
        }
    }
}
