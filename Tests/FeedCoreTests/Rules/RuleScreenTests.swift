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
            // What decides whether a rule is asked only where its key was found (`Triggers`):
            // a negated condition first, an unscreened one first, any of conditions on several
            // fields, any with one unscreened or negated, none at all, empty patterns, anchors,
            // a regular expression on a field of two texts.
            ([RuleCondition(.title, .contains, "sport", isNegated: true), RuleCondition(.content, .word, "promo")], .all),
            ([RuleCondition(.title, .contains, "élan"), RuleCondition(.author, .contains, "ann")], .all),
            ([RuleCondition(.author, .is, "ann"), RuleCondition(.link, .matches, #"/ads/\d+$"#), RuleCondition(.feed, .word, "deals")], .any),
            ([RuleCondition(.title, .contains, "weekly"), RuleCondition(.content, .contains, "crypto", isNegated: true)], .any),
            ([RuleCondition(.title, .contains, "news"), RuleCondition(.title, .matches, "^$")], .any),
            ([], .all),
            ([], .any),
            ([RuleCondition(.title, .contains, "")], .all),
            ([RuleCondition(.content, .matches, "")], .all),
            ([RuleCondition(.title, .matches, "^sponsored"), RuleCondition(.title, .matches, #"post$"#)], .all),
            ([RuleCondition(.feed, .matches, #"deals\.xml$"#)], .all),
            ([RuleCondition(.account, .matches, #"^https://rss\.example/$"#)], .all),
            ([RuleCondition(.title, .matches, #"\b(?:weekly|daily) notes?\b"#, isCaseSensitive: true)], .all),
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
        RuleSubject(title: "Un élan", author: "Anne"),
        RuleSubject(title: "my weekly note"),
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

    /// The verdict of `rules` on `subject` with each rule's conditions matched by their own
    /// patterns, rule after rule in their order.
    private static func referenceVerdict(_ rules: [Rule], _ subject: RuleSubject) throws -> RuleBook.Verdict {
        var verdict = RuleBook.Verdict()
        for rule in rules where try reference(rule, subject) {
            verdict.actions.formUnion(rule.actions)
            if let label = rule.label { verdict.labels.insert(label) }
            if verdict.hiddenBy == nil, rule.actions.contains(.hide) { verdict.hiddenBy = rule.id }
        }
        return verdict
    }

    @Test(arguments: subjects.indices)
    func theScreenedBookDecidesAsEachPatternAlone(subject index: Int) throws {
        let subject = Self.subjects[index]
        let book = try RuleBook(Self.rules)
        let expected = Set(try Self.rules.filter { try Self.reference($0, subject) }.map(\.name))

        #expect(book.verdict(for: subject).labels == expected)
    }

    /// More rules than one word of bits holds, hiding and marking, on every subject: the rules
    /// asked because their keys were found, and those asked every time, give the verdict of every
    /// rule asked alone, the first hiding rule included.
    @Test func aBookOfManyRulesDecidesAsEachRuleAlone() throws {
        let rules = (0..<150).map { index in
            let base = Self.rules[index % Self.rules.count]
            return Rule(id: Int64(index + 1), name: "m\(index)", requirement: base.requirement, conditions: base.conditions,
                        actions: index % 3 == 0 ? [.hide] : [.markRead], label: "m\(index)")
        }
        let book = try RuleBook(rules)
        for subject in Self.subjects {
            let expected = try Self.referenceVerdict(rules, subject)

            #expect(book.verdict(for: subject) == expected, "\(subject.title ?? "")")
        }
    }

    @Test func theReferenceSeesWhatTheTableIsAbout() throws {
        // The tricky rows really are matches, so the tests above cannot pass by both sides missing
        // them. Three rules match everything: no condition, an empty text, an empty expression.
        let everywhere: Set = ["r20", "r22", "r23"]
        let matched = { (index: Int) in
            let names = Set(try Self.rules.filter { try Self.reference($0, Self.subjects[index]) }.map(\.name))
            #expect(names.isSuperset(of: everywhere))
            // r18, asked every time, holds wherever the content has no "crypto" or the title has "weekly".
            return names.subtracting(everywhere).subtracting(["r18"])
        }
        #expect(try matched(0) == ["r1", "r24"])
        #expect(try matched(1) == ["r1"])
        #expect(try matched(2) == ["r2", "r3"])
        #expect(try matched(7) == [])
        #expect(try matched(10) == ["r8"])
        #expect(try matched(14) == ["r10", "r17"])
        #expect(try matched(16) == ["r11", "r15"])
        #expect(try matched(17) == ["r11", "r17"])
        #expect(try matched(18) == ["r13", "r17", "r25"])
        #expect(try matched(19) == ["r14", "r26"])
        #expect(try matched(20) == ["r19"])
        #expect(try matched(21) == ["r11", "r17", "r19"])
        #expect(try matched(22) == ["r8", "r16"])
        #expect(try matched(23) == ["r27"])
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
