import Foundation
import Testing
@testable import FeedCore

/// The one pass that finds the plain conditions' words in an entry (`LiteralScreen`) and the
/// matching of many entries on every core must decide exactly what PCRE2, condition by
/// condition and entry by entry, decides.
@Suite("Matching many rules and entries at once")
struct RuleScreenTests {
    /// Rules, each with its own label so a verdict says which matched: plain words sharing
    /// prefixes and suffixes (the automaton's failure links), every comparison, negation, any,
    /// case-sensitive, a non-ASCII word (not screened), and the two-text fields.
    static let rules: [Rule] = {
        let table: [(conditions: [RuleCondition], requirement: Rule.Requirement)] = [
            ([RuleCondition(.title, .contains, "sponsored")], .all),
            ([RuleCondition(.title, .contains, "he")], .all),
            ([RuleCondition(.title, .contains, "she")], .all),
            ([RuleCondition(.title, .word, "hers")], .all),
            ([RuleCondition(.title, .is, "Weekly notes")], .all),
            ([RuleCondition(.title, .contains, "Kelvin", isCaseSensitive: true)], .all),
            ([RuleCondition(.title, .word, "c++")], .all),
            ([RuleCondition(.title, .contains, "élan")], .all),
            ([RuleCondition(.title, .matches, #"^\d+ ways"#)], .all),
            ([RuleCondition(.content, .word, "crypto"), RuleCondition(.author, .is, "ann")], .all),
            ([RuleCondition(.content, .contains, "promo code"), RuleCondition(.link, .contains, "/ads/")], .any),
            ([RuleCondition(.title, .contains, "sport", isNegated: true), RuleCondition(.title, .contains, "news")], .all),
            ([RuleCondition(.feed, .contains, "example.org/deals")], .all),
            ([RuleCondition(.account, .is, "alice")], .all),
        ]
        return table.enumerated().map { index, row in
            Rule(id: Int64(index + 1), name: "r\(index + 1)", requirement: row.requirement, conditions: row.conditions, actions: [],
                 label: "r\(index + 1)")
        }
    }()

    static let subjects: [RuleSubject] = [
        RuleSubject(title: "SPONSORED: a post"),
        RuleSubject(title: "Unſponſored?"),  // ſ folds onto s in PCRE2's caseless matching
        RuleSubject(title: "ushers"),
        RuleSubject(title: "The hers and his"),
        RuleSubject(title: "weekly NOTES"),
        RuleSubject(title: "Weekly notes 2"),
        RuleSubject(title: "kelvin"),
        RuleSubject(title: "\u{212A}elvin"),  // the Kelvin sign, which folds onto k
        RuleSubject(title: "Learning C++ today"),
        RuleSubject(title: "c+++"),
        RuleSubject(title: "Un ÉLAN nouveau"),
        RuleSubject(title: "12 ways to win"),
        RuleSubject(title: "Sport news"),
        RuleSubject(title: "Local news"),
        RuleSubject(title: "x", content: "Buy CRYPTO now", author: "Ann"),
        RuleSubject(title: "x", content: "cryptography", author: "ann"),
        RuleSubject(title: "x", content: "A PROMO CODE inside"),
        RuleSubject(title: "x", link: "https://a.example/ads/1"),
        RuleSubject(title: "x", feedTitle: "Deals", feedURL: "https://EXAMPLE.org/deals.xml"),
        RuleSubject(title: "x", accountServer: "https://rss.example/", accountUser: "Alice"),
        RuleSubject(title: nil, content: nil),
        // Longer than the texts matching starts with room for, so they are copied into more.
        RuleSubject(title: String(repeating: "Sport ", count: 1_000) + "news", content: String(repeating: "word ", count: 2_000) + "promo code",
                    author: "ann"),
    ]

    /// What PCRE2 alone says of `rule` on `subject`, each condition matched by its own pattern.
    private static func reference(_ rule: Rule, _ subject: RuleSubject) throws -> Bool {
        let holds = try rule.conditions.map { condition in
            let pattern = try RulePattern(condition.comparison, condition.pattern, caseSensitive: condition.isCaseSensitive)
            let (text, otherText) = subject.texts(of: condition.field)
            let matched = pattern.match(text) == .match || otherText.map { pattern.match($0) == .match } ?? false
            return matched != condition.isNegated
        }
        return rule.requirement == .all ? !holds.contains(false) : holds.contains(true)
    }

    @Test(arguments: subjects.indices)
    func theScreenedBookDecidesAsEachPatternAlone(subject index: Int) throws {
        let subject = Self.subjects[index]
        let book = try RuleBook(Self.rules)
        let expected = Set(try Self.rules.filter { try Self.reference($0, subject) }.map(\.name))

        #expect(book.verdict(for: subject).labels == expected)
    }

    @Test func theReferenceSeesWhatTheTableIsAbout() throws {
        // The tricky rows really are matches, so the test above cannot pass by both sides missing them.
        let matched = { (index: Int) in Set(try Self.rules.filter { try Self.reference($0, Self.subjects[index]) }.map(\.name)) }
        #expect(try matched(1) == ["r1"])
        #expect(try matched(2) == ["r2", "r3"])
        #expect(try matched(7) == [])
        #expect(try matched(10) == ["r8"])
        #expect(try matched(18) == ["r13"])
        #expect(try matched(21) == ["r11"])
    }

    @Test func matchingOnEveryCoreGivesWhatMatchingOneByOneGives() throws {
        let book = try RuleBook(Self.rules)
        let subjects = (0..<1_000).map { Self.subjects[$0 % Self.subjects.count] }

        let parallel = book.verdicts(for: subjects)

        #expect(parallel == subjects.map(book.verdict(for:)))
        #expect(parallel.filter { !$0.labels.isEmpty }.count > 500)
    }

    @Test func aBookRestrictedToSomeRulesMatchesOnlyThose() throws {
        let book = try RuleBook(Self.rules).restricted(to: [3, 9])

        #expect(book.verdict(for: RuleSubject(title: "ushers")).labels == ["r3"])
        #expect(book.verdict(for: RuleSubject(title: "12 ways to win")).labels == ["r9"])
        #expect(book.verdict(for: RuleSubject(title: "SPONSORED")).labels.isEmpty)
    }
}
