import AppSignals
import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// One feed's own settings (issue 35), from its menu in the sidebar: its title and address, how
/// often it is updated or whether at all, how long its entries are kept, its notifications, full
/// articles, and how it is asked for (a User-Agent, a user name and a password kept in the
/// keyring). Each change takes effect when applied; a value that cannot be kept marks its row, is
/// said in a toast, and changes nothing. A synced feed's server fetches it: there the window keeps
/// what is this computer's (notifications, how long entries are kept, full articles) and says why
/// the rest is not there.
@MainActor
final class FeedPropertiesWindow {
    static let file = "subscriptions/feed-properties-window.ui"

    /// The interval list's choices, in the file's order.
    enum IntervalUnit: Int, CaseIterable {
        case appDefault = 0, minutes, hours, days

        var seconds: TimeInterval {
            switch self {
            case .appDefault, .minutes: 60
            case .hours: 3600
            case .days: 86400
            }
        }
    }

    /// The retention list's choices, in the file's order.
    enum Keeping: Int, CaseIterable {
        case appDefault = 0, days, newest
    }

    /// What the app does for feeds that set nothing of their own, from Preferences.
    struct Defaults {
        /// Minutes between background updates; 0 when they are off.
        var refreshMinutes: Int
        /// Days entries are kept; 0 for ever.
        var keepDays: Int
    }

    let window: UnsafeMutablePointer<GtkWidget>
    private let library: FeedLibrary
    private let defaults: Defaults
    private var feed: StoredFeed
    private let rows: Rows
    /// Runs after every change kept, so the sidebar and the background timer follow it.
    private let changed: @MainActor () -> Void
    private var retainedSelf: FeedPropertiesWindow?
    /// A timer updating "Next update"; removed with the window.
    private var tick: guint = 0

    private struct Rows {
        var title, address, nextUpdate, interval, intervalCount, keep, keepCount, userAgent, user, password: UnsafeMutablePointer<GtkWidget>
        var paused, notify, fullArticle: UnsafeMutablePointer<GtkWidget>
    }

    /// Opens the properties of `feed` over `parent`.
    @discardableResult
    static func present(_ feed: StoredFeed, over parent: UnsafeMutablePointer<GtkWidget>, library: FeedLibrary, defaults: Defaults,
                        changed: @escaping @MainActor () -> Void) -> FeedPropertiesWindow {
        let shown = FeedPropertiesWindow(feed, library: library, defaults: defaults, changed: changed)
        gtk_window_set_transient_for(cast(shown.window), cast(parent))
        gtk_window_present(cast(shown.window))
        return shown
    }

    /// Builds the window for `feed`, not yet shown; it lives until it is destroyed.
    init(_ feed: StoredFeed, library: FeedLibrary, defaults: Defaults, changed: @escaping @MainActor () -> Void) {
        self.feed = feed
        self.library = library
        self.defaults = defaults
        self.changed = changed
        let file = BuilderFile(Self.file)
        window = file.widget("window")
        rows = Rows(title: file.widget("title_row"), address: file.widget("address_row"), nextUpdate: file.widget("next_update_row"),
                    interval: file.widget("interval_row"), intervalCount: file.widget("interval_count_row"), keep: file.widget("keep_row"),
                    keepCount: file.widget("keep_count_row"), userAgent: file.widget("user_agent_row"), user: file.widget("user_row"),
                    password: file.widget("password_row"), paused: file.widget("paused_switch"), notify: file.widget("notify_switch"),
                    fullArticle: file.widget("full_article_switch"))
        // Addresses and identifiers read left to right in every language, under titles in the window's.
        for row in [rows.address, rows.userAgent, rows.user, rows.password] { Widgets.setLeftToRight(address: row) }
        nameDefaults(file)
        show()
        if feed.accountID != nil { showSynced(file) }
        connect()
        retainedSelf = self
        scheduleTick()
        Signal.connect(cast(window), "destroy") { [weak self] in
            guard let self else { return }
            if self.tick != 0 { g_source_remove(self.tick) }
            self.retainedSelf = nil
        }
    }

    /// A synced feed's title, address, updates and connection are its server's: shown without a
    /// way to change them, the ones it alone decides left out, and the Updates group says why.
    private func showSynced(_ file: BuilderFile) {
        // Dimmed as well: an entry row shows its pencil even when it cannot be edited.
        for row in [rows.title, rows.address] {
            gtk_editable_set_editable(cast(row), 0)
            adw_entry_row_set_show_apply_button(cast(row), 0)
            gtk_widget_set_sensitive(row, 0)
        }
        for widget in [file.widget("paused_row"), rows.interval, rows.intervalCount, file.widget("connection_group")] {
            gtk_widget_set_visible(widget, 0)
        }
        adw_preferences_group_set_description(cast(file.widget("updates_group")),
            tr("Its sync server fetches this feed: how often, whether it is paused and how it is asked for are set there."))
    }

    /// Says "Next update" again every half minute while the window is open.
    private func scheduleTick() {
        tick = MainThread.after(30) { [weak self] in
            self?.showNextUpdate()
            self?.scheduleTick()
        }
    }

    /// The first items of the lists name what the app does without a setting of the feed's own.
    private func nameDefaults(_ file: BuilderFile) {
        let interval = defaults.refreshMinutes == 0
            ? tr("As in Preferences (by hand only)")
            // TRANSLATORS: the first choice of a feed's update interval; %d is the app's interval in minutes.
            : trn("As in Preferences (every minute)", "As in Preferences (every %d minutes)", defaults.refreshMinutes)
                .filling(count: defaults.refreshMinutes)
        Self.replaceFirst(of: file.opaque("interval_choices"), with: interval)
        let keep = defaults.keepDays == 0
            ? tr("As in Preferences (for ever)")
            // TRANSLATORS: the first choice of how long a feed's entries are kept; %d is the app's number of days.
            : trn("As in Preferences (a day)", "As in Preferences (%d days)", defaults.keepDays).filling(count: defaults.keepDays)
        Self.replaceFirst(of: file.opaque("keep_choices"), with: keep)
    }

    private static func replaceFirst(of list: OpaquePointer, with text: String) {
        text.withCString { pointer in
            var items: [UnsafePointer<CChar>?] = [pointer, nil]
            gtk_string_list_splice(list, 0, 1, &items)
        }
    }

    /// Sets every row to the feed's values.
    private func show() {
        let settings = feed.settings
        gtk_editable_set_text(cast(rows.title), feed.displayTitle)
        gtk_editable_set_text(cast(rows.address), feed.url.absoluteString)
        let (unit, count) = Self.intervalChoice(settings.refreshInterval)
        adw_combo_row_set_selected(cast(rows.interval), guint(unit.rawValue))
        gtk_editable_set_text(cast(rows.intervalCount), count.map(String.init) ?? "")
        gtk_widget_set_visible(rows.intervalCount, (unit != .appDefault).gboolean)
        let keeping: Keeping = settings.keepNewest != nil ? .newest : settings.keepDays != nil ? .days : .appDefault
        adw_combo_row_set_selected(cast(rows.keep), guint(keeping.rawValue))
        gtk_editable_set_text(cast(rows.keepCount), (settings.keepNewest ?? settings.keepDays).map(String.init) ?? "")
        gtk_widget_set_visible(rows.keepCount, (keeping != .appDefault).gboolean)
        gtk_switch_set_active(cast(rows.paused), settings.isPaused.gboolean)
        gtk_switch_set_active(cast(rows.notify), settings.notifiesNewEntries.gboolean)
        gtk_switch_set_active(cast(rows.fullArticle), feed.alwaysShowsFullArticle.gboolean)
        gtk_editable_set_text(cast(rows.userAgent), settings.userAgent ?? "")
        gtk_editable_set_text(cast(rows.user), settings.authUser ?? "")
        showNextUpdate()
    }

    /// The largest unit that counts the interval whole: 90 minutes stay minutes, 120 are 2 hours.
    static func intervalChoice(_ interval: TimeInterval?) -> (IntervalUnit, Int?) {
        guard let interval else { return (.appDefault, nil) }
        for unit in [IntervalUnit.days, .hours] where interval.truncatingRemainder(dividingBy: unit.seconds) == 0 {
            return (unit, Int(interval / unit.seconds))
        }
        return (.minutes, Int((interval / 60).rounded()))
    }

    /// "Next update": paused, by hand only, now, or in so many minutes, hours or days.
    private func showNextUpdate() {
        adw_action_row_set_subtitle(cast(rows.nextUpdate), Self.nextUpdateText(for: feed, defaults: defaults, at: library.now()))
    }

    static func nextUpdateText(for feed: StoredFeed, defaults: Defaults, at now: Date) -> String {
        if feed.settings.isPaused { return tr("Paused") }
        if feed.accountID != nil { return tr("With its account’s sync") }
        guard defaults.refreshMinutes > 0 else { return tr("Only when you refresh") }
        let schedule = BackgroundSchedule(interval: TimeInterval(defaults.refreshMinutes) * 60)
        guard let turn = schedule.turn(of: feed), turn > now + 30 else { return tr("In a moment") }
        let minutes = Int((turn.timeIntervalSince(now) / 60).rounded(.up))
        switch minutes {
        // TRANSLATORS: when a feed is next updated.
        case ..<120: return trn("In %d minute", "In %d minutes", minutes).filling(count: minutes)
        // TRANSLATORS: when a feed is next updated.
        case ..<(48 * 60): return trn("In %d hour", "In %d hours", minutes / 60).filling(count: minutes / 60)
        // TRANSLATORS: when a feed is next updated.
        default: return trn("In %d day", "In %d days", minutes / 1440).filling(count: minutes / 1440)
        }
    }

    private func connect() {
        Signal.connect(cast(rows.title), "apply") { [weak self] in self?.applyTitle() }
        Signal.connect(cast(rows.address), "apply") { [weak self] in self?.applyAddress() }
        Signal.connectIgnoringArgument(cast(rows.interval), "notify::selected") { [weak self] in self?.applyInterval(fromList: true) }
        Signal.connect(cast(rows.intervalCount), "apply") { [weak self] in self?.applyInterval(fromList: false) }
        Signal.connectIgnoringArgument(cast(rows.keep), "notify::selected") { [weak self] in self?.applyKeeping(fromList: true) }
        Signal.connect(cast(rows.keepCount), "apply") { [weak self] in self?.applyKeeping(fromList: false) }
        Signal.connectIgnoringArgument(cast(rows.paused), "notify::active") { [weak self] in
            guard let self else { return }
            self.update { $0.isPaused = gtk_switch_get_active(cast(self.rows.paused)) != 0 }
        }
        Signal.connectIgnoringArgument(cast(rows.notify), "notify::active") { [weak self] in
            guard let self else { return }
            self.update { $0.notifiesNewEntries = gtk_switch_get_active(cast(self.rows.notify)) != 0 }
        }
        Signal.connectIgnoringArgument(cast(rows.fullArticle), "notify::active") { [weak self] in self?.applyFullArticle() }
        Signal.connect(cast(rows.userAgent), "apply") { [weak self] in
            guard let self else { return }
            let text = Self.text(of: self.rows.userAgent)
            self.update(row: self.rows.userAgent) { $0.userAgent = text.isEmpty ? nil : text }
        }
        Signal.connect(cast(rows.user), "apply") { [weak self] in self?.applyCredentials() }
        Signal.connect(cast(rows.password), "apply") { [weak self] in self?.applyCredentials() }
    }

    private static func text(of row: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_editable_get_text(cast(row))).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The whole number typed in `row`, or nil after saying that one is wanted.
    private func number(in row: UnsafeMutablePointer<GtkWidget>) -> Int? {
        guard let number = Int(Self.text(of: row)) else {
            refuse(tr("Enter a whole number."), row: row)
            return nil
        }
        return number
    }

    private func applyInterval(fromList: Bool) {
        let unit = IntervalUnit(rawValue: Int(adw_combo_row_get_selected(cast(rows.interval)))) ?? .appDefault
        gtk_widget_set_visible(rows.intervalCount, (unit != .appDefault).gboolean)
        if unit == .appDefault { return update { $0.refreshInterval = nil } }
        // A unit chosen before its number is typed waits for the number.
        if fromList, Self.text(of: rows.intervalCount).isEmpty { return }
        guard let count = number(in: rows.intervalCount) else { return }
        update(row: rows.intervalCount) { $0.refreshInterval = TimeInterval(count) * unit.seconds }
    }

    private func applyKeeping(fromList: Bool) {
        let keeping = Keeping(rawValue: Int(adw_combo_row_get_selected(cast(rows.keep)))) ?? .appDefault
        gtk_widget_set_visible(rows.keepCount, (keeping != .appDefault).gboolean)
        if keeping == .appDefault { return update { $0.keepDays = nil; $0.keepNewest = nil } }
        if fromList, Self.text(of: rows.keepCount).isEmpty { return }
        guard let count = number(in: rows.keepCount) else { return }
        update(row: rows.keepCount) { settings in
            (settings.keepDays, settings.keepNewest) = keeping == .days ? (count, nil) : (nil, count)
        }
    }

    /// Keeps `change` of the feed's settings, or says why it cannot be kept and shows the stored values again.
    private func update(row: UnsafeMutablePointer<GtkWidget>? = nil, _ change: (inout FeedSettings) -> Void) {
        var settings = feed.settings
        change(&settings)
        guard settings != feed.settings else { return }
        do {
            try settings.validate()
        } catch {
            return refuse(error.reason.sentence, row: row)
        }
        if let row { gtk_widget_remove_css_class(row, "error") }
        let feedID = feed.id
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.setSettings(settings, forFeed: feedID)
                self?.feed.settings = settings
                self?.showNextUpdate()
                self?.changed()
            } catch {
                self?.refuse(ErrorReason(error).sentence, row: row)
            }
        }
    }

    /// Marks `row` and says `message` in a toast; nothing is stored.
    private func refuse(_ message: String, row: UnsafeMutablePointer<GtkWidget>?) {
        if let row { gtk_widget_add_css_class(row, "error") }
        lastRefusal = message
        adw_preferences_window_add_toast(cast(window), adw_toast_new(message))
    }

    /// What the last toast said of a value that could not be kept.
    private(set) var lastRefusal: String?

    private func applyTitle() {
        let title = Self.text(of: rows.title)
        let feedID = feed.id
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.renameFeed(feedID, to: title.isEmpty ? nil : title)
                self?.changed()
            } catch {
                self?.refuse(tr("The feed could not be renamed."), row: self?.rows.title)
            }
        }
    }

    private func applyAddress() {
        guard let url = FeedLibrary.feedURL(from: Self.text(of: rows.address)) else {
            return refuse(tr("This is not a web address."), row: rows.address)
        }
        guard url != feed.url else { return }
        gtk_widget_remove_css_class(rows.address, "error")
        let feedID = feed.id
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.changeAddress(ofFeed: feedID, to: url)
                self?.feed.url = url
                self?.changed()
                _ = await library.refresh(feedIDs: [feedID])
                self?.changed()
            } catch FeedStoreError.alreadySubscribed {
                self?.refuse(tr("You are already subscribed to the feed at this address."), row: self?.rows.address)
            } catch {
                self?.refuse(tr("The feed’s address could not be changed."), row: self?.rows.address)
            }
        }
    }

    private func applyFullArticle() {
        let always = gtk_switch_get_active(cast(rows.fullArticle)) != 0
        guard always != feed.alwaysShowsFullArticle else { return }
        let feedID = feed.id
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.setAlwaysShowsFullArticle(always, forFeed: feedID)
                self?.feed.alwaysShowsFullArticle = always
                self?.changed()
            } catch {
                self?.refuse(ErrorReason(error).sentence, row: nil)
            }
        }
    }

    /// Keeps the user name in the store and the password in the keyring; an empty user name forgets both.
    private func applyCredentials() {
        let user = Self.text(of: rows.user)
        let password = String(cString: gtk_editable_get_text(cast(rows.password)))
        var settings = feed.settings
        settings.authUser = user.isEmpty ? nil : user
        do {
            try settings.validate()
        } catch {
            return refuse(error.reason.sentence, row: rows.user)
        }
        gtk_widget_remove_css_class(rows.user, "error")
        let feedID = feed.id
        Task { @MainActor [weak self, library] in
            do {
                try await library.setCredentials(user: settings.authUser, password: password, forFeed: feedID)
                self?.feed.settings.authUser = settings.authUser
                if let self { gtk_editable_set_text(cast(self.rows.password), "") }
                self?.changed()
            } catch {
                self?.refuse(ErrorReason(error).sentence, row: self?.rows.password)
            }
        }
    }
}

extension FeedPropertiesWindow {
    /// Adds `win.feed-properties` (taking the feed's id) to `window`, whose widgets `life`
    /// follows; `changed` runs after every change kept.
    static func addAction(to window: UnsafeMutablePointer<GtkWidget>, life: WidgetLife, library: FeedLibrary, preferences: Preferences,
                          changed: @escaping @MainActor () -> Void) {
        Widgets.addAction(to: window, "feed-properties", withInt64: true) { feedID in
            Task { @MainActor in
                // The window may have closed while the feed was read.
                guard let feed = try? await library.store.feed(id: feedID), life.isAlive else { return }
                present(feed, over: window, library: library,
                        defaults: Defaults(refreshMinutes: preferences.refreshMinutes, keepDays: preferences.keepDays), changed: changed)
            }
        }
    }
}
