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
        gtk_window_set_default_size(cast(window), 520, -1)

        let markRead = toggleRow(tr("Mark entries read when shown"), isOn: marksReadWhenShown) { [weak self] in self?.marksReadWhenShown = $0 }
        let interval = choiceRow(tr("Refresh in the background"), choices: Self.refreshChoices.map(Self.refreshText),
                                 selected: Self.refreshChoices.firstIndex(of: refreshMinutes) ?? 2) { [weak self] index in
            self?.refreshMinutes = Self.refreshChoices[index]
        }
        let notify = toggleRow(tr("Notify about new entries"), isOn: notifiesNewEntries) { [weak self] in self?.notifiesNewEntries = $0 }
        let whenFocused = toggleRow(tr("Notify while the window is in use"), isOn: notifiesWhenFocused) { [weak self] in
            self?.notifiesWhenFocused = $0
        }
        let background = toggleRow(tr("Run in the background"), subtitle: tr("Closing the window keeps refreshing and notifying"),
                                   isOn: runsInBackground) { [weak self] in self?.runsInBackground = $0 }
        let keep = choiceRow(tr("Keep read entries"), choices: Self.keepChoices.map(Self.keepText),
                             selected: Self.keepChoices.firstIndex(of: keepDays) ?? 2) { [weak self] index in
            self?.keepDays = Self.keepChoices[index]
        }
        let keepUnread = toggleRow(tr("Keep unread entries however old"), isOn: keepsUnread) { [weak self] in self?.keepsUnread = $0 }
        let keepStarred = toggleRow(tr("Keep starred entries however old"), isOn: keepsStarred) { [weak self] in self?.keepsStarred = $0 }

        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [
            Self.section(tr("Reading"), [markRead]),
            Self.section(tr("Updates"), [interval, notify, whenFocused, background]),
            Self.section(tr("Storage"), [keep, keepUnread, keepStarred]),
        ])
        Widgets.setMargins(content, horizontal: 24, vertical: 24)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(cast(scrolled), 1)
        gtk_scrolled_window_set_child(cast(scrolled), content)
        gtk_window_set_child(cast(window), scrolled)
        // Options that do nothing in the current state are greyed out, not hidden, so they can be found.
        let updateSensitivity = { [weak self] in
            guard let self else { return }
            gtk_widget_set_sensitive(whenFocused, self.notifiesNewEntries.gboolean)
            gtk_widget_set_sensitive(background, (self.refreshMinutes > 0).gboolean)
            gtk_widget_set_sensitive(keepUnread, (self.keepDays > 0).gboolean)
            gtk_widget_set_sensitive(keepStarred, (self.keepDays > 0).gboolean)
        }
        updateSensitivity()
        let previous = onChange
        onChange = {
            previous?()
            updateSensitivity()
        }
        Signal.connect(cast(window), "destroy") { [weak self] in self?.onChange = previous }
        let close = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(cast(close), gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                           gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, cast(close))
        gtk_window_present(cast(window))
        return window
    }

    /// "Every 30 minutes", "Off": the offered intervals.
    static func refreshText(_ minutes: Int) -> String {
        switch minutes {
        case 15: tr("Every 15 minutes")
        case 30: tr("Every 30 minutes")
        case 60: tr("Every hour")
        case 120: tr("Every 2 hours")
        default: tr("Off")
        }
    }

    /// "For 3 months", "Forever": the offered ages.
    static func keepText(_ days: Int) -> String {
        switch days {
        case 7: tr("For a week")
        case 30: tr("For a month")
        case 90: tr("For 3 months")
        case 180: tr("For 6 months")
        case 365: tr("For a year")
        default: tr("Forever")
        }
    }

    /// A heading over a framed list of rows.
    private static func section(_ title: String, _ rows: [UnsafeMutablePointer<GtkWidget>]) -> UnsafeMutablePointer<GtkWidget> {
        let list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "rich-list")
        for row in rows { gtk_list_box_append(cast(list), row) }
        let frame = gtk_frame_new(nil)!
        gtk_frame_set_child(cast(frame), list)
        let heading = Widgets.label(title, classes: ["heading"])
        return Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [heading, frame])
    }

    /// A row with a title, an optional explanation below it, and `control` at its end.
    private static func row(_ title: String, subtitle: String?, control: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let titles = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [Widgets.label(title)])
        if let subtitle {
            let explanation = Widgets.label(subtitle, classes: ["dim-label", "caption"])
            gtk_label_set_wrap(cast(explanation), 1)
            gtk_box_append(cast(titles), explanation)
        }
        gtk_widget_set_hexpand(titles, 1)
        gtk_widget_set_valign(titles, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(control, GTK_ALIGN_CENTER)
        cgtk_accessible_set_label(cast(control), title)
        return Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [titles, control])
    }

    private func toggleRow(_ title: String, subtitle: String? = nil, isOn: Bool,
                           _ changed: @escaping @MainActor (Bool) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let toggle = gtk_switch_new()!
        gtk_switch_set_active(cast(toggle), isOn.gboolean)
        Signal.connectIgnoringArgument(cast(toggle), "notify::active") { changed(gtk_switch_get_active(cast(toggle)) != 0) }
        return Self.row(title, subtitle: subtitle, control: toggle)
    }

    private func choiceRow(_ title: String, choices: [String], selected: Int,
                           _ changed: @escaping @MainActor (Int) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let dropDown = withCStringArray(choices) { gtk_drop_down_new_from_strings($0) }!
        gtk_drop_down_set_selected(cast(dropDown), guint(selected))
        Signal.connectIgnoringArgument(cast(dropDown), "notify::selected") {
            let index = Int(gtk_drop_down_get_selected(cast(dropDown)))
            if index < choices.count { changed(index) }
        }
        return Self.row(title, subtitle: nil, control: dropDown)
    }
}
