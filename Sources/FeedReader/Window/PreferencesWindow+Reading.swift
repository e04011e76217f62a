import CGtk
import RefreshGtk

/// The Reading group: when entries are marked read, the article's font, size and line length,
/// and whether it loads remote images.
extension PreferencesWindow {
    func readingRows() -> [UnsafeMutablePointer<GtkWidget>] {
        let preferences = preferences
        let markRead = choiceRow(tr("Mark entries read"), Preferences.MarkRead.allCases, text: \.text, setting: \.markRead)
        let font = choiceRow(tr("Article font"), Preferences.ArticleFont.allCases, text: \.text, setting: \.articleFont)
        let size = choiceRow(tr("Text size"), Preferences.fontPointChoices, text: Preferences.fontPointsText, setting: \.articleFontPoints)
        let measure = choiceRow(tr("Line length"), Preferences.Measure.allCases, text: \.text, setting: \.articleMeasure, fallback: 1)
        let images = switchRow(tr("Load remote images"), subtitle: tr("Images from the web tell their sites that you read the entry"),
                               isOn: preferences.loadsRemoteImages) { preferences.loadsRemoteImages = $0 }
        return [markRead, font, size, measure, images]
    }

    /// A combo row offering `choices` for the preference at `setting`; the row starts at its
    /// value, or at the `fallback`th choice when the value is none of them.
    private func choiceRow<Choice: Equatable>(_ title: String, _ choices: [Choice], text: (Choice) -> String,
                                              setting: ReferenceWritableKeyPath<Preferences, Choice>,
                                              fallback: Int = 0) -> UnsafeMutablePointer<GtkWidget> {
        let preferences = preferences
        return comboRow(title, choices: choices.map(text), selected: choices.firstIndex(of: preferences[keyPath: setting]) ?? fallback) { index in
            preferences[keyPath: setting] = choices[index]
        }
    }
}
