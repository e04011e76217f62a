import Foundation
import Testing
@testable import FeedCore

/// MathML formulas survive sanitizing, and nothing hides in them.
@Suite("HTML sanitizing of MathML")
struct HTMLSanitizerMathTests {
    static let base = URL(string: "https://example.org/notes/")!

    @Test func aFormulaKeepsItsElementsAndLayout() {
        let formula = """
            <p>Roots: <math display="block"><mrow><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo>\
            <msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow>\
            <mrow><mn>2</mn><mi>a</mi></mrow></mfrac></mrow></math></p>
            """
        #expect(HTMLSanitizer.sanitize(formula, base: Self.base) == formula)
    }

    @Test func emptyMathElementsWrittenSelfClosingStayWhole() {
        #expect(HTMLSanitizer.sanitize("<math><mi>a</mi><mspace width=\"1em\"/><mi>b</mi></math>after", base: Self.base)
            == "<math><mi>a</mi><mspace width=\"1em\"></mspace><mi>b</mi></math>after")
    }

    @Test(arguments: [
        // Links, sources, styles and handlers go from MathML elements as from any other.
        ("<math href=\"javascript:alert(1)\"><mi>x</mi></math>", "<math><mi>x</mi></math>"),
        ("<math><mi xlink:href=\"javascript:alert(1)\" onclick=\"alert(1)\" style=\"color:red\" class=\"c\">x</mi></math>",
         "<math><mi>x</mi></math>"),
        ("<math><mtext><script>alert(1)</script>y</mtext></math>", "<math><mtext>y</mtext></math>"),
        // annotation-xml may carry HTML or SVG: it goes with what is inside; acting and loading elements lose their tags.
        ("<math><semantics><mi>x</mi><annotation-xml encoding=\"text/html\"><img src=x onerror=alert(1)></annotation-xml></semantics></math>",
         "<math><semantics><mi>x</mi></semantics></math>"),
        ("<math><maction actiontype=\"toggle\"><mi>a</mi></maction><mglyph src=\"https://t.example/p.gif\"/></math>",
         "<math><mi>a</mi></math>"),
        // A style element inside a formula is dropped with its content, so no markup hidden in it comes out.
        ("<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
         "<math><mtext><table></table></mtext></math>"),
    ])
    func nothingUnsafeHidesInAFormula(input: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(input, base: Self.base) == expected)
    }
}
