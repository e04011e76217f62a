/// Text placed inside Pango markup, GtkBuilder XML or the article's HTML.
enum Markup {
    /// `text` with the five characters markup gives a meaning to escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        append(text, to: &result)
        return result
    }

    /// Appends `text` to `result`, escaped.
    static func append<Text: StringProtocol>(_ text: Text, to result: inout String) {
        for character in text { append(character, to: &result) }
    }

    /// Appends `character` to `result`, escaped.
    static func append(_ character: Character, to result: inout String) {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.append(character)
        }
    }
}
