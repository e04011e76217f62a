import Foundation

/// Which of the selected feeds' entries the list shows.
enum EntryFilter: CaseIterable {
    case all, unread, starred
}

/// Pango markup for a row's text with the words a search matched highlighted.
enum SearchHighlight {
    /// `text` escaped for Pango, each word starting with one of `terms` (ignoring case and
    /// accents, as the search does) wrapped in a highlight.
    static func markup(_ text: String, terms: [String]) -> String {
        let folded = terms.map(fold)
        var result = ""
        var word = ""
        func flushWord() {
            guard !word.isEmpty else { return }
            let key = fold(word)
            if folded.contains(where: { key.hasPrefix($0) }) {
                result += "<span background=\"#f8e45c\" foreground=\"#000000\">" + Markup.escaped(word) + "</span>"
            } else {
                result += Markup.escaped(word)
            }
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else {
                flushWord()
                result += Markup.escaped(String(character))
            }
        }
        flushWord()
        return result
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
