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

    /// A rule may put a label on instead of, or besides, its actions; the name is cleaned as a typed label's is.
    @Test func aLabelIsReadWrittenAndEnoughOfAnAction() throws {
        let rule = try Rule(text: "title contains \"swift\"\nlabel:  Reading list, \u{202E}later\u{202C} ")

        #expect(rule.label == "Reading list, later")
        #expect(rule.actions.isEmpty)
        #expect(rule.text.contains("\nlabel: Reading list, later\n"))
        #expect(!rule.text.contains("action:"))
        #expect(try Rule(text: rule.text) == rule)

        let both = Rule(name: "n", conditions: [RuleCondition(.author, .is, "Ann")], actions: [.star], label: "Ann's")
        #expect(try Rule(text: both.text) == both)
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
        ("title contains \"x\"\nlabel: \u{202E}", .malformed(line: 2, text: "label: \u{202E}")),
        ("title contains \"x\"\nlabel: a\nlabel: b", .malformed(line: 3, text: "label: b")),
        ("title contains \"x\"\nlabel: " + String(repeating: "x", count: 191), .malformed(line: 2, text: "label: " + String(repeating: "x", count: 191))),
        ("title contains \"x\"", .incomplete),
        ("action: hide", .incomplete),
    ])
    func malformedTextSaysWhichLine(text: String, error: RuleError) {
        #expect(throws: error) { try Rule(text: text) }
    }
}
