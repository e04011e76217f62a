import CAdw
import CGtk
import RefreshGtk

/// The preferences as GNOME shows them: a General page of groups and rows in an
/// AdwPreferencesWindow (preferences/preferences-window.ui), each change taking effect at once,
/// the Rules page and the Accounts page. A language chosen here shows in the window at once too: its pages are
/// built again from their files.
@MainActor
final class PreferencesWindow {
    static let file = "preferences/preferences-window.ui"

    let window: UnsafeMutablePointer<GtkWidget>
    let preferences: Preferences
    /// The window whose `win.language` action switches the language; nil builds the window alone (tests).
    private let parent: UnsafeMutablePointer<GtkWidget>?
    private var page: UnsafeMutablePointer<GtkWidget>
    /// Makes the Accounts page over this window; nil where there is no sync (tests of the other pages).
    private let makeAccountsPage: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> AccountsPage)?
    private(set) var accountsPage: AccountsPage?
    /// Makes the Rules page over this window; nil where the test builds the other pages alone.
    private let makeRulesPage: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> RulesPage)?
    private(set) var rulesPage: RulesPage?
    private var retainedSelf: PreferencesWindow?

    /// Opens the preferences over `parent`, whose `win.language` action switches the language, on
    /// the Accounts page when `showingAccounts`; returns the window.
    @discardableResult
    static func present(_ preferences: Preferences, over parent: UnsafeMutablePointer<GtkWidget>, showingAccounts: Bool = false,
                        rules: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> RulesPage)? = nil,
                        accounts: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> AccountsPage)? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let shown = PreferencesWindow(preferences, parent: parent, rules: rules, accounts: accounts)
        gtk_window_set_transient_for(cast(shown.window), cast(parent))
        if showingAccounts, let page = shown.accountsPage?.page { adw_preferences_window_set_visible_page(cast(shown.window), cast(page)) }
        gtk_window_present(cast(shown.window))
        return shown.window
    }

    /// Builds the window from its file, not yet shown; it lives until it is destroyed.
    init(_ preferences: Preferences, parent: UnsafeMutablePointer<GtkWidget>? = nil,
         rules: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> RulesPage)? = nil,
         accounts: (@MainActor (UnsafeMutablePointer<GtkWidget>) -> AccountsPage)? = nil) {
        self.preferences = preferences
        self.parent = parent
        makeRulesPage = rules
        makeAccountsPage = accounts
        let file = BuilderFile(Self.file)
        window = file.widget("window")
        page = file.widget("general_page")
        retainedSelf = self
        show(file)
        AdwaitaTexts.translatePreferences(window)
        Signal.connect(cast(window), "destroy") { [weak self] in self?.retainedSelf = nil }
    }

    /// Builds the pages again from their files, in the language now chosen, keeping the window.
    func rebuild() {
        let file = BuilderFile(Self.file)
        let spare: UnsafeMutablePointer<GtkWidget> = file.widget("window")
        let fresh: UnsafeMutablePointer<GtkWidget> = file.widget("general_page")
        gtk_window_set_title(cast(window), gtk_window_get_title(cast(spare)))
        if let accountsPage { adw_preferences_window_remove(cast(window), cast(accountsPage.page)) }
        if let rulesPage { adw_preferences_window_remove(cast(window), cast(rulesPage.page)) }
        adw_preferences_window_remove(cast(window), cast(page))
        g_object_ref(cast(fresh))
        adw_preferences_window_remove(cast(spare), cast(fresh))
        adw_preferences_window_add(cast(window), cast(fresh))
        g_object_unref(cast(fresh))
        gtk_window_destroy(cast(spare))
        page = fresh
        show(file)
        // libadwaita's own texts (the search's) follow gettext, not the language chosen.
        AdwaitaTexts.translatePreferences(window)
    }

    /// Sets the General page's rows of `file` to the preferences, wires them, and adds the Accounts page.
    private func show(_ file: BuilderFile) {
        let preferences = preferences
        choice(file, "style", Preferences.Style.allCases, setting: \.style)
        let languages = LanguageChoice.choices
        let languageList = file.opaque("language_choices")
        for language in languages.dropFirst() { gtk_string_list_append(languageList, language.label) }
        let languageRow = file.widget("language_row")
        adw_combo_row_set_selected(cast(languageRow), guint(languages.firstIndex { $0.code == preferences.language } ?? 0))
        Signal.connectIgnoringArgument(cast(languageRow), "notify::selected") { [weak self] in
            let index = Int(adw_combo_row_get_selected(cast(languageRow)))
            if languages.indices.contains(index) { self?.switchLanguage(to: languages[index].code) }
        }
        choice(file, "mark_read", Preferences.MarkRead.allCases, setting: \.markRead)
        toggle(file, "scroll_read", setting: \.marksReadOnScroll)
        choice(file, "font", Preferences.ArticleFont.allCases, setting: \.articleFont)
        let sizeList = file.opaque("size_choices")
        for points in Preferences.fontPointChoices.dropFirst() {
            gtk_string_list_append(sizeList, trn("%d point", "%d points", points).filling(count: points))
        }
        choice(file, "size", Preferences.fontPointChoices, setting: \.articleFontPoints)
        choice(file, "measure", Preferences.Measure.allCases, setting: \.articleMeasure, fallback: 1)
        toggle(file, "images", setting: \.loadsRemoteImages)
        choice(file, "interval", Preferences.refreshChoices, setting: \.refreshMinutes, fallback: 2)
        toggle(file, "notify", setting: \.notifiesNewEntries)
        toggle(file, "when_focused", setting: \.notifiesWhenFocused)
        toggle(file, "background", setting: \.runsInBackground)
        choice(file, "keep", Preferences.keepChoices, setting: \.keepDays, fallback: 2)
        toggle(file, "keep_unread", setting: \.keepsUnread)
        toggle(file, "keep_starred", setting: \.keepsStarred)
        // Options that do nothing in the current state are greyed out, not hidden, so they can be
        // found: running in the background without refreshing, keeping entries when all are kept.
        let (never, forever) = (Preferences.refreshChoices.firstIndex(of: 0) ?? 0, Preferences.keepChoices.firstIndex(of: 0) ?? 0)
        let (interval, keep, sync, isNot) = (file.widget("interval_row"), file.widget("keep_row"), G_BINDING_SYNC_CREATE, BindingTransform.isNotPosition)
        g_object_bind_property_full(interval, "selected", file.widget("background_row"), "sensitive", sync, isNot, nil, BindingTransform.position(never), nil)
        g_object_bind_property_full(keep, "selected", file.widget("keep_unread_row"), "sensitive", sync, isNot, nil, BindingTransform.position(forever), nil)
        g_object_bind_property_full(keep, "selected", file.widget("keep_starred_row"), "sensitive", sync, isNot, nil, BindingTransform.position(forever), nil)
        rulesPage = makeRulesPage?(window)
        if let rulesPage { adw_preferences_window_add(cast(window), cast(rulesPage.page)) }
        accountsPage = makeAccountsPage?(window)
        if let accountsPage { adw_preferences_window_add(cast(window), cast(accountsPage.page)) }
    }

    /// Switches the app's language through the window's action, then shows this window in it; the
    /// pages are built again once the combo row that asked has finished its signal.
    private func switchLanguage(to code: String) {
        guard code != preferences.language, let parent else { return }
        gtk_widget_activate_action_variant(parent, "win.language", g_variant_new_string(code))
        MainThread.after(0) { [weak self] in self?.rebuild() }
    }

    /// Sets the combo row `<name>_row`, whose list offers `choices` in their order, to the
    /// preference at `setting` (the `fallback`th when it is none of them), and keeps it there.
    private func choice<Choice: Equatable>(_ file: BuilderFile, _ name: String, _ choices: [Choice],
                                           setting: ReferenceWritableKeyPath<Preferences, Choice>, fallback: Int = 0) {
        let row = file.widget(name + "_row")
        let preferences = preferences
        adw_combo_row_set_selected(cast(row), guint(choices.firstIndex(of: preferences[keyPath: setting]) ?? fallback))
        Signal.connectIgnoringArgument(cast(row), "notify::selected") {
            let index = Int(adw_combo_row_get_selected(cast(row)))
            if choices.indices.contains(index) { preferences[keyPath: setting] = choices[index] }
        }
    }

    /// Sets the switch `<name>_switch` to the preference at `setting`, and keeps it there.
    private func toggle(_ file: BuilderFile, _ name: String, setting: ReferenceWritableKeyPath<Preferences, Bool>) {
        let toggle = file.widget(name + "_switch")
        let preferences = preferences
        gtk_switch_set_active(cast(toggle), preferences[keyPath: setting].gboolean)
        Signal.connectIgnoringArgument(cast(toggle), "notify::active") {
            preferences[keyPath: setting] = gtk_switch_get_active(cast(toggle)) != 0
        }
    }
}
