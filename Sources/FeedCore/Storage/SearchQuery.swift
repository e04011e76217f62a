/// What a search's text asks for, in the syntax docs/feed-reader.md describes: words (every one
/// must be there), `"a phrase"`, `word*` (a prefix; the last word typed is one too from its
/// third letter, so results follow typing), `-word` or `-"a phrase"` (left out), `title:` and
/// `author:` before a word or phrase (only in that field), and `feed:name` or `feed:"a name"`
/// (only in feeds whose name holds it). Nothing is a syntax error: a quote left open runs to the
/// end, a prefix this does not know is read as the words typed, and `title:` with nothing after
/// it is left out.
public struct SearchQuery: Sendable, Hashable {
    /// A word or phrase to match.
    public struct Term: Sendable, Hashable {
        /// Its words, letters and digits only: more than one make a phrase.
        public var words: [String]
        /// Whether its last word also matches as the start of a longer word.
        public var isPrefix = false
        /// Whether it is a prefix only because it ends the text, where a word may not be finished.
        public var isBeingTyped = false
        /// The only field it is looked for in; nil for any.
        public var field: Field?
        /// Whether entries holding it are left out.
        public var isExcluded = false
    }

    /// The fields of the index a term can be limited to, named as typed.
    public enum Field: String, Sendable, Hashable {
        case title, author
    }

    public var terms: [Term] = []
    /// What a feed's name must hold (any of them), as typed after `feed:`.
    public var feedNames: [String] = []

    public init(_ text: String) {
        var rest = Substring(text)
        // The last term, while it is being typed: its last word may not be finished yet.
        var typing: Int?
        while let token = Self.nextToken(in: &rest) {
            var body = token.text, quoted = token.quoted
            var term = Term(words: [])
            if !quoted, body.hasPrefix("-") {
                term.isExcluded = true
                body.removeFirst()
            }
            var prefix: String?
            if !quoted, let colon = body.firstIndex(of: ":") {
                prefix = body[..<colon].lowercased()
                body = body[body.index(after: colon)...]
            }
            var open = token.open
            if !quoted, body.isEmpty, token.followedByQuote, let phrase = Self.nextToken(in: &rest) {
                body = phrase.text
                quoted = true
                open = phrase.open
            }
            switch prefix.map({ ($0, Field(rawValue: $0)) }) {
            case ("feed", _)? where !term.isExcluded && !body.trimmingCharacters(in: .whitespaces).isEmpty:
                feedNames.append(body.trimmingCharacters(in: .whitespaces))
                typing = nil
                continue
            case let (_, field?)?:
                term.field = field
            case let (name, nil)?:
                // Not a prefix this knows: the words typed, the name's among them.
                body = Substring(name + " " + body)
            case nil:
                break
            }
            term.isPrefix = !quoted && body.hasSuffix("*")
            let words = Self.words(in: body)
            guard !words.isEmpty else { continue }
            if quoted || term.field != nil || term.isExcluded || term.isPrefix {
                term.words = words
                terms.append(term)
            } else {
                // Bare words, as before the syntax: each must be there, anywhere.
                terms += words.map { Term(words: [$0]) }
            }
            // A closed phrase is finished; anything else ending the text may not be.
            typing = quoted && !open ? nil : terms.count - 1
        }
        if let last = typing, !terms[last].isPrefix, text.last.map({ !$0.isWhitespace && $0 != "\"" }) ?? false {
            terms[last].isPrefix = true
            terms[last].isBeingTyped = true
        }
    }

    /// The words entries must hold, to mark in what is listed.
    public var highlightedWords: [String] {
        terms.filter { !$0.isExcluded }.flatMap(\.words)
    }

    /// The FTS5 expression of the terms; nil when no term must be there (FTS5 cannot match
    /// only what is left out).
    public var matchExpression: String? { matchExpression(expanding: [:]) }

    /// The FTS5 expression of the terms, a prefix term whose last word `expansions` holds
    /// matching any of the words listed for it there instead (`FeedStore.prefixExpansions`); nil
    /// when no term must be there, or one that must has no word to match.
    func matchExpression(expanding expansions: [String: [String]]) -> String? {
        let included = terms.filter { !$0.isExcluded }, excluded = terms.filter(\.isExcluded)
        guard !included.isEmpty else { return nil }
        var all: [String] = []
        for term in included {
            guard let expression = Self.expression(term, expansions: expansions) else { return nil }
            all.append(expression)
        }
        // A word left out that no entry holds leaves nothing out.
        return excluded.compactMap { Self.expression($0, expansions: expansions) }
            .reduce("(\(all.joined(separator: " AND ")))") { $0 + " NOT " + $1 }
    }

    /// A term as FTS5 reads it: words hold only letters and digits, so quoted they are plain
    /// strings; a prefix `expansions` holds is each of its words in turn (nil for none).
    private static func expression(_ term: Term, expansions: [String: [String]]) -> String? {
        var phrases = ["\"" + term.words.joined(separator: " ") + "\"" + (term.isPrefix ? " *" : "")]
        if term.isPrefix, let prefix = term.words.last, let words = expansions[prefix] {
            guard !words.isEmpty else { return nil }
            phrases = words.map { "\"" + (term.words.dropLast() + [$0]).joined(separator: " ") + "\"" }
        }
        let any = phrases.count == 1 ? phrases[0] : "(" + phrases.joined(separator: " OR ") + ")"
        return term.field.map { "\($0.rawValue) : \(any)" } ?? any
    }

    /// The runs of letters and digits in `text`, as the index splits it.
    static func words(in text: Substring) -> [String] {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// The next token of `rest`: a run up to white space, or what is between quotes (to the end
    /// when the quote is left open), taking it off `rest`.
    private static func nextToken(in rest: inout Substring) -> (text: Substring, quoted: Bool, open: Bool, followedByQuote: Bool)? {
        rest = rest.drop(while: \.isWhitespace)
        guard let first = rest.first else { return nil }
        if first == "\"" {
            let inside = rest.dropFirst()
            let end = inside.firstIndex(of: "\"") ?? inside.endIndex
            rest = end < inside.endIndex ? inside[inside.index(after: end)...] : inside[end...]
            return (inside[..<end], true, end == inside.endIndex, false)
        }
        // A quote inside a token starts a phrase after it (`title:"a b"`, `-"a b"`).
        let end = rest.firstIndex(where: { $0.isWhitespace || $0 == "\"" }) ?? rest.endIndex
        let token = rest[..<end]
        rest = rest[end...]
        return (token, false, false, rest.first == "\"")
    }
}
