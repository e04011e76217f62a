import Foundation

/// Which of the selected feeds' entries the list shows.
enum EntryFilter: CaseIterable {
    case all, unread
}

/// Pango markup for a row's text with the words a search matched highlighted.
enum SearchHighlight {
    /// `text` escaped for Pango, each word starting with one of `terms` (ignoring case and
    /// accents, as the search does) wrapped in a highlight.
    static func markup(_ text: String, terms: [String]) -> String {
        let folded = terms.map(fold)
        var result = ""
        result.reserveCapacity(text.utf8.count + 64)
        var word = Substring()
        func flushWord() {
            guard !word.isEmpty else { return }
            let key = fold(word)
            if folded.contains(where: { key.hasPrefix($0) }) {
                result += "<span background=\"#f8e45c\" foreground=\"#000000\">"
                Markup.append(word, to: &result)
                result += "</span>"
            } else {
                Markup.append(word, to: &result)
            }
        }
        var wordStart = text.startIndex
        for index in text.indices {
            let character = text[index]
            if character.isLetter || character.isNumber { continue }
            word = text[wordStart..<index]
            flushWord()
            Markup.append(character, to: &result)
            wordStart = text.index(after: index)
        }
        word = text[wordStart...]
        flushWord()
        return result
    }

    /// Lowercased without accents. Foundation's folding is slow on Linux (a keystroke folds
    /// every word of fifty rows): ASCII words, most of them, only need lowercasing.
    private static func fold<Text: StringProtocol>(_ text: Text) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return String(text).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
