import RefreshGtk

/// The live language switch: every visible text in the new language at once, the window's state
/// (selection, scroll position, search, filter, the article open) kept.
///
/// The parts' own texts, from their .ui files or declared in Swift, follow through
/// ``LanguageTexts``; what is built from a file again (the menus, the bars) is built again; what
/// the data says is shown again from the model: the sidebar's items and the selection's entries,
/// whose rows follow their items' properties.
@MainActor
enum LanguageSwitch {
    /// Switches `main` to the language `code` (empty: the system's) and remembers the choice.
    static func apply(_ code: String, to main: MainWindow) {
        LanguageChoice.choose(code, in: main.settings)
        LanguageTexts.showAll()
        main.model.fillItems()
        main.reading.showSelectionAgain()
        main.refreshing.showRunning()
        main.chrome.buildMenus()
        main.article.fullArticle.rebuild()
        main.article.welcome?.rebuild()
        main.notices.banner.rebuild()
        main.importBar.rebuild()
        main.feedFailure.showAgain()
    }
}
