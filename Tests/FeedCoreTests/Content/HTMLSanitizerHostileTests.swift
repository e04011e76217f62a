import Foundation
import Testing
@testable import FeedCore

/// Hostile markup the sanitizer must get through in time linear in its size, still safe.
@Suite("HTML sanitizing of hostile markup")
struct HTMLSanitizerHostileTests {
    static let base = URL(string: "https://example.org/post/")!

    /// One element with `count` distinct attributes.
    static func manyAttributes(_ count: Int) -> String {
        "<p " + (0..<count).map { "a\($0)=\"x\"" }.joined(separator: " ") + ">text</p>"
    }

    /// `count` bold elements opened, then `count` end tags of an element never opened.
    static func unmatchedEndTags(_ count: Int) -> String {
        String(repeating: "<b>", count: count) + "deep" + String(repeating: "</i>", count: count)
    }

    /// `count` nested elements, each closed in turn.
    static func deepNesting(_ count: Int) -> String {
        String(repeating: "<span>", count: count) + "deep" + String(repeating: "</span>", count: count)
    }

    /// One element with the same attribute `count` times.
    static func repeatedAttribute(_ count: Int) -> String {
        "<a " + String(repeating: "href=\"https://example.org/\" ", count: count) + ">link</a>"
    }

    /// The least CPU time of a few runs, counted on the running thread: the time the thread
    /// waited while other tests had the machine's cores is not in it.
    static func fastestTime(_ html: String) -> Duration {
        (0..<5).map { _ in
            let started = threadCPUTime()
            _ = HTMLSanitizer.sanitize(html, base: base)
            return threadCPUTime() - started
        }.min()!
    }

    static func threadCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    /// Four times the input takes about four times as long: sixteen would be quadratic work, as
    /// the sanitizer did, freezing the window for 11.6 s on one 129 KB paragraph.
    @Test(arguments: [
        ("many attributes", manyAttributes),
        ("unmatched end tags", unmatchedEndTags),
        ("deep nesting", deepNesting),
        ("repeated attribute", repeatedAttribute),
    ] as [(String, @Sendable (Int) -> String)])
    func workGrowsLinearly(shape: String, make: @Sendable (Int) -> String) {
        // Large enough that each run takes milliseconds, well above the noise of a busy machine.
        let small = Self.fastestTime(make(10000))
        let large = Self.fastestTime(make(40000))
        let ratio = large / small
        #expect(ratio < 8, "\(shape): 4× the input took \(ratio)× as long (\(small) then \(large))")
    }

    @Test func keepsTheFirstAttributesOfAnElementWithThousands() {
        let html = "<img src=\"/a.png\" alt=\"A\" " + (0..<20000).map { "x\($0)=1" }.joined(separator: " ") + ">"
        #expect(HTMLSanitizer.sanitize(html, base: Self.base) == "<img src=\"https://example.org/a.png\" alt=\"A\">")
    }

    @Test func dropsAttributesPastTheCap() {
        let filler = (0..<HTMLSanitizer.maxAttributes).map { "data-\($0)=1" }.joined(separator: " ")
        let html = "<a \(filler) href=\"https://example.org/\">x</a>"
        #expect(HTMLSanitizer.sanitize(html, base: Self.base) == "<a>x</a>")
    }

    @Test func theFirstOfRepeatedAttributesCounts() {
        let html = "<a href=\"https://first.example/\" HREF=\"javascript:alert(1)\" href=\"https://third.example/\">x</a>"
        #expect(HTMLSanitizer.sanitize(html, base: Self.base) == "<a href=\"https://first.example/\">x</a>")
    }

    @Test func capsTheDepthAndStaysBalanced() {
        let output = HTMLSanitizer.sanitize(Self.unmatchedEndTags(20000), base: Self.base)
        let expected = String(repeating: "<b>", count: HTMLSanitizer.maxDepth) + "deep"
            + String(repeating: "</b>", count: HTMLSanitizer.maxDepth)
        #expect(output == expected)
    }

    @Test func closesElementsPastTheCapWithoutLosingText() {
        let depth = HTMLSanitizer.maxDepth
        let html = String(repeating: "<div>", count: depth) + "<em>inner</em> after</div>tail"
        let output = HTMLSanitizer.sanitize(html, base: Self.base)
        #expect(output == String(repeating: "<div>", count: depth) + "inner after</div>tail"
            + String(repeating: "</div>", count: depth - 1))
    }

    @Test func voidElementsPastTheCapStay() {
        let depth = HTMLSanitizer.maxDepth
        let html = String(repeating: "<div>", count: depth) + "a<br>b"
        #expect(HTMLSanitizer.sanitize(html, base: Self.base)
            == String(repeating: "<div>", count: depth) + "a<br>b" + String(repeating: "</div>", count: depth))
    }

    @Test func anEndTagClosesWhatIsOpenInsideItAfterManyUnmatchedOnes() {
        let html = "<p><b>x" + String(repeating: "</i>", count: 1000) + "</p>after"
        #expect(HTMLSanitizer.sanitize(html, base: Self.base) == "<p><b>x</b></p>after")
    }
}
