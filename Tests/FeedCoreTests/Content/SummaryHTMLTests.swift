import Foundation
import Testing
@testable import FeedCore

@Suite("Summaries kept as published")
struct SummaryHTMLTests {
    @Test func rssDescriptionKeepsItsMarkupBesideThePlainText() throws {
        let entries = try parseCorpus("rss20.xml").entries
        let first = try #require(entries.first)
        #expect(first.summary == "We shipped 2.0 — read the notes.")
        #expect(first.summaryHTML == "<p>We shipped <b>2.0</b> &mdash; read   the <a href=\"/notes\">notes</a>.</p><script>alert(\"x\")</script>")
        #expect(HTMLSanitizer.sanitize(try #require(first.summaryHTML), base: first.link)
            == "<p>We shipped <b>2.0</b> &mdash; read   the <a href=\"https://example.com/notes\">notes</a>.</p>")
    }

    @Test func atomTextSummaryIsEscapedNotInterpreted() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><id>1</id><title>E</title><summary type="text">a &lt;b&gt; c</summary></entry></feed>
            """
        let entry = try #require(try FeedParser().parse(Data(xml.utf8), url: nil).entries.first)
        #expect(entry.summaryHTML == "a &lt;b&gt; c")
    }
}
