import RefreshGtk

/// The live language switch: every visible text in the new language at once, the window's state
/// (selection, scroll, the article open) kept, since the widgets stay and only their texts change.
@MainActor
enum LanguageSwitch {
    /// Switches `main` to the language `code` (empty: the system's) and remembers the choice.
    static func apply(_ code: String, to main: MainWindow) {
        LanguageChoice.choose(code, in: main.settings)
        main.sidebar.retranslate()
        main.entryList.retranslate()
        main.article.retranslate()
        main.filterBar.retranslate()
        main.notices.banner.rebuild()
        main.importBar.rebuild()
        main.feedFailure.rebuild()
        main.retranslate()
    }
}
