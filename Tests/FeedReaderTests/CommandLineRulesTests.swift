import Foundation
import XCTest

/// `--add-rule`, `--list-rules`, `--remove-rule` and `--import-newsboat-rules`, run as the built
/// program: what a script turning a newsboat configuration into rules sees.
extension CommandLineTests {
    func testRulesAreAddedListedAndRemovedInTheirTextForm() throws {
        let (_, environment) = try dataHome()
        let text = """
            name: No sport
            match: any
            title word "football"
            link matches "/sport/\\d+" case-sensitive
            action: hide, mark-read
            label: Sport, later

            """
        let added = try feedReader(["--add-rule"], extra: environment, input: text)
        XCTAssertEqual(added.status, 0, added.errors)
        XCTAssertEqual(added.output, "1\n")

        let listed = try feedReader(["--list-rules"], extra: environment)
        XCTAssertEqual(listed.status, 0, listed.errors)
        XCTAssertEqual(listed.output, "# 1\n" + text, "the listing reads back as the rule added")

        XCTAssertEqual(try feedReader(["--remove-rule", "1"], extra: environment).status, 0)
        XCTAssertEqual(try feedReader(["--list-rules"], extra: environment).output, "")
    }

    func testABadRuleIsRefusedInTheUsersLanguageAndNothingIsStored() throws {
        let (_, environment) = try dataHome()
        let cases: [(input: String, language: String, expected: String)] = [
            ("titel contains \"x\"\naction: hide\n", "fr", "La ligne 1 de la règle est illisible\u{a0}: titel contains \"x\""),
            ("title matches \"(a+)+$\"\naction: hide\n", "de", "Der reguläre Ausdruck „(a+)+$“ braucht zu lange zum Abgleichen"),
            ("title matches \"ab(c\"\naction: hide\n", "en", "The regular expression “ab(c” is not valid at character 5."),
            ("title contains \"x\"\n", "en", "A rule needs at least one condition and one action."),
            ("title contains \"x\"\nlabel: \u{202E}\n", "de", "der Regel kann nicht gelesen werden"),
        ]
        for item in cases {
            let run = try feedReader(["--add-rule"], language: item.language, extra: environment, input: item.input)
            XCTAssertEqual(run.status, 1, item.input)
            XCTAssertTrue(run.errors.contains(item.expected), "\(item.expected) in: \(run.errors)")
        }
        XCTAssertEqual(try feedReader(["--list-rules"], extra: environment).output, "")
        let missing = try feedReader(["--remove-rule", "7"], language: "es", extra: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("No existe esa regla."), missing.errors)
    }

    func testNewsboatIgnoreArticleLinesBecomeRulesAndTheRestIsNamed() throws {
        let (folder, environment) = try dataHome()
        let config = folder.appendingPathComponent("config")
        try Data("""
            auto-reload yes
            ignore-article "*" "title =~ \\"Sponsored\\" or author == \\"Bot\\""
            ignore-article "*" "age > 30"

            """.utf8).write(to: config)

        let run = try feedReader(["--import-newsboat-rules", config.path], language: "de", extra: environment)

        XCTAssertEqual(run.status, 1, "a line was left out")
        XCTAssertEqual(run.output, "2 Regeln hinzugefügt\n")
        XCTAssertTrue(run.errors.contains("Zeile 3 konnte nicht in eine Regel umgewandelt werden. Regeln können das Attribut „age“ nicht prüfen."),
                      run.errors)
        let listed = try feedReader(["--list-rules"], extra: environment).output
        XCTAssertTrue(listed.contains("title matches \"Sponsored\"\naction: hide") && listed.contains("author is \"Bot\" case-sensitive"), listed)
    }
}
