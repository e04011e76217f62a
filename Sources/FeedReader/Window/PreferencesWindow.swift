import CAdw
import CGtk
import RefreshGtk

/// The preferences as GNOME shows them: one page of groups and rows in an AdwPreferencesWindow,
/// each change taking effect at once. A language chosen here shows in the window at once too.
@MainActor
final class PreferencesWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    let preferences: Preferences
    private let parent: UnsafeMutablePointer<GtkWidget>
    private var page: UnsafeMutablePointer<GtkWidget>?
    /// Makes the Accounts page over this window; nil where there is no sync (tests of the other pages).
    private let makeAccountsPage: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> AccountsPage)?
    private(set) var accountsPage: AccountsPage?
    /// The rows greyed out while they mean nothing in the current state.
    private var dependentRows: (whenFocused: UnsafeMutablePointer<GtkWidget>, background: UnsafeMutablePointer<GtkWidget>,
                                keepUnread: UnsafeMutablePointer<GtkWidget>, keepStarred: UnsafeMutablePointer<GtkWidget>)?
    private var retainedSelf: PreferencesWindow?

    /// Opens the preferences over `parent`, whose `win.language` action switches the language, on
    /// the Accounts page when `showingAccounts`; returns the window.
    @discardableResult
    static func present(_ preferences: Preferences, over parent: UnsafeMutablePointer<GtkWidget>, showingAccounts: Bool = false,
                        accounts: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> AccountsPage)? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let shown = PreferencesWindow(preferences, parent: parent, accounts: accounts)
        shown.retainedSelf = shown
        if showingAccounts, let page = shown.accountsPage?.page { adw_preferences_window_set_visible_page(cast(shown.window), cast(page)) }
        gtk_window_present(cast(shown.window))
        return shown.window
    }

    private init(_ preferences: Preferences, parent: UnsafeMutablePointer<GtkWidget>,
                 accounts: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> AccountsPage)?) {
        self.preferences = preferences
        self.parent = parent
        makeAccountsPage = accounts
        window = adw_preferences_window_new()
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_destroy_with_parent(cast(window), 1)
        build()
        let previous = preferences.onChange
        preferences.onChange = { [weak self] in
            previous?()
            self?.updateSensitivity()
        }
        Signal.connect(cast(window), "destroy") { [weak self, weak preferences] in
            preferences?.onChange = previous
            self?.retainedSelf = nil
        }
    }

    /// Makes the page in the current language, replacing the one shown.
    private func build() {
        gtk_window_set_title(cast(window), tr("Preferences"))
        if let page { adw_preferences_window_remove(cast(window), cast(page)) }
        if let accountsPage { adw_preferences_window_remove(cast(window), cast(accountsPage.page)) }
        let preferences = preferences
        let styles = Preferences.Style.allCases
        let style = comboRow(tr("Style"), choices: styles.map(\.text), selected: styles.firstIndex(of: preferences.style) ?? 0) { index in
            preferences.style = styles[index]
        }
        let languages = LanguageChoice.choices
        let saved = preferences.language
        let language = comboRow(tr("Language"), choices: languages.map(\.label),
                                selected: languages.firstIndex { $0.code == saved } ?? 0) { [weak self] index in
            self?.switchLanguage(to: languages[index].code)
        }
        let interval = comboRow(tr("Refresh in the background"), choices: Preferences.refreshChoices.map(Preferences.refreshText),
                                selected: Preferences.refreshChoices.firstIndex(of: preferences.refreshMinutes) ?? 2) { index in
            preferences.refreshMinutes = Preferences.refreshChoices[index]
        }
        let notify = switchRow(tr("Notify about new entries"), isOn: preferences.notifiesNewEntries) { preferences.notifiesNewEntries = $0 }
        let whenFocused = switchRow(tr("Notify even when the window is focused"), isOn: preferences.notifiesWhenFocused) {
            preferences.notifiesWhenFocused = $0
        }
        let background = switchRow(tr("Run in the background"), subtitle: tr("Closing the window keeps refreshing and notifying"),
                                   isOn: preferences.runsInBackground) { preferences.runsInBackground = $0 }
        let keep = comboRow(tr("Keep read entries"), choices: Preferences.keepChoices.map(Preferences.keepText),
                            selected: Preferences.keepChoices.firstIndex(of: preferences.keepDays) ?? 2) { index in
            preferences.keepDays = Preferences.keepChoices[index]
        }
        let keepUnread = switchRow(tr("Keep unread entries however old"), isOn: preferences.keepsUnread) { preferences.keepsUnread = $0 }
        let keepStarred = switchRow(tr("Keep starred entries however old"), isOn: preferences.keepsStarred) { preferences.keepsStarred = $0 }

        let page = adw_preferences_page_new()!
        adw_preferences_page_set_title(cast(page), tr("General"))
        adw_preferences_page_set_icon_name(cast(page), "preferences-system-symbolic")
        for (title, rows) in [(tr("Appearance"), [style, language]), (tr("Reading"), readingRows()),
                              (tr("Updates"), [interval, notify, whenFocused, background]),
                              (tr("Storage"), [keep, keepUnread, keepStarred])] {
            let group = adw_preferences_group_new()!
            adw_preferences_group_set_title(cast(group), title)
            for row in rows { adw_preferences_group_add(cast(group), row) }
            adw_preferences_page_add(cast(page), cast(group))
        }
        adw_preferences_window_add(cast(window), cast(page))
        self.page = page
        accountsPage = makeAccountsPage?(window)
        if let accountsPage { adw_preferences_window_add(cast(window), cast(accountsPage.page)) }
        dependentRows = (whenFocused, background, keepUnread, keepStarred)
        updateSensitivity()
    }

    /// Options that do nothing in the current state are greyed out, not hidden, so they can be found.
    private func updateSensitivity() {
        guard let rows = dependentRows else { return }
        gtk_widget_set_sensitive(rows.whenFocused, preferences.notifiesNewEntries.gboolean)
        gtk_widget_set_sensitive(rows.background, (preferences.refreshMinutes > 0).gboolean)
        gtk_widget_set_sensitive(rows.keepUnread, (preferences.keepDays > 0).gboolean)
        gtk_widget_set_sensitive(rows.keepStarred, (preferences.keepDays > 0).gboolean)
    }

    /// Switches the app's language through the window's action, then shows this page in it; the
    /// page is rebuilt once the combo row that asked has finished its signal.
    private func switchLanguage(to code: String) {
        guard code != preferences.language else { return }
        gtk_widget_activate_action_variant(parent, "win.language", g_variant_new_string(code))
        MainThread.after(0) { [weak self] in self?.build() }
    }

    /// A row with a title, an optional explanation below it, and a switch at its end that the
    /// whole row toggles.
    func switchRow(_ title: String, subtitle: String? = nil, isOn: Bool,
                           _ changed: @escaping @MainActor (Bool) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(cast(row), title)
        if let subtitle { adw_action_row_set_subtitle(cast(row), subtitle) }
        let toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        gtk_switch_set_active(cast(toggle), isOn.gboolean)
        cgtk_accessible_set_label(cast(toggle), title)
        adw_action_row_add_suffix(cast(row), toggle)
        adw_action_row_set_activatable_widget(cast(row), toggle)
        Signal.connectIgnoringArgument(cast(toggle), "notify::active") { changed(gtk_switch_get_active(cast(toggle)) != 0) }
        return row
    }

    /// A row offering `choices` in a drop-down list, `selected` chosen.
    func comboRow(_ title: String, choices: [String], selected: Int,
                          _ changed: @escaping @MainActor (Int) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_combo_row_new()!
        adw_preferences_row_set_title(cast(row), title)
        cgtk_accessible_set_label(cast(row), title)
        let model = withCStringArray(choices) { gtk_string_list_new($0) }!
        adw_combo_row_set_model(cast(row), cast(model))
        g_object_unref(cast(model))
        adw_combo_row_set_selected(cast(row), guint(selected))
        Signal.connectIgnoringArgument(cast(row), "notify::selected") {
            let index = Int(adw_combo_row_get_selected(cast(row)))
            if index < choices.count { changed(index) }
        }
        return row
    }
}
