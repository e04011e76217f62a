import AppSupport
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The window's notices: what went wrong, said in the user's language. Trouble the user must act
/// on stays in the banner over the list until dismissed; the rest is a toast.
@MainActor
final class Notices {
    /// What the user must act on (storage or settings trouble found at start, a damaged database):
    /// it stays over the list until dismissed.
    let banner: NoticeBar
    /// Undo and short notices.
    let toasts: Toasts
    private let store: FeedStore

    init(banner: NoticeBar, toasts: Toasts, store: FeedStore) {
        self.banner = banner
        self.toasts = toasts
        self.store = store
    }

    /// Shows in the banner what went wrong before the window opened: settings reset or left
    /// unreadable, a database repaired.
    func showStartTrouble(settings: SettingsStore, storage: StorageNotice?) {
        let notices = [settings.recoveryNote.map { _ in Self.settingsResetMessage(keptAt: settings.setAsidePath) },
                       settings.unreadableReason.map { _ in Self.settingsUnreadableMessage() },
                       storage?.message].compactMap { $0 }
        if !notices.isEmpty {
            banner.show(notices.joined(separator: "\n"), details: storage?.details ?? settings.unreadableReason)
        }
    }

    /// What the banner says when the settings file could not be read and was started afresh.
    static func settingsResetMessage(keptAt path: String?) -> String {
        guard let path else {
            // TRANSLATORS: the settings file could not be read, nor moved aside.
            return tr("Your settings could not be read, so the defaults are used.")
        }
        // TRANSLATORS: the settings file could not be read; %@ is where the damaged file was kept.
        return tr("Your settings could not be read, so the defaults are used. The damaged file was kept as %@.").filling(path)
    }

    /// What the banner says when the settings file is there but could not be read (no permission,
    /// an I/O error): it is left alone, not reset.
    static func settingsUnreadableMessage() -> String {
        // TRANSLATORS: the settings file exists but could not be read, for example for lack of permission; it is left as it is.
        tr("Your settings could not be read, so the defaults are used until the next start. The settings file is left as it is, and changes are not saved to it.")
    }

    /// Says that `failure` happened, and why when it is a refusal the user can act on (busy, full,
    /// read-only); the error's code and values go to the log, not in front of the user. A database
    /// found damaged stays in the banner, since nothing more can be saved until the next start repairs it.
    func showStoreError(_ failure: String, _ error: Error) {
        FileHandle.standardError.write(Data("feed-reader: \(failure) \(ErrorReason(error).technicalSummary)\n".utf8))
        if let reason = store.damageFound {
            showDamage(reason)
        } else {
            toasts.show(SubscriptionsFailure.sentences(failure, ErrorReason.storeRefusal(error)))
        }
    }

    /// Says in the banner that the database was found damaged (`reason`, for the details), and
    /// that a restart repairs it: nothing more is saved to it until then.
    func showDamage(_ reason: String) {
        // TRANSLATORS: "Feed Reader" is the app's name: write it as you translated "Feed Reader" for the window title.
        banner.show(tr("The feed database is damaged, so nothing more is saved to it. Restart Feed Reader to repair it; your subscriptions will be recovered."),
                    details: reason)
    }
}
