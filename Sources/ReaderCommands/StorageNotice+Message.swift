import FeedCore

extension StorageNotice {
    /// What the window's banner and the command line say when the database or its folder was
    /// found in trouble at start.
    public var message: String {
        switch self {
        case let .replacedDamagedDatabase(keptAt, recovered, source, _):
            let recovery = switch source {
            case .damagedDatabase:
                // TRANSLATORS: follows "The feed database was damaged, so a new one was made."; "it" is the damaged database.
                trn("%d subscription was recovered from it.", "%d subscriptions were recovered from it.", recovered)
            case .subscriptionsCopy:
                trn("%d subscription was recovered from the saved copy of your subscriptions.",
                    "%d subscriptions were recovered from the saved copy of your subscriptions.", recovered)
            case nil:
                tr("No subscriptions could be recovered.")
            }
            // TRANSLATORS: %@ is where the damaged database file was kept.
            let kept = tr("The damaged file was kept as %@.").filling(keptAt)
            return [tr("The feed database was damaged, so a new one was made."),
                    recovery.filling(count: recovered), kept].joined(separator: " ")
        case let .repairedDamagedDatabase(keptAt, _):
            return [tr("The feed database was damaged and has been repaired: all your feeds and articles were kept."),
                    tr("The damaged file was kept as %@.").filling(keptAt)].joined(separator: " ")
        case let .folderReadOnly(folder, _, _):
            // TRANSLATORS: %@ is the folder holding the feed database.
            return tr("Your feeds are kept in %@, which cannot be written to, so changes you make now will be lost when you quit.")
                .filling(folder)
        case let .folderUnavailable(folder, _):
            // TRANSLATORS: %@ is the folder the feed database should be in.
            return tr("The folder %@ could not be created, so your feeds will not be kept after you quit.")
                .filling(folder)
        }
    }
}
