import AppSupport
import CGtk
import RefreshGtk

/// Where the window keeps its state in the settings file.
enum WindowKey {
    static let group = "Window"
    static let width = "width", height = "height", maximized = "maximized", selectedFeed = "selected-feed"
    static let collapsedFolders = "collapsed-folders"
    static let storage = "Storage", lastCleanUp = "last-cleanup"
    /// Set once the bundled sample feeds were subscribed to, on the very first run.
    static let library = "Library", samplesSubscribed = "samples-subscribed"
    /// What selected-feed holds while Starred is selected (feed ids are positive).
    static let starredSelection = -1
    /// selected-feed for a folder is -2 - its id, below Starred.
    static func folderSelection(_ id: Int64) -> Int { -2 - Int(id) }
}

/// The window's own life: its size restored and saved, closing to the background when the person
/// chose to keep refreshing, and what ends with it (the settings written, background refresh,
/// the notification's action).
@MainActor
final class WindowState {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    private let preferences: Preferences

    init(window: UnsafeMutablePointer<GtkWidget>, application: UnsafeMutablePointer<GtkApplication>, settings: SettingsStore,
         preferences: Preferences, backgroundRefresh: BackgroundRefresh) {
        (self.window, self.settings, self.preferences) = (window, settings, preferences)
        gtk_window_set_default_size(cast(window), Int32(settings.integer(forKey: WindowKey.width, in: WindowKey.group) ?? 1240),
                                    Int32(settings.integer(forKey: WindowKey.height, in: WindowKey.group) ?? 760))
        if settings.integer(forKey: WindowKey.maximized, in: WindowKey.group) == 1 { gtk_window_maximize(cast(window)) }
        // Kept as it changes: quitting (Ctrl+Q) ends the application without unrealizing the
        // window, and the settings are written when it ends.
        for property in ["notify::default-width", "notify::default-height", "notify::maximized"] {
            Signal.connectIgnoringArgument(cast(window), property) { [weak self] in self?.saveSize() }
        }
        Signal.connectReturningBool(cast(window), "close-request") { [weak self] in self?.closeRequested() ?? false }
        Signal.connect(cast(window), "destroy") { [settings, weak backgroundRefresh] in
            settings.flush()
            backgroundRefresh?.stop()
            g_action_map_remove_action(cast(application), NewEntriesNotification.action)
        }
    }

    /// Closing hides the window and keeps refreshing only when the user chose to run in the background.
    private func closeRequested() -> Bool {
        guard preferences.runsInBackground, preferences.refreshMinutes > 0 else { return false }
        gtk_widget_set_visible(window, 0)
        return true
    }

    private func saveSize() {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(cast(window), &width, &height)
        let maximized = gtk_window_is_maximized(cast(window)) != 0
        if !maximized, width > 0, height > 0 {
            settings.setInteger(Int(width), forKey: WindowKey.width, in: WindowKey.group)
            settings.setInteger(Int(height), forKey: WindowKey.height, in: WindowKey.group)
        }
        settings.setInteger(maximized ? 1 : 0, forKey: WindowKey.maximized, in: WindowKey.group)
    }
}
