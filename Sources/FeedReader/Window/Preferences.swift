import CGtk
import FeedCore
import RefreshGtk

/// The reader's preferences, saved in its settings file as they change.
@MainActor
final class Preferences {
    private let settings: SettingsStore
    private enum Key {
        static let group = "Reading"
        static let markReadOnShow = "mark-read-on-show"
        static let updates = "Updates"
        static let refreshMinutes = "refresh-minutes", notify = "notify", notifyWhenFocused = "notify-when-focused"
        static let runInBackground = "run-in-background"
        static let storage = "Storage"
        static let keepDays = "keep-days", keepUnread = "keep-unread", keepStarred = "keep-starred"
    }

    /// The background refresh intervals offered, in minutes; 0 is off.
    static let refreshChoices = [0, 15, 30, 60, 120]
    /// How long entries may be kept, in days; 0 is forever.
    static let keepChoices = [7, 30, 90, 180, 365, 0]

    /// Runs after any preference changed, so schedules can follow it.
    var onChange: (@MainActor () -> Void)?

    init(settings: SettingsStore) {
        self.settings = settings
    }

    /// Whether showing an entry marks it read (on unless turned off).
    var marksReadWhenShown: Bool {
        get { flag(Key.markReadOnShow, in: Key.group, default: true) }
        set { setFlag(newValue, Key.markReadOnShow, in: Key.group) }
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

    private func flag(_ key: String, in group: String, default value: Bool) -> Bool {
        settings.integer(forKey: key, in: group).map { $0 != 0 } ?? value
    }

    private func setFlag(_ value: Bool, _ key: String, in group: String) {
        setInteger(value ? 1 : 0, key, in: group)
    }

    private func setInteger(_ value: Int, _ key: String, in group: String) {
        settings.setInteger(value, forKey: key, in: group)
        onChange?()
    }

    /// Opens the preferences window over `parent`; returns it.
    @discardableResult
    func present(over parent: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new()!
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_destroy_with_parent(cast(window), 1)
        gtk_window_set_title(cast(window), tr("Preferences"))
        gtk_window_set_default_size(cast(window), 420, -1)
        let title = Widgets.label(tr("Mark entries read when shown"))
        gtk_widget_set_hexpand(title, 1)
        let toggle = gtk_switch_new()!
        gtk_switch_set_active(cast(toggle), marksReadWhenShown.gboolean)
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        cgtk_accessible_set_label(cast(toggle), tr("Mark entries read when shown"))
        Signal.connectIgnoringArgument(cast(toggle), "notify::active") { [weak self] in
            self?.marksReadWhenShown = gtk_switch_get_active(cast(toggle)) != 0
        }
        let row = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [title, toggle])
        Widgets.setMargins(row, horizontal: 24, vertical: 24)
        gtk_window_set_child(cast(window), row)
        let close = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(cast(close), gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                           gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, cast(close))
        gtk_window_present(cast(window))
        return window
    }
}
