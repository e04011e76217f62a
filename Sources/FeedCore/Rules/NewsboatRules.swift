/// newsboat's `ignore-article` lines turned into hide rules, for `feed-reader --import-newsboat-rules`.
///
/// A line is `ignore-article FEED FILTER`: FEED is `*` or a regular expression for the feed's
/// address, FILTER an expression of newsboat's filter language (`title =~ "…" and author == "…"`,
/// `or`, parentheses). A rule here is one list of conditions, all or any; so an expression is
/// written as alternatives of conjunctions, one `all` rule each, and conditions newsboat has but
/// rules do not (dates, tags, read state) leave the line unconverted, saying why.
public enum NewsboatRules {
    /// One `ignore-article` line of a configuration file and what became of it.
    public struct Line: Sendable, Equatable {
        /// The 1-based line number in the file.
        public var number: Int
        /// The rules the line became, or why it became none.
        public var result: Result<[Rule], Problem>
    }

    /// Why a line became no rule.
    public enum Problem: Error, Sendable, Equatable {
        /// The line or its filter expression cannot be read.
        case unreadable
        /// The filter reads an attribute rules have no counterpart for.
        case unsupportedAttribute(String)
        /// The filter compares with an operator rules have no counterpart for.
        case unsupportedOperator(String)
        /// The expression would need more than `maximumRules` rules.
        case tooComplex
    }

    /// The most rules one line may become.
    public static let maximumRules = 16

    /// Every `ignore-article` line of `config`, a newsboat configuration file's text.
    public static func lines(in config: String) -> [Line] {
        config.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, text in
            let words = configWords(text)
            guard words.first == "ignore-article" else { return nil }
            guard words.count == 3 else { return Line(number: index + 1, result: .failure(.unreadable)) }
            return Line(number: index + 1, result: Result { () throws(Problem) in try rules(feed: words[1], filter: words[2]) })
        }
    }

    /// The rules for one line's feed pattern and filter expression.
    static func rules(feed: String, filter: String) throws(Problem) -> [Rule] {
        var parser = FilterParser(tokens: try FilterParser.tokens(filter))
        let alternatives = try parser.expression()
        guard parser.isAtEnd else { throw .unreadable }
        let scope = feed == "*" ? [] : [RuleCondition(.feed, .matches, "^(?:" + feed + ")$", isCaseSensitive: true)]
        return alternatives.map { conditions in
            Rule(name: "newsboat: " + filter, conditions: scope + conditions, actions: [.hide])
        }
    }

    /// A configuration line's words: quoted ones with `\"` and `\\` read, `#` starting a comment.
    private static func configWords(_ line: Substring) -> [String] {
        var words: [String] = []
        var current: String?
        var quoted = false
        var escaped = false
        for character in line {
            if quoted {
                if escaped {
                    current?.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    current?.append(character)
                }
            } else if character == "\"" {
                quoted = true
                current = current ?? ""
            } else if character == "#" && current == nil {
                break
            } else if character.isWhitespace {
                if let word = current { words.append(word) }
                current = nil
            } else {
                current = (current ?? "") + String(character)
            }
        }
        if let word = current { words.append(word) }
        return words
    }
}

/// newsboat's filter expressions, read into alternatives of conjunctions of rule conditions.
private struct FilterParser {
    enum Token: Equatable {
        case word(String), text(String), symbol(String), open, close
    }

    var tokens: [Token]
    var index = 0

    var isAtEnd: Bool { index == tokens.count }

    static func tokens(_ filter: String) throws(NewsboatRules.Problem) -> [Token] {
        var tokens: [Token] = []
        var characters = Substring(filter)
        while let first = characters.first {
            if first.isWhitespace {
                characters = characters.dropFirst()
            } else if first == "(" || first == ")" {
                tokens.append(first == "(" ? .open : .close)
                characters = characters.dropFirst()
            } else if first == "\"" {
                var text = ""
                var rest = characters.dropFirst()
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\\", let next = rest.first {
                        text.append(next)
                        rest = rest.dropFirst()
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        text.append(character)
                    }
                }
                guard closed else { throw .unreadable }
                tokens.append(.text(text))
                characters = rest
            } else if "=!~#<>".contains(first) {
                let symbol = characters.prefix { "=!~#<>".contains($0) }
                tokens.append(.symbol(String(symbol)))
                characters = characters.dropFirst(symbol.count)
            } else {
                let word = characters.prefix { !$0.isWhitespace && !"()\"=!~#<>".contains($0) }
                tokens.append(.word(String(word)))
                characters = characters.dropFirst(word.count)
            }
        }
        return tokens
    }

    /// `or` of `and`s: each alternative a list of conditions that must all hold.
    mutating func expression() throws(NewsboatRules.Problem) -> [[RuleCondition]] {
        var alternatives = try conjunction()
        while next(is: .word("or")) {
            alternatives += try conjunction()
            guard alternatives.count <= NewsboatRules.maximumRules else { throw .tooComplex }
        }
        return alternatives
    }

    /// Terms joined by `and`, multiplied out over the alternatives of parenthesised ones.
    private mutating func conjunction() throws(NewsboatRules.Problem) -> [[RuleCondition]] {
        var alternatives = try term()
        while next(is: .word("and")) {
            let right = try term()
            alternatives = alternatives.flatMap { left in right.map { left + $0 } }
            guard alternatives.count <= NewsboatRules.maximumRules else { throw .tooComplex }
        }
        return alternatives
    }

    private mutating func term() throws(NewsboatRules.Problem) -> [[RuleCondition]] {
        if next(is: .open) {
            let inner = try expression()
            guard next(is: .close) else { throw .unreadable }
            return inner
        }
        guard index + 3 <= tokens.count, case let .word(attribute) = tokens[index], case let .symbol(symbol) = tokens[index + 1] else { throw .unreadable }
        let value: String
        switch tokens[index + 2] {
        case let .text(text), let .word(text): value = text
        default: throw .unreadable
        }
        index += 3
        let field: RuleCondition.Field
        switch attribute {
        case "title": field = .title
        case "content", "description": field = .content
        case "author": field = .author
        case "link": field = .link
        case "feedtitle", "feedurl", "rssurl": field = .feed
        default: throw .unsupportedAttribute(attribute)
        }
        // newsboat's =~ ignores case; == and # compare exactly.
        let condition = switch symbol {
        case "=~": RuleCondition(field, .matches, value)
        case "!~": RuleCondition(field, .matches, value, isNegated: true)
        case "==", "=": RuleCondition(field, .is, value, isCaseSensitive: true)
        case "!=": RuleCondition(field, .is, value, isNegated: true, isCaseSensitive: true)
        case "#": RuleCondition(field, .word, value, isCaseSensitive: true)
        case "!#": RuleCondition(field, .word, value, isNegated: true, isCaseSensitive: true)
        default: throw NewsboatRules.Problem.unsupportedOperator(symbol)
        }
        return [[condition]]
    }

    private mutating func next(is token: Token) -> Bool {
        guard index < tokens.count, tokens[index] == token else { return false }
        index += 1
        return true
    }
}
