import Foundation

/// A compiled gettext catalog (`.mo`) read by the library itself.
///
/// glibc's gettext picks the language from `LANGUAGE`, which only `setenv` can change, and
/// `setenv` is undefined behaviour while other threads may call `getenv`. Reading the catalog of
/// the language asked for lets ``RefreshLocalization/setLanguage(_:)`` switch without it.
struct MessageCatalog: Sendable {
    /// The translations by msgid (a plural entry by its singular msgid), one per plural form.
    private let messages: [String: [String]]
    private let pluralRule: PluralRule

    /// Reads the catalog at `path`; nil when it is missing or not a catalog.
    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 20 else { return nil }
        let bytes = [UInt8](data)
        let magic = Self.word(bytes, at: 0, bigEndian: false)
        let bigEndian: Bool
        switch magic {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: return nil
        }
        let word = { (offset: Int) in Self.word(bytes, at: offset, bigEndian: bigEndian) }
        let count = Int(word(8)), originals = Int(word(12)), translations = Int(word(16))
        guard originals + count * 8 <= bytes.count, translations + count * 8 <= bytes.count else { return nil }
        let string = { (table: Int, index: Int) -> [String]? in
            let length = Int(word(table + index * 8)), start = Int(word(table + index * 8 + 4))
            guard start + length <= bytes.count else { return nil }
            return bytes[start..<start + length].split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        var messages: [String: [String]] = [:]
        for index in 0..<count {
            guard let msgid = string(originals, index), let forms = string(translations, index) else { return nil }
            messages[msgid[0]] = forms
        }
        self.messages = messages
        let header = messages[""]?.first ?? ""
        pluralRule = header.split(separator: "\n").first { $0.hasPrefix("Plural-Forms:") }
            .flatMap { PluralRule(header: String($0)) } ?? PluralRule.germanic
    }

    /// The translation of `msgid`, if the catalog has one.
    func string(_ msgid: String) -> String? {
        guard let form = messages[msgid]?.first, !form.isEmpty else { return nil }
        return form
    }

    /// The form of `singular`'s translation the language uses for `count`, if the catalog has one.
    func plural(_ singular: String, count: Int) -> String? {
        guard let forms = messages[singular] else { return nil }
        let index = pluralRule.form(for: count)
        guard forms.indices.contains(index), !forms[index].isEmpty else { return nil }
        return forms[index]
    }

    private static func word(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        let value = bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bigEndian ? value.byteSwapped : value
    }
}

/// A catalog's `Plural-Forms` rule: the C expression of `n` that picks the form.
struct PluralRule: Sendable {
    private let expression: Expression

    /// English's and German's rule, gettext's default: one form for 1, another for the rest.
    static let germanic = PluralRule(expression: .binary("!=", .n, .number(1)))

    private init(expression: Expression) { self.expression = expression }

    /// Parses `Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : ...);`.
    init?(header: String) {
        guard let start = header.range(of: "plural=", options: .backwards) else { return nil }
        let source = header[start.upperBound...].prefix { $0 != ";" }
        var parser = Parser(tokens: Parser.tokenize(String(source)))
        guard let expression = parser.ternary(), parser.isAtEnd else { return nil }
        self.expression = expression
    }

    /// The index of the plural form for `count`.
    func form(for count: Int) -> Int { max(0, expression.value(n: count.magnitude)) }

    fileprivate indirect enum Expression: Sendable {
        case n
        case number(Int)
        case not(Expression)
        case binary(String, Expression, Expression)
        case choice(Expression, Expression, Expression)

        func value(n: UInt) -> Int {
            switch self {
            case .n: return Int(n)
            case let .number(value): return value
            case let .not(operand): return operand.value(n: n) == 0 ? 1 : 0
            case let .choice(condition, then, otherwise):
                return condition.value(n: n) != 0 ? then.value(n: n) : otherwise.value(n: n)
            case let .binary(op, lhs, rhs):
                let a = lhs.value(n: n), b = rhs.value(n: n)
                switch op {
                case "||": return (a != 0 || b != 0) ? 1 : 0
                case "&&": return (a != 0 && b != 0) ? 1 : 0
                case "==": return a == b ? 1 : 0
                case "!=": return a != b ? 1 : 0
                case "<": return a < b ? 1 : 0
                case ">": return a > b ? 1 : 0
                case "<=": return a <= b ? 1 : 0
                case ">=": return a >= b ? 1 : 0
                case "+": return a + b
                case "-": return a - b
                case "*": return a * b
                case "/": return b == 0 ? 0 : a / b
                default: return b == 0 ? 0 : a % b
                }
            }
        }
    }

    /// A recursive-descent parser over C's precedence levels, as gettext's own grammar has them.
    private struct Parser {
        var tokens: [String]
        var position = 0

        var isAtEnd: Bool { position == tokens.count }

        static func tokenize(_ source: String) -> [String] {
            var tokens: [String] = []
            var characters = Array(source)[...]
            while let first = characters.first {
                if first.isWhitespace {
                    characters.removeFirst()
                } else if first.isNumber {
                    let digits = characters.prefix { $0.isNumber }
                    tokens.append(String(digits))
                    characters.removeFirst(digits.count)
                } else if characters.count >= 2, ["||", "&&", "==", "!=", "<=", ">="].contains(String(characters.prefix(2))) {
                    tokens.append(String(characters.prefix(2)))
                    characters.removeFirst(2)
                } else {
                    tokens.append(String(first))
                    characters.removeFirst()
                }
            }
            return tokens
        }

        mutating func ternary() -> Expression? {
            guard let condition = binary(level: 0) else { return nil }
            guard take("?") else { return condition }
            guard let then = ternary(), take(":"), let otherwise = ternary() else { return nil }
            return .choice(condition, then, otherwise)
        }

        private static let levels: [Set<String>] = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="],
                                                      ["+", "-"], ["*", "/", "%"]]

        private mutating func binary(level: Int) -> Expression? {
            guard level < Self.levels.count else { return unary() }
            guard var lhs = binary(level: level + 1) else { return nil }
            while position < tokens.count, Self.levels[level].contains(tokens[position]) {
                let op = tokens[position]
                position += 1
                guard let rhs = binary(level: level + 1) else { return nil }
                lhs = .binary(op, lhs, rhs)
            }
            return lhs
        }

        private mutating func unary() -> Expression? {
            if take("!") { return unary().map { .not($0) } }
            guard position < tokens.count else { return nil }
            let token = tokens[position]
            position += 1
            if token == "n" { return .n }
            if let value = Int(token) { return .number(value) }
            guard token == "(", let inner = ternary(), take(")") else { return nil }
            return inner
        }

        private mutating func take(_ token: String) -> Bool {
            guard position < tokens.count, tokens[position] == token else { return false }
            position += 1
            return true
        }
    }
}
