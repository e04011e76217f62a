import Testing
@testable import FeedCore

@Suite("A rule's text form")
struct RuleTextTests {
    @Test func readsEverySettingAndCondition() throws {
        let rule = try Rule(text: """
            # Ads and sport
            name: No sport
            match: any
            enabled: no
            title contains "football"
            not author is "Ed \\"Q\\""
            link matches "^https://ads\\.\\d+/" case-sensitive
            feed word "Sport Desk"
            action: hide, mark-read
            action: star
            """)

        #expect(rule == Rule(name: "No sport", isEnabled: false, requirement: .any, conditions: [
            RuleCondition(.title, .contains, "football"),
            RuleCondition(.author, .is, "Ed \"Q\"", isNegated: true),
            RuleCondition(.link, .matches, "^https://ads\\.\\d+/", isCaseSensitive: true),
            RuleCondition(.feed, .word, "Sport Desk"),
        ], actions: [.hide, .markRead, .star]))
    }

    /// Whatever a rule holds, its text reads back as the same rule: `--list-rules` output can be
    /// given to `--add-rule` again.
    @Test(arguments: ["plain", "with \"quotes\"", "ends with \\", "\\\\d and \\\"", "", "a\\", "tab\there: colon"])
    func textReadsBackAsTheSameRule(pattern: String) throws {
        let rule = Rule(name: "Name: with a colon", requirement: .any,
                        conditions: [RuleCondition(.content, .matches, pattern, isNegated: true, isCaseSensitive: true)],
                        actions: [.star, .hide])

        #expect(try Rule(text: rule.text) == rule)
    }

    @Test func aRuleWithoutANameIsNamedForItsFirstCondition() throws {
        #expect(try Rule(text: "title contains \"x\"\naction: hide").name == "title contains \"x\"")
    }

    @Test(arguments: [
        ("titel contains \"x\"\naction: hide", RuleError.malformed(line: 1, text: "titel contains \"x\"")),
        ("title has \"x\"\naction: hide", .malformed(line: 1, text: "title has \"x\"")),
        ("title contains \"x\naction: hide", .malformed(line: 1, text: "title contains \"x")),
        ("title contains x\naction: hide", .malformed(line: 1, text: "title contains x")),
        ("title contains \"x\" loudly\naction: hide", .malformed(line: 1, text: "title contains \"x\" loudly")),
        ("\ntitle contains \"x\"\naction: delete", .malformed(line: 3, text: "action: delete")),
        ("match: some\ntitle contains \"x\"\naction: hide", .malformed(line: 1, text: "match: some")),
        ("colour: red\ntitle contains \"x\"\naction: hide", .malformed(line: 1, text: "colour: red")),
        ("title contains \"x\"", .incomplete),
        ("action: hide", .incomplete),
    ])
    func malformedTextSaysWhichLine(text: String, error: RuleError) {
        #expect(throws: error) { try Rule(text: text) }
    }
}
