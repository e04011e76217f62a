import Foundation
import Testing
@testable import FeedCore

@Suite("Matching entries with rules")
struct RuleMatchingTests {
    private func matches(_ condition: RuleCondition, _ subject: RuleSubject) throws -> Bool {
        let book = try RuleBook([Rule(id: 1, name: "r", conditions: [condition], actions: [.hide])])
        return book.verdict(for: subject).actions == [.hide]
    }

    @Test(arguments: [
        (RuleCondition(.title, .contains, "FOOT"), "Football tonight", true),
        (RuleCondition(.title, .contains, "FOOT", isCaseSensitive: true), "Football tonight", false),
        (RuleCondition(.title, .contains, "straße"), "STRASSE und STRAẞE", true),
        (RuleCondition(.title, .contains, "élan"), "Un ÉLAN nouveau", true),
        (RuleCondition(.title, .contains, "a.b"), "axb", false),
        (RuleCondition(.title, .word, "ad"), "An ad here", true),
        (RuleCondition(.title, .word, "ad"), "Adding more", false),
        (RuleCondition(.title, .word, "ad"), "bad news", false),
        (RuleCondition(.title, .word, "c++"), "Learning C++ today", true),
        (RuleCondition(.title, .word, "два слова"), "Тут два слова подряд", true),
        (RuleCondition(.title, .word, "слова"), "словарь", false),
        (RuleCondition(.title, .is, "Weekly notes"), "weekly NOTES", true),
        (RuleCondition(.title, .is, "Weekly notes"), "Weekly notes 2", false),
        (RuleCondition(.title, .matches, "^\\[ad\\] \\d+$"), "[AD] 42", true),
        (RuleCondition(.title, .matches, "^\\[ad\\] \\d+$"), "x [ad] 42", false),
        (RuleCondition(.title, .matches, "\\bsport\\w*"), "Sports!", true),
        (RuleCondition(.title, .contains, "sport", isNegated: true), "Sports!", false),
        (RuleCondition(.title, .contains, "sport", isNegated: true), "Politics", true),
    ])
    func comparisons(condition: RuleCondition, title: String, expected: Bool) throws {
        #expect(try matches(condition, RuleSubject(title: title)) == expected)
    }

    @Test func aFeedIsMatchedByItsTitleOrAddressAndAnAccountByServerOrUser() throws {
        let subject = RuleSubject(title: "t", feedTitle: "Sport Desk", feedURL: "https://news.example/sport.xml",
                                  folder: "News", accountServer: "https://rss.example/", accountUser: "alice")
        #expect(try matches(RuleCondition(.feed, .contains, "sport desk"), subject))
        #expect(try matches(RuleCondition(.feed, .contains, "news.example/sport"), subject))
        #expect(try matches(RuleCondition(.folder, .is, "news"), subject))
        #expect(try matches(RuleCondition(.account, .is, "alice"), subject))
        #expect(try !matches(RuleCondition(.account, .is, "bob"), subject))
    }

    @Test func allNeedsEveryConditionAndAnyOne() throws {
        let conditions = [RuleCondition(.title, .contains, "a"), RuleCondition(.author, .contains, "b")]
        let all = try RuleBook([Rule(id: 1, name: "all", conditions: conditions, actions: [.star])])
        let any = try RuleBook([Rule(id: 2, name: "any", requirement: .any, conditions: conditions, actions: [.star])])
        let onlyTitle = RuleSubject(title: "a", author: "z")

        #expect(all.verdict(for: onlyTitle).actions.isEmpty)
        #expect(any.verdict(for: onlyTitle).actions == [.star])
        #expect(all.verdict(for: RuleSubject(title: "a", author: "b")).actions == [.star])
    }

    @Test func disabledRulesDoNothingAndTheFirstHidingRuleIsRecorded() throws {
        let book = try RuleBook([
            Rule(id: 1, name: "off", isEnabled: false, conditions: [RuleCondition(.title, .contains, "x")], actions: [.hide]),
            Rule(id: 2, name: "star", conditions: [RuleCondition(.title, .contains, "x")], actions: [.star]),
            Rule(id: 3, name: "hide", conditions: [RuleCondition(.title, .contains, "x")], actions: [.hide, .markRead]),
            Rule(id: 4, name: "hide too", conditions: [RuleCondition(.title, .contains, "x")], actions: [.hide]),
        ])
        let verdict = book.verdict(for: RuleSubject(title: "x"))

        #expect(verdict.actions == [.star, .hide, .markRead])
        #expect(verdict.hiddenBy == 3)
    }

    /// A regular expression that backtracks without end on a long title gives up on that entry
    /// within the limit, instead of freezing the refresh that stores it.
    @Test func aRunawayExpressionGivesUpQuicklyOnALongTitle() throws {
        let book = try RuleBook([Rule(id: 7, name: "runaway", conditions: [RuleCondition(.title, .matches, "^(\\w+\\s?)*$")],
                                      actions: [.hide])])
        let title = String(repeating: "word ", count: 2_000) + "!"
        let clock = ContinuousClock()

        var verdict = RuleBook.Verdict()
        let elapsed = clock.measure { verdict = book.verdict(for: RuleSubject(title: title)) }

        #expect(verdict.actions.isEmpty)
        #expect(verdict.tooComplex == [7])
        // A bound on "it stops", not a speed target (generous for a loaded machine): unbounded,
        // this takes longer than the universe's age.
        #expect(elapsed < .seconds(10))
    }

    @Test func validationRejectsRunawayAndInvalidExpressions() {
        #expect(throws: RuleError.patternTooComplex(pattern: "(a+)+$")) {
            try Rule(name: "r", conditions: [RuleCondition(.title, .matches, "(a+)+$")], actions: [.hide]).validate()
        }
        #expect(throws: RuleError.invalidPattern(pattern: "ab(c", position: 5)) {
            try Rule(name: "r", conditions: [RuleCondition(.title, .matches, "ab(c")], actions: [.hide]).validate()
        }
        #expect(throws: Never.self) {
            try Rule(name: "r", conditions: [RuleCondition(.title, .matches, "^(foo|bar)\\d{2,4}\\b")], actions: [.hide]).validate()
        }
    }
}
