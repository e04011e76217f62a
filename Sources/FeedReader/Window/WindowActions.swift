import CGtk
import RefreshGtk

/// The window's actions: each part's, then those of the window as a whole (About, Preferences,
/// the focused row's menu, the language, the notification's click) and the single-key shortcuts.
@MainActor
enum WindowActions {
    static func add(to main: MainWindow) {
        main.refreshing.addActions()
        main.subscriptions.addActions()
        main.reading.addActions()
        let muting = RuleMuting(window: main.window, store: main.library.store, model: main.model, entryList: main.entryList,
                                toasts: main.notices.toasts)
        muting.addActions()
        main.accounts.makeRulesPage = { [rules = muting.rules] window in RulesPage(rules: rules, window: window) }
        // It lives as long as the window, which holds it.
        ObjectData.set(muting, on: main.window, "feed-reader-rule-muting")
        main.accounts.addActions()
        FeedPropertiesWindow.addAction(to: main.window, life: main.life, library: main.library, preferences: main.preferences) { [weak main] in
            Task { @MainActor [weak main] in await main?.model.changed(.feeds) }
            main?.backgroundRefresh.reschedule()
        }
        let (window, application) = (main.window, main.application)
        Widgets.addAction(to: window, "about") { _ in AboutWindow.present(over: window) }
        Widgets.addAction(to: window, "entry-menu") { [weak main] _ in
            guard let main else { return }
            // The menu of the row with the keyboard's focus: a feed's or folder's in the sidebar, else the entry's.
            if let focus = gtk_root_get_focus(cast(window)), gtk_widget_is_ancestor(focus, main.sidebar.widget) != 0 {
                main.sidebar.showMenuForSelection()
            } else {
                main.entryList.showMenuForSelection()
            }
        }
        Widgets.addAction(to: window, "preferences") { [weak main] _ in main?.accounts.presentPreferences() }
        // A click on the notification: the window comes up showing the unread entries of all feeds.
        let showNew = g_simple_action_new(NewEntriesNotification.action, nil)!
        Signal.connectIgnoringArgument(cast(showNew), "activate") { [weak main] in
            guard let main else { return }
            gtk_window_present(cast(window))
            main.reading.showNewEntries()
            g_application_withdraw_notification(cast(application), NewEntriesNotification.id)
        }
        g_action_map_add_action(cast(application), cast(showNew))
        g_object_unref(cast(showNew))
        LanguageChoice.addAction(to: window, saved: LanguageChoice.saved(in: main.settings)) { [weak main] code in
            main?.switchLanguage(to: code)
        }
        KeyShortcuts.install(on: window, Shortcuts.split(Shortcuts.table).singleKeys)
        let savedSearches = SavedSearches(window: window, life: main.life, store: main.library.store, model: main.model,
                                          filterBar: main.filterBar, toasts: main.notices.toasts)
        savedSearches.onFailure = main.life.tied { [weak main] message, error in main?.notices.showStoreError(message, error) }
        savedSearches.addActions()
        // Its actions hold it weakly: it lives as long as the window.
        ObjectData.set(savedSearches, on: window, "feed-reader-saved-searches")
    }
}
