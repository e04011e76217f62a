import Testing
@testable import FeedCore

@Suite("newsboat's ignore-article lines as rules")
struct NewsboatRulesTests {
    @Test func eachLineBecomesHideRulesOrSaysWhyNot() throws {
        let config = """
            # a comment, and other settings
            auto-reload yes
            ignore-article "*" "title =~ \\"Sponsored\\""
            ignore-article "https://news.example/.*" "author == \\"Bot\\" and title !~ \\"important\\""
            ignore-article "*" "(title # \\"ad\\" or title # \\"promo\\") and content =~ \\"buy\\""
            ignore-article "*" "age > 30"
            ignore-article "*" "title between 1:2"
            ignore-article "*" "title =~ \\"unterminated"
            ignore-article "*"
            """
        let lines = NewsboatRules.lines(in: config)

        #expect(lines.map(\.number) == [3, 4, 5, 6, 7, 8, 9])
        #expect(try lines[0].result.get().map(\.conditions) == [[RuleCondition(.title, .matches, "Sponsored")]])
        #expect(try lines[1].result.get().map(\.conditions) == [[
            RuleCondition(.feed, .matches, "^(?:https://news.example/.*)$", isCaseSensitive: true),
            RuleCondition(.author, .is, "Bot", isCaseSensitive: true),
            RuleCondition(.title, .matches, "important", isNegated: true),
        ]])
        #expect(try lines[2].result.get().map(\.conditions) == [
            [RuleCondition(.title, .word, "ad", isCaseSensitive: true), RuleCondition(.content, .matches, "buy")],
            [RuleCondition(.title, .word, "promo", isCaseSensitive: true), RuleCondition(.content, .matches, "buy")],
        ])
        #expect(try lines[2].result.get().allSatisfy { $0.actions == [.hide] && $0.requirement == .all })
        #expect(lines[3].result == .failure(.unsupportedAttribute("age")))
        #expect(lines[4].result == .failure(.unsupportedOperator("between")) || lines[4].result == .failure(.unreadable))
        #expect(lines[5].result == .failure(.unreadable))
        #expect(lines[6].result == .failure(.unreadable))
    }

    @Test func anExpressionNeedingTooManyRulesIsRefused() {
        let five = (1...5).map { "title # \\\"w\($0)\\\"" }.joined(separator: " or ")
        let line = "ignore-article \"*\" \"(\(five)) and (\(five))\""

        #expect(NewsboatRules.lines(in: line).first?.result == .failure(.tooComplex))
    }
}
