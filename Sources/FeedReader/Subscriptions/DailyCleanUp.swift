import AppSupport
import FeedCore

/// Removes the entries the retention preferences let go, at most once a day.
@MainActor
final class DailyCleanUp {
    private let library: FeedLibrary
    private let settings: SettingsStore
    private let preferences: Preferences
    private let model: LibraryModel
    private let toasts: Toasts
    /// The window's: a clean-up ending after it closed says nothing.
    private let life: WidgetLife

    init(library: FeedLibrary, settings: SettingsStore, preferences: Preferences, model: LibraryModel, toasts: Toasts, life: WidgetLife) {
        (self.library, self.settings, self.preferences, self.model, self.toasts, self.life) = (library, settings, preferences, model, toasts, life)
    }

    /// Cleans up unless it was done less than a day ago; the model's change lists what is left.
    func runIfDue() {
        let now = library.now()
        if let last = settings.date(forKey: WindowKey.lastCleanUp, in: WindowKey.storage), now.timeIntervalSince(last) < 86400 { return }
        let retention = preferences.retention
        Task { @MainActor [weak self, library] in
            do {
                let removed = try await library.cleanUp(retention)
                guard let self, self.life.isAlive else { return }
                self.settings.setDate(now, forKey: WindowKey.lastCleanUp, in: WindowKey.storage)
                if removed > 0 { await self.model.changed(.entries()) }
            } catch {
                if let self, self.life.isAlive { self.toasts.show(tr("Old entries could not be removed.")) }
            }
        }
    }
}
