import Foundation
import Testing
@testable import FeedCore

@Suite("HTML sanitizing")
struct HTMLSanitizerTests {
    static let base = URL(string: "https://example.org/blog/post/")!

    @Test(arguments: [
        // Formatting survives.
        ("<h2>Title</h2><p>One <b>bold</b> and <em>em</em></p>", "<h2>Title</h2><p>One <b>bold</b> and <em>em</em></p>"),
        ("<ul><li>a</li><li>b</li></ul>", "<ul><li>a</li><li>b</li></ul>"),
        ("<table><tr><th scope=\"col\">h</th><td colspan=2>d</td></tr></table>",
         "<table><tr><th scope=\"col\">h</th><td colspan=\"2\">d</td></tr></table>"),
        ("<pre><code>let x = 1 &lt; 2</code></pre>", "<pre><code>let x = 1 &lt; 2</code></pre>"),
        ("line<br/>break<hr>", "line<br>break<hr>"),
        ("Tom &amp; Jerry &eacute;", "Tom &amp; Jerry &eacute;"),
        // Scripts, styles, frames, plugins and forms go with their content.
        ("a<script>alert(1)</script>b", "ab"),
        ("a<SCRIPT type=text/javascript>document.write('<b>x</b>')</SCRIPT >b", "ab"),
        ("a<script>never closed <b>x</b>", "a"),
        ("a<style>p { color: red }</style>b", "ab"),
        ("a<iframe src=\"https://evil.example/\">inside</iframe>b", "ab"),
        ("a<object data=x><param name=a value=b><embed src=y></object>b", "ab"),
        ("a<embed src=\"x.swf\">b", "ab"),
        ("a<form action=\"https://evil.example/\"><input name=p><button>Go</button></form>b", "ab"),
        ("a<svg><script>alert(1)</script></svg>b", "ab"),
        ("a<iframe><iframe></iframe>still inside</iframe>b", "ab"),
        // Event handlers, style, class and id are dropped.
        ("<p onclick=\"alert(1)\" style=\"background:url(javascript:alert(1))\" class=c id=i>t</p>", "<p>t</p>"),
        ("<img src=\"/a.png\" onerror=alert(1) alt=\"A\">", "<img src=\"https://example.org/a.png\" alt=\"A\">"),
        ("<div style=\"width: expression(alert(1))\">x</div>", "<div>x</div>"),
        // Unsafe URLs are dropped, however they are written.
        ("<a href=\"javascript:alert(1)\">x</a>", "<a>x</a>"),
        ("<a href=\"JaVaScRiPt:alert(1)\">x</a>", "<a>x</a>"),
        ("<a href=\"java\tscript:alert(1)\">x</a>", "<a>x</a>"),
        ("<a href=\"&#106;avascript:alert(1)\">x</a>", "<a>x</a>"),
        ("<a href=\"&#x6A;avascript&#58;alert(1)\">x</a>", "<a>x</a>"),
        ("<a href=\" javascript:alert(1)\">x</a>", "<a>x</a>"),
        ("<a href=\"vbscript:msgbox\">x</a>", "<a>x</a>"),
        ("<a href=\"data:text/html,<script>alert(1)</script>\">x</a>", "<a>x</a>"),
        ("<a href=\"file:///etc/passwd\">x</a>", "<a>x</a>"),
        ("<img src=\"data:image/svg+xml,<svg onload=alert(1)>\">", ""),
        ("<img src=\"javascript:alert(1)\">", ""),
        ("<img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"dot\">", "<img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"dot\">"),
        // Safe URLs resolve against the base.
        ("<a href=\"../other/\">x</a>", "<a href=\"https://example.org/blog/other/\">x</a>"),
        ("<a href=\"mailto:me@example.org\">x</a>", "<a href=\"mailto:me@example.org\">x</a>"),
        ("<a href=\"https://a.example/?a=1&amp;b=2\">x</a>", "<a href=\"https://a.example/?a=1&amp;b=2\">x</a>"),
        ("<img src=\"pic.jpg\" width=\"10\">", "<img src=\"https://example.org/blog/post/pic.jpg\" width=\"10\">"),
        // Quotes inside values cannot break out of the attribute.
        ("<img src=x alt='a\" onerror=\"alert(1)'>", "<img src=\"https://example.org/blog/post/x\" alt=\"a&quot; onerror=&quot;alert(1)\">"),
        // Unknown elements lose their tags, keep their text.
        ("<font color=red>red</font> <blink>on</blink>", "red on"),
        // Stray end tags cannot close the page around the article; open elements are closed.
        ("</div></body></html><p>x", "<p>x</p>"),
        ("<div><p>x</div>y", "<div><p>x</p></div>y"),
        ("<b><i>x</b>", "<b><i>x</i></b>"),
        // Comments, doctypes, CDATA and stray brackets.
        ("a<!-- <script>alert(1)</script> -->b", "ab"),
        ("<!DOCTYPE html>a<![CDATA[x]]>b", "ab"),
        ("1 < 2 > 0", "1 &lt; 2 &gt; 0"),
        ("<p title=\"x > y\">t</p>", "<p title=\"x &gt; y\">t</p>"),
        ("a <b never closed", "a "),
        ("", ""),
    ])
    func sanitize(html: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(html, base: Self.base) == expected)
    }

    @Test func relativeURLsWithoutABaseAreDropped() {
        #expect(HTMLSanitizer.sanitize("<a href=\"/x\">x</a><img src=\"y.png\">", base: nil) == "<a>x</a>")
    }

    @Test func keepsNonASCIIText() {
        #expect(HTMLSanitizer.sanitize("<p>café 東京 <b>ü</b></p>", base: nil) == "<p>café 東京 <b>ü</b></p>")
    }
}
