import CGtk
import RefreshGtk

/// The Reading group: when entries are marked read, the article's font, size and line length,
/// and whether it loads remote images.
extension PreferencesWindow {
    func readingRows() -> [UnsafeMutablePointer<GtkWidget>] {
        let preferences = preferences
        let modes = Preferences.MarkRead.allCases
        let markRead = comboRow(tr("Mark entries read"), choices: modes.map(\.text),
                                selected: modes.firstIndex(of: preferences.markRead) ?? 0) { index in
            preferences.markRead = modes[index]
        }
        let fonts = Preferences.ArticleFont.allCases
        let font = comboRow(tr("Article font"), choices: fonts.map(\.text),
                            selected: fonts.firstIndex(of: preferences.articleFont) ?? 0) { index in
            preferences.articleFont = fonts[index]
        }
        let sizes = Preferences.fontPointChoices
        let size = comboRow(tr("Text size"), choices: sizes.map(Preferences.fontPointsText),
                            selected: sizes.firstIndex(of: preferences.articleFontPoints) ?? 0) { index in
            preferences.articleFontPoints = sizes[index]
        }
        let measures = Preferences.Measure.allCases
        let measure = comboRow(tr("Line length"), choices: measures.map(\.text),
                               selected: measures.firstIndex(of: preferences.articleMeasure) ?? 1) { index in
            preferences.articleMeasure = measures[index]
        }
        let images = switchRow(tr("Load remote images"), subtitle: tr("Images from the web tell their sites that you read the entry"),
                               isOn: preferences.loadsRemoteImages) { preferences.loadsRemoteImages = $0 }
        return [markRead, font, size, measure, images]
    }
}
