import AppSupport
import CAdw
import CGtk
import FeedCore
import RefreshGtk

/// The reader's preferences, saved in its settings file as they change.
@MainActor
final class Preferences {
    let settings: SettingsStore
    private enum Key {
        static let updates = "Updates"
        static let refreshMinutes = "refresh-minutes", notify = "notify", notifyWhenFocused = "notify-when-focused"
        static let runInBackground = "run-in-background"
        static let storage = "Storage"
        static let keepDays = "keep-days", keepUnread = "keep-unread", keepStarred = "keep-starred"
        static let appearance = "Appearance", style = "style"
    }

    /// The app's style: the desktop's light or dark, or one of them whatever the desktop says.
    enum Style: Int, CaseIterable {
        case followSystem = 0, light, dark

        /// How libadwaita's style manager is told: following the system means light unless the
        /// desktop prefers dark, as GNOME's own apps do.
        var colorScheme: AdwColorScheme {
            switch self {
            case .followSystem: ADW_COLOR_SCHEME_PREFER_LIGHT
            case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
            case .dark: ADW_COLOR_SCHEME_FORCE_DARK
            }
        }

    }

    /// The background refresh intervals offered, in minutes, in the order of the Preferences
    /// window's list (preferences/preferences-window.ui); 0 is off.
    static let refreshChoices = [0, 15, 30, 60, 120]
    /// How long entries may be kept, in days, in the order of the window's list; 0 is forever.
    static let keepChoices = [7, 30, 90, 180, 365, 0]

    /// Runs after any preference changed, so schedules can follow it.
    var onChange: (@MainActor () -> Void)?

    init(settings: SettingsStore) {
        self.settings = settings
    }

    /// Minutes between background refreshes; 0 when they are off (30 unless changed).
    var refreshMinutes: Int {
        get { settings.integer(forKey: Key.refreshMinutes, in: Key.updates).flatMap { Self.refreshChoices.contains($0) ? $0 : nil } ?? 30 }
        set { setInteger(newValue, Key.refreshMinutes, in: Key.updates) }
    }

    /// Whether a background refresh that brought new entries says so in a desktop notification.
    var notifiesNewEntries: Bool {
        get { flag(Key.notify, in: Key.updates, default: true) }
        set { setFlag(newValue, Key.notify, in: Key.updates) }
    }

    /// Whether the notification comes while the window has the focus too (off unless turned on).
    var notifiesWhenFocused: Bool {
        get { flag(Key.notifyWhenFocused, in: Key.updates, default: false) }
        set { setFlag(newValue, Key.notifyWhenFocused, in: Key.updates) }
    }

    /// Whether closing the window hides it and keeps refreshing (off unless turned on).
    var runsInBackground: Bool {
        get { flag(Key.runInBackground, in: Key.updates, default: false) }
        set { setFlag(newValue, Key.runInBackground, in: Key.updates) }
    }

    /// The app's style (the system's unless changed); setting it restyles every window at once.
    var style: Style {
        get { settings.integer(forKey: Key.style, in: Key.appearance).flatMap(Style.init(rawValue:)) ?? .followSystem }
        set {
            setInteger(newValue.rawValue, Key.style, in: Key.appearance)
            applyStyle()
        }
    }

    /// Tells libadwaita the chosen style; it follows the desktop's dark, light and high-contrast
    /// settings (through the settings portal, or GNOME's own settings) for the rest.
    func applyStyle() {
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), style.colorScheme)
    }

    /// The chosen language's code; empty for the system's. The window's `win.language` action changes it.
    var language: String { LanguageChoice.saved(in: settings) }

    /// Days entries are kept; 0 keeps them forever (90 unless changed).
    var keepDays: Int {
        get { settings.integer(forKey: Key.keepDays, in: Key.storage).flatMap { Self.keepChoices.contains($0) ? $0 : nil } ?? 90 }
        set { setInteger(newValue, Key.keepDays, in: Key.storage) }
    }

    /// Whether unread entries are kept however old (on unless turned off).
    var keepsUnread: Bool {
        get { flag(Key.keepUnread, in: Key.storage, default: true) }
        set { setFlag(newValue, Key.keepUnread, in: Key.storage) }
    }

    /// Whether starred entries are kept however old (on unless turned off).
    var keepsStarred: Bool {
        get { flag(Key.keepStarred, in: Key.storage, default: true) }
        set { setFlag(newValue, Key.keepStarred, in: Key.storage) }
    }

    /// The retention the preferences describe.
    var retention: Retention {
        Retention(days: keepDays == 0 ? nil : keepDays, keepsUnread: keepsUnread, keepsStarred: keepsStarred)
    }

    func flag(_ key: String, in group: String, default value: Bool) -> Bool {
        settings.integer(forKey: key, in: group).map { $0 != 0 } ?? value
    }

    func setFlag(_ value: Bool, _ key: String, in group: String) {
        setInteger(value ? 1 : 0, key, in: group)
    }

    func setInteger(_ value: Int, _ key: String, in group: String) {
        settings.setInteger(value, forKey: key, in: group)
        onChange?()
    }
}
