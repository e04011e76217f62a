import Testing
@testable import FeedCore

/// The texts a regular expression requires (`RequiredText`) let the screen skip PCRE2; they must
/// never make it skip a text PCRE2 would match.
@Suite("The texts a regular expression requires")
struct RequiredTextTests {
    /// A pattern, whether case matters, a text, and whether PCRE2 matches it: every row that
    /// matches is one the screen must let through.
    struct Row: Sendable, CustomTestStringConvertible {
        var pattern: String
        var caseSensitive = false
        var text: String
        var matches: Bool
        var testDescription: String { "/\(pattern)/ on \"\(text)\"" }
    }

    static let rows: [Row] = [
        // Case folded, a required text in any case.
        Row(pattern: #"/video/\d+$"#, text: "https://site.example/VIDEO/12", matches: true),
        Row(pattern: #"/video/\d+$"#, text: "https://site.example/video/12/comments", matches: false),
        Row(pattern: "Sponsored", text: "sPONSORED post", matches: true),
        Row(pattern: "Sponsored", caseSensitive: true, text: "SPONSORED post", matches: false),
        Row(pattern: "Sponsored", caseSensitive: true, text: "Sponsored post", matches: true),
        // Whole words.
        Row(pattern: #"\bcat\b"#, text: "a Cat sat", matches: true),
        Row(pattern: #"\bcat\b"#, text: "concatenate", matches: false),
        Row(pattern: #"(?<!\w)c\+\+(?!\w)"#, text: "Learning C++ today", matches: true),
        // Alternations: one text of several, or none required at all.
        Row(pattern: #"\b(?:cat|dog)s?\b.*\d{4}"#, text: "Dogs of 2024", matches: true),
        Row(pattern: #"\b(?:cat|dog)s?\b.*\d{4}"#, text: "Birds of 2024", matches: false),
        Row(pattern: "^(?:promo|deal):", text: "DEAL: half price", matches: true),
        Row(pattern: #"cat|\d{3}"#, text: "room 101", matches: true),
        Row(pattern: "(?:cat|)s", text: "s", matches: true),
        Row(pattern: "(cat|dog|)food", text: "food", matches: true),
        Row(pattern: "(?<pet>cat|dog)food", text: "DOGFOOD", matches: true),
        // Optional and repeated parts.
        Row(pattern: "colou?r", text: "COLOR", matches: true),
        Row(pattern: "(?:ab)+c", text: "xababc", matches: true),
        Row(pattern: "ab{0}c", text: "ac", matches: true),
        Row(pattern: #"^Entry \d*7:"#, text: "entry 17: notes", matches: true),
        Row(pattern: "[ab]cd", text: "BCD", matches: true),
        Row(pattern: "foo(?=bar)", text: "FOOBAR", matches: true),
        Row(pattern: "(?!x)foo", text: "foo", matches: true),
        // Escapes this reading does not know, inline options: left to PCRE2 whole.
        Row(pattern: #"\x41bc"#, caseSensitive: true, text: "Abc", matches: true),
        Row(pattern: #"\Qa.b\E"#, text: "A.B", matches: true),
        Row(pattern: "(?i)abc", caseSensitive: true, text: "ABC", matches: true),
        Row(pattern: "(?-i)Abc", text: "Abc", matches: true),
        // Unicode: a non-ASCII letter is not looked for, and the two characters PCRE2 folds onto ASCII letters.
        Row(pattern: #"straße \d+"#, text: "Straße 5", matches: true),
        Row(pattern: #"straße \d+"#, text: "STRASSE 5", matches: false),
        Row(pattern: "élan", text: "ÉLAN", matches: true),
        Row(pattern: "kelvin", text: "\u{212A}elvin", matches: true),
        Row(pattern: #"\bsponsored\b"#, text: "ſponſored", matches: true),
        Row(pattern: "news", text: "NEWS in 日本語", matches: true),
    ]

    /// What the screened book says of `row`'s pattern on its text, as a rule's title condition.
    private static func screened(_ row: Row) throws -> Bool {
        let rule = Rule(id: 1, name: "r", conditions: [RuleCondition(.title, .matches, row.pattern, isCaseSensitive: row.caseSensitive)],
                        actions: [], label: "r")
        return try !RuleBook([rule]).verdict(for: RuleSubject(title: row.text)).labels.isEmpty
    }

    @Test(arguments: rows)
    func theScreenLetsThroughEveryTextPCRE2Matches(_ row: Row) throws {
        let pattern = try RulePattern(.matches, row.pattern, caseSensitive: row.caseSensitive)

        #expect((pattern.match(row.text) == .match) == row.matches, "the row says what PCRE2 says")
        #expect(try Self.screened(row) == row.matches)
    }

    @Test func allThePatternsInOneBookDecideAsEachAlone() throws {
        let rules = Self.rows.enumerated().map { index, row in
            Rule(id: Int64(index + 1), name: "r\(index)", conditions: [RuleCondition(.title, .matches, row.pattern, isCaseSensitive: row.caseSensitive)],
                 actions: [], label: "r\(index)")
        }
        let book = try RuleBook(rules)
        for row in Self.rows {
            let expected = Set(try rules.filter { try RulePattern(.matches, $0.conditions[0].pattern, caseSensitive: $0.conditions[0].isCaseSensitive)
                .match(row.text) == .match }.map(\.name))
            #expect(book.verdict(for: RuleSubject(title: row.text)).labels == expected, "\(row.text)")
        }
    }

    /// The screen folds ASCII letters and flags ſ and the Kelvin sign; a caseless match of an
    /// ASCII letter by any other character would let it skip a true match.
    @Test func onlyTwoCharactersBeyondASCIIMatchAnASCIILetterCaselessly() throws {
        let letter = try RulePattern(.matches, "[a-z]", caseSensitive: false)
        let matching = (0x80...0x2FFFF).compactMap(Unicode.Scalar.init).filter { letter.match(String(Character($0))) == .match }

        #expect(matching == ["\u{017F}", "\u{212A}"])
    }

    /// What is required, read from the pattern: a row with texts is one the screen really skips
    /// PCRE2 on, so the rows above test the screen and not PCRE2 alone.
    @Test(arguments: [
        (#"/video/\d+$"#, ["/video/"]),
        (#"\b(?:cat|dog)s?\b.*\d{4}"#, ["cat", "dog"]),
        ("^(?:promo|deal):", ["deal", "promo"]),
        (#"^Entry \d*7:"#, ["entry "]),
        ("colou?r", ["colo"]),
        ("(?:ab)+c", ["ab"]),
        ("(?<pet>cat|dog)food", ["food"]),
        ("[ab]cd", ["cd"]),
        ("foo(?=bar)", ["foo"]),
        (#"(?<!\w)c\+\+(?!\w)"#, ["c++"]),
        (#"straße \d+"#, ["stra"]),
        ("kelvin", ["kelvin"]),
        (#"cat|\d{3}"#, nil),
        ("(?:cat|)s", nil),
        ("ab{0}c", nil),
        (#"\x41bc"#, nil),
        (#"\Qa.b\E"#, nil),
        ("(?i)abc", nil),
        ("a{,3}bc", nil),
        ("élan", ["lan"]),
    ] as [(String, [String]?)])
    func theRequiredTextsAreReadFromThePattern(_ pattern: String, _ expected: [String]?) {
        #expect(RequiredText.alternatives(in: pattern) == expected)
    }
}
