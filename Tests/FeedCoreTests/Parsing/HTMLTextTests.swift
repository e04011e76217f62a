import Testing
@testable import FeedCore

@Suite("HTML to plain text")
struct HTMLTextTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("<b>bold</b> move", "bold move"),
        ("H<b>e</b>llo", "Hello"),
        ("<p>one</p><p>two</p>", "one two"),
        ("line<br>break", "line break"),
        ("  lots \n\t of   space  ", "lots of space"),
        ("Tom &amp; Jerry", "Tom & Jerry"),
        ("&lt;not a tag&gt;", "<not a tag>"),
        ("caf&eacute; &euro;5 &hellip;", "café €5 …"),
        ("&#233;&#xE9;&#XE9;", "ééé"),
        ("&#8220;quoted&#8221;", "“quoted”"),
        ("&#147;cp1252 quotes&#148;", "“cp1252 quotes”"),
        ("&#0; &#xD800; &#x110000;", "\u{FFFD} \u{FFFD} \u{FFFD}"),
        ("&#4294967295; &#4294967296; &#xFFFFFFFFF; &#x;", "\u{FFFD} &#4294967296; &#xFFFFFFFFF; &#x;"),
        ("&quot;q&quot; &apos;a&apos; &AMP; &amp", "\"q\" 'a' &AMP; &amp"),
        ("non&nbsp;breaking", "non breaking"),
        ("AT&T & friends", "AT&T & friends"),
        ("a=1&b=2", "a=1&b=2"),
        ("&unknown; entity", "&unknown; entity"),
        ("x < y and y > z", "x < y and y > z"),
        ("<script>alert('<b>x</b>')</script>visible", "visible"),
        ("<STYLE type=\"text/css\">p { color: red }</STYLE>shown", "shown"),
        ("before<!-- hidden <b>comment</b> -->after", "beforeafter"),
        ("<a href=\"x?a=1&b=2\" title='a > b'>link</a>", "link"),
        ("<img src=x alt=\"pic\">caption", "caption"),
        ("<![CDATA[x]]>after", "after"),
        ("unterminated <script>never closed", "unterminated"),
        ("<!-- never closed", ""),
        ("tag <b never closed", "tag"),
        ("", ""),
    ])
    func plainText(html: String, expected: String) {
        #expect(HTMLText.plainText(fromHTML: html) == expected)
    }

    /// A summary's prefix is the plain text's own prefix, whether the scan stops early (the text
    /// starts with ASCII) or reads to the end (a character that is not ASCII comes first).
    @Test(arguments: [
        ("<p>one</p><p>two three four</p>", 7, "one two"),
        ("<p>one</p><p>two three four</p>", 100, "one two three four"),
        ("<p>short</p>", 5, "short"),
        ("<p>a\r\nb c</p>", 3, "a b"),
        ("Tom &amp; Jerry &amp; friends", 9, "Tom & Jer"),
        ("abcde\u{301}fgh", 5, "abcde\u{301}"),
        ("abcd&#x301;efgh", 4, "abcd\u{301}"),
        ("caf&eacute; au lait", 4, "café"),
        ("\u{1F469}\u{200D}\u{1F4BB} codes all day", 3, "\u{1F469}\u{200D}\u{1F4BB} c"),
        ("", 4, ""),
    ])
    func plainTextPrefix(html: String, length: Int, expected: String) {
        #expect(HTMLText.plainTextPrefix(fromHTML: html, length: length) == expected)
        #expect(expected == String(HTMLText.plainText(fromHTML: html).prefix(length)))
    }

    @Test func aLongArticlesPrefixIsItsPlainTextsFirstCharacters() {
        let paragraph = "<p>Lorem ipsum dolor sit amet, <b>consectetur</b> adipiscing elit &amp; more.</p>"
        for html in [String(repeating: paragraph, count: 40), "<p>\u{E9}t\u{E9}</p>" + String(repeating: paragraph, count: 40)] {
            let summary = HTMLText.plainTextPrefix(fromHTML: html, length: 400)
            #expect(summary == String(HTMLText.plainText(fromHTML: html).prefix(400)))
            #expect(summary.count == 400)
        }
    }

    @Test func collapsingWhitespaceLeavesMarkupAlone() {
        #expect(HTMLText.collapsingWhitespace("  a <b>  &amp;\n\n c ") == "a <b> &amp; c")
    }
}
