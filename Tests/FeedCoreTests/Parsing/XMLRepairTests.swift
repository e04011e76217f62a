import Foundation
import Testing
@testable import FeedCore

/// One fault real feeds have, the bytes it is mended to, and the warning it leaves.
struct RepairCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var repaired: String
    var fixes: [XMLRepair.Fix]

    var testDescription: String { name }
}

/// `text` with every character but newlines turned into a space.
private func blank(_ text: String) -> String {
    String(text.map { $0 == "\n" ? "\n" : " " })
}

@Suite("XMLRepair: what makes XML parsers give up, mended in one pass")
struct XMLRepairTests {
    static let cases: [RepairCase] = [
        RepairCase(name: "well-formed XML is left as it is",
                   input: "<?xml version=\"1.0\"?><a href=\"x?a=1&amp;b=2\">&lt;&#169;&#xA9;&apos;</a>",
                   repaired: "<?xml version=\"1.0\"?><a href=\"x?a=1&amp;b=2\">&lt;&#169;&#xA9;&apos;</a>", fixes: []),
        RepairCase(name: "HTML's entities become character references",
                   input: "<a>caf&eacute;&nbsp;&hellip;</a>", repaired: "<a>caf&#xe9;&#xa0;&#x2026;</a>", fixes: [.htmlEntity]),
        RepairCase(name: "a name neither XML nor HTML defines stays as written",
                   input: "<a>&lol9;&lol9;</a>", repaired: "<a>&amp;lol9;&amp;lol9;</a>", fixes: [.undefinedEntity]),
        RepairCase(name: "whitespace before the declaration goes",
                   input: "\n  \n<?xml version=\"1.0\"?><a/>", repaired: "<?xml version=\"1.0\"?><a/>",
                   fixes: [.leadingWhitespace]),
        RepairCase(name: "a bare ampersand in text and in attributes is escaped",
                   input: "<a href=\"x?a=1&b=2\">Q&A & more &#; &#x; &</a>",
                   repaired: "<a href=\"x?a=1&amp;b=2\">Q&amp;A &amp; more &amp;#; &amp;#x; &amp;</a>",
                   fixes: [.bareAmpersand]),
        RepairCase(name: "two hyphens inside a comment are split, the comment's end is kept",
                   input: "<a><!-- a -- b --- c --></a>", repaired: "<a><!-- a -  b - - c --></a>",
                   fixes: [.doubleHyphenInComment]),
        RepairCase(name: "ampersands inside comments, CDATA and processing instructions are theirs",
                   input: "<a><!-- & --><![CDATA[ & ]]><?pi & ?></a>", repaired: "<a><!-- & --><![CDATA[ & ]]><?pi & ?></a>",
                   fixes: []),
        RepairCase(name: "a CDATA section with no end is closed before the next end tag",
                   input: "<a><b><![CDATA[text & more</b></a>", repaired: "<a><b><![CDATA[text & more]]></b></a>",
                   fixes: [.unclosedCDATA]),
        RepairCase(name: "a DOCTYPE goes, its lines kept",
                   input: "<!DOCTYPE rss SYSTEM \"x.dtd\">\n<rss/>", repaired: blank("<!DOCTYPE rss SYSTEM \"x.dtd\">") + "\n<rss/>",
                   fixes: [.doctypeRemoved]),
        RepairCase(name: "entity declarations go with their DOCTYPE, even behind a comment holding ']' and a quote",
                   input: "<!DOCTYPE r [\n<!-- ] ' -->\n<!ENTITY e \"]>\">\n]><r>&e;</r>",
                   repaired: blank("<!DOCTYPE r [\n<!-- ] ' -->\n<!ENTITY e \"]>\">\n]>") + "<r>&amp;e;</r>",
                   fixes: [.entityDeclarationsIgnored, .undefinedEntity]),
    ]

    @Test("cases", arguments: cases)
    func repairs(_ scenario: RepairCase) {
        let (document, fixes) = XMLRepair.repair(Data(scenario.input.utf8))
        #expect(String(decoding: document, as: UTF8.self) == scenario.repaired)
        #expect(fixes == scenario.fixes)
    }
}
