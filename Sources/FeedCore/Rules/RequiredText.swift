/// The plain texts a regular expression cannot match without, read from the pattern: every match
/// of `/video/\d+$` contains "/video/", every match of `\b(?:cat|dog)s?\b` "cat" or "dog". The
/// rules' screen (`LiteralScreen`) looks for them with the plain conditions' words, and PCRE2 runs
/// only on a text that has one (docs/rules.md).
///
/// It must never say a text is required when a match can do without it, so it reads only the
/// PCRE2 syntax it knows (literal characters, escaped punctuation, `.`, classes, groups,
/// alternation, quantifiers, anchors, lookarounds and the common escapes such as `\d` and `\b`)
/// and gives up, requiring nothing, on anything else (`\x41`, `\Q…\E`, back-references, inline
/// options, verbs). Texts are ASCII, lowercased: the screen folds ASCII case and reports the
/// non-ASCII characters PCRE2 folds onto ASCII letters, so a caseless pattern is screened too.
enum RequiredText {
    /// The fewest bytes a required text has to be worth looking for: one byte is in most texts.
    static let shortest = 2

    /// Texts one of which every match of `pattern` contains, ASCII and lowercased; nil when the
    /// pattern requires none this reading can tell (or only ones shorter than `shortest`).
    static func alternatives(in pattern: String) -> [String]? {
        var parser = Parser(bytes: Array(pattern.utf8))
        guard let required = parser.alternation(), parser.isAtEnd, let texts = required,
              texts.allSatisfy({ $0.count >= shortest }) else { return nil }
        return Set(texts.map { String(decoding: $0, as: UTF8.self) }).sorted()
    }

    /// Texts one of which a part of a pattern always matches; nil for none known.
    typealias Requirement = [[UInt8]]?

    /// One item of a sequence, before its quantifier.
    private enum Atom {
        /// An ASCII character matched as itself (lowercased).
        case literal(UInt8)
        /// A group, which requires what its alternatives do.
        case group(Requirement)
        /// Something matched that is not known to be a literal: `.`, a class, `\d`, a non-ASCII character.
        case other
        /// Matches no character: an anchor, `\b`, a lookaround.
        case assertion
    }

    /// A recursive-descent reading of PCRE2's syntax; each function returns nil for a pattern it
    /// does not know, which makes the whole pattern require nothing.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        private func peek(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        /// Branches separated by `|`, up to a `)` or the end: what every branch requires, together.
        mutating func alternation() -> Requirement? {
            var texts: [[UInt8]] = []
            var anyBranchFree = false
            while true {
                guard let branch = sequence() else { return nil }
                if let branch { texts += branch } else { anyBranchFree = true }
                guard peek() == UInt8(ascii: "|") else { break }
                index += 1
            }
            return .some(anyBranchFree ? nil : texts)
        }

        /// Items one after another: the best of what each requires, adjacent literals joined.
        private mutating func sequence() -> Requirement? {
            var candidates: [[[UInt8]]] = []
            var run: [UInt8] = []
            func endRun() {
                if !run.isEmpty { candidates.append([run]) }
                run = []
            }
            while let byte = peek(), byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                guard let item = atom(), let least = quantifier() else { return nil }
                if case .literal(let character) = item, least == nil {
                    run.append(character)
                    continue
                }
                endRun()
                // Repeated at least once, an item still requires what it does; optional, nothing.
                guard least.map({ $0 > 0 }) ?? true else { continue }
                switch item {
                case .literal(let character): candidates.append([[character]])
                case .group(let required?): candidates.append(required)
                case .group(nil), .other, .assertion: break
                }
            }
            endRun()
            // The longest shortest text is the rarest in most texts; then the fewest texts.
            let best = candidates.max { left, right in
                let (leftShortest, rightShortest) = (left.map(\.count).min() ?? 0, right.map(\.count).min() ?? 0)
                return leftShortest != rightShortest ? leftShortest < rightShortest : left.count > right.count
            }
            return .some(best)
        }

        /// The next atom, `index` after it.
        private mutating func atom() -> Atom? {
            guard let byte = peek() else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "\\"): return escape()
            case UInt8(ascii: "("): return group()
            case UInt8(ascii: "["): return characterClass()
            case UInt8(ascii: "."): return .other
            case UInt8(ascii: "^"), UInt8(ascii: "$"): return .assertion
            // A quantifier with nothing before it, or a brace PCRE2 may read as a literal.
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"): return nil
            case 0x80...:
                // A non-ASCII character, all its bytes: the screen has no key for it.
                while let next = peek(), next & 0xC0 == 0x80 { index += 1 }
                return .other
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return .literal(byte | 0x20)
            default: return .literal(byte)
            }
        }

        /// After a backslash.
        private mutating func escape() -> Atom? {
            guard let byte = peek() else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "G"),
                 UInt8(ascii: "K"):
                return .assertion
            case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "s"), UInt8(ascii: "S"),
                 UInt8(ascii: "h"), UInt8(ascii: "H"), UInt8(ascii: "v"), UInt8(ascii: "V"), UInt8(ascii: "R"), UInt8(ascii: "X"),
                 UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "a"):
                return .other
            // \N is any character but a newline, \N{…} a named one.
            case UInt8(ascii: "N"): return peek() == UInt8(ascii: "{") ? nil : .other
            // Escaped punctuation is itself; every other escape (\x, \Q, \1, \p…) is left to PCRE2.
            case 0x21...0x7E where !(byte.isASCIILetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)): return .literal(byte)
            case UInt8(ascii: " "): return .literal(byte)
            default: return nil
            }
        }

        /// After `(`: a group, or a lookaround, which matches no character.
        private mutating func group() -> Atom? {
            var isLookaround = false
            if peek() == UInt8(ascii: "?") {
                switch (peek(1) ?? 0, peek(2) ?? 0) {
                case (UInt8(ascii: ":"), _), (UInt8(ascii: ">"), _): index += 2
                case (UInt8(ascii: "="), _), (UInt8(ascii: "!"), _):
                    index += 2
                    isLookaround = true
                case (UInt8(ascii: "<"), UInt8(ascii: "=")), (UInt8(ascii: "<"), UInt8(ascii: "!")):
                    index += 3
                    isLookaround = true
                case (UInt8(ascii: "<"), _), (UInt8(ascii: "P"), UInt8(ascii: "<")), (UInt8(ascii: "'"), _):
                    // A named group: its name, then its pattern.
                    let close = peek(1) == UInt8(ascii: "'") ? UInt8(ascii: "'") : UInt8(ascii: ">")
                    index += peek(1) == UInt8(ascii: "P") ? 3 : 2
                    while let byte = peek(), byte.isASCIILetter || byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                        index += 1
                    }
                    guard peek() == close else { return nil }
                    index += 1
                default: return nil
                }
            } else if peek() == UInt8(ascii: "*") {
                return nil
            }
            guard let required = alternation(), peek() == UInt8(ascii: ")") else { return nil }
            index += 1
            return isLookaround ? .assertion : .group(required)
        }

        /// After `[`: up to the `]` that closes it.
        private mutating func characterClass() -> Atom? {
            if peek() == UInt8(ascii: "^") { index += 1 }
            // A `]` first is one of the class's characters.
            if peek() == UInt8(ascii: "]") { index += 1 }
            while let byte = peek() {
                index += 1
                switch byte {
                case UInt8(ascii: "]"): return .other
                case UInt8(ascii: "\\"):
                    // \Q…\E inside a class would hide its `]`.
                    guard let escaped = peek(), escaped != UInt8(ascii: "Q"), escaped != UInt8(ascii: "E") else { return nil }
                    index += 1
                case UInt8(ascii: "[") where peek() == UInt8(ascii: ":"):
                    // A POSIX class, `[:alpha:]`.
                    index += 1
                    while let next = peek(), next != UInt8(ascii: ":") { index += 1 }
                    guard peek(1) == UInt8(ascii: "]") else { return nil }
                    index += 2
                default: break
                }
            }
            return nil
        }

        /// The least count of a quantifier after an atom: `.some(nil)` for none, nil for one this
        /// reading does not know.
        private mutating func quantifier() -> Int?? {
            let least: Int
            switch peek() {
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                least = 0
                index += 1
            case UInt8(ascii: "+"):
                least = 1
                index += 1
            case UInt8(ascii: "{"):
                index += 1
                guard let count = number() else { return nil }
                least = count
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    _ = number()
                }
                guard peek() == UInt8(ascii: "}") else { return nil }
                index += 1
            default:
                return .some(nil)
            }
            // Lazy or possessive.
            if peek() == UInt8(ascii: "?") || peek() == UInt8(ascii: "+") { index += 1 }
            return .some(least)
        }

        private mutating func number() -> Int? {
            var value: Int?
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), (value ?? 0) < 100_000 {
                value = (value ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }
    }
}
