import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Notices: what went wrong, said in the user's language. Trouble the user must act on stays in
/// the banner over the list until dismissed; the rest is a toast.
extension MainWindow {
    /// What the banner says when the settings file could not be read and was started afresh.
    static func settingsResetMessage(keptAt path: String?) -> String {
        guard let path else {
            // TRANSLATORS: the settings file could not be read, nor moved aside.
            return tr("Your settings could not be read, so the defaults are used.")
        }
        // TRANSLATORS: the settings file could not be read; %@ is where the damaged file was kept.
        return tr("Your settings could not be read, so the defaults are used. The damaged file was kept as %@.")
            .replacingOccurrences(of: "%@", with: path)
    }

    /// What the banner says when the database or its folder was found in trouble at start.
    static func storageMessage(_ notice: StorageNotice) -> String {
        switch notice {
        case let .replacedDamagedDatabase(keptAt, recovered, source, _):
            let recovery = switch source {
            case .damagedDatabase:
                trn("%d subscription was recovered from it.", "%d subscriptions were recovered from it.", recovered)
            case .subscriptionsCopy:
                trn("%d subscription was recovered from the saved copy of your subscriptions.",
                    "%d subscriptions were recovered from the saved copy of your subscriptions.", recovered)
            case nil:
                tr("No subscriptions could be recovered.")
            }
            // TRANSLATORS: %@ is where the damaged database file was kept.
            let kept = tr("The damaged file was kept as %@.").replacingOccurrences(of: "%@", with: keptAt)
            return [tr("The feed database was damaged, so a new one was made."),
                    recovery.replacingOccurrences(of: "%d", with: "\(recovered)"), kept].joined(separator: " ")
        case let .folderReadOnly(folder, _, _):
            // TRANSLATORS: %@ is the folder holding the feed database.
            return tr("Your feeds are kept in %@, which cannot be written to, so changes you make now will be lost when you quit.")
                .replacingOccurrences(of: "%@", with: folder)
        case let .folderUnavailable(folder, _):
            // TRANSLATORS: %@ is the folder the feed database should be in.
            return tr("The folder %@ could not be created, so your feeds will not be kept after you quit.")
                .replacingOccurrences(of: "%@", with: folder)
        }
    }

    /// Says that `failure` happened; the store's own words go to the log, not in front of the
    /// user. A database found damaged stays in the banner, since nothing more can be saved until
    /// the next start repairs it.
    func showStoreError(_ failure: String, _ error: Error) {
        FileHandle.standardError.write(Data("feed-reader: \(failure) \(error)\n".utf8))
        if let reason = library.store.damageFound {
            banner.show(tr("The feed database is damaged, so nothing more is saved to it. Restart Feed Reader to repair it; your subscriptions will be recovered."),
                        details: reason)
        } else {
            toasts.show(failure)
        }
    }
}
