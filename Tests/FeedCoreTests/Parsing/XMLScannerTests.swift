import Foundation
import Testing
@testable import FeedCore

/// A document, and whether `XMLScanner` reads it itself or leaves it to libxml2.
struct ScannerCase: Sendable, CustomTestStringConvertible {
    var name: String
    var document: String
    var isScanned: Bool

    var testDescription: String { name }
}

/// The same feed read by `XMLScanner` and by libxml2 must be the same feed, field for field;
/// what the scanner does not read exactly as libxml2 does, it must leave to libxml2.
@Suite("XMLScanner: well-formed feeds read without libxml2, exactly as libxml2 reads them")
struct XMLScannerTests {
    private static func rss(_ item: String, namespaces: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"\(namespaces)><channel><title>T</title>"
            + "<link>https://example.org/</link><item>\(item)</item></channel></rss>\n"
    }

    private static func atom(_ entry: String) -> String {
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"https://example.org/a/\"><title type=\"html\">T</title>"
            + "<link href=\"/home\"/><entry>\(entry)</entry></feed>"
    }

    static let cases: [ScannerCase] = [
        ScannerCase(name: "RSS with references, CDATA, comments and processing instructions",
                    document: rss("<title>Q&amp;A &lt;b&gt;&quot;x&quot; &apos;y&apos; &#169;&#xA9;&#x1F600;</title>"
                        + "<!-- a comment --><?php echo 1 ?><description><![CDATA[<p>a & b]] c</p>]]>&lt;i&gt;more</description>"
                        + "<link>https://example.org/1?a=1&amp;b=2</link><guid isPermaLink='true'>https://example.org/g</guid>"
                        + "<pubDate>Tue, 05 Mar 2024 10:00:00 GMT</pubDate><enclosure url=\"https://example.org/e.mp3?x=1&amp;y=&#34;2&#34;\""
                        + " type=\"audio/mpeg\" length=\"12\"/>"),
                    isScanned: true),
        ScannerCase(name: "namespaces by prefix and by default, declared on the root and within",
                    document: rss("<dc:creator>Ann</dc:creator><content:encoded>&lt;p&gt;Body&lt;/p&gt;</content:encoded>"
                        + "<x:title xmlns:x=\"http://purl.org/dc/elements/1.1/\">Other</x:title>"
                        + "<media:group xmlns:media=\"http://search.yahoo.com/mrss/\"><media:content url=\"https://example.org/v.mp4\""
                        + " medium=\"video\" fileSize=\"3\"/><media:thumbnail url=\"t.jpg\"/></media:group>",
                        namespaces: " xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\""),
                    isScanned: true),
        ScannerCase(name: "Atom with xml:base, inline XHTML and text constructs",
                    document: atom("<title type=\"text\">  A  title  </title><link rel=\"alternate\" href=\"e/1\"/>"
                        + "<link rel=\"enclosure\" href=\"f.ogg\" length=\"9\" type=\"audio/ogg\"/><id>urn:1</id>"
                        + "<content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\"><p class=\"a &amp; b\">x &lt; y</p>"
                        + "<br/><img src=\"i.png\" alt='\"q\"'/></div></content><summary type=\"html\">&lt;b&gt;S&lt;/b&gt;</summary>"
                        + "<updated>2024-03-05T10:00:00Z</updated><author><name>Bo</name></author>"),
                    isScanned: true),
        ScannerCase(name: "line ends: CR LF and a lone CR in text and CDATA become LF",
                    document: atom("<title>a\r\nb\rc</title><content type=\"xhtml\"><div>x\r\ny</div></content>"
                        + "<summary><![CDATA[p\r\nq\rr]]></summary>").replacingOccurrences(of: "><", with: ">\r\n<"),
                    isScanned: true),
        ScannerCase(name: "tabs and line feeds in an attribute value become spaces, character references stay",
                    document: atom("<link rel=\"alternate\" href=\"a\tb\nc&#9;d&#10;e\"/><title>t</title>"),
                    isScanned: true),
        ScannerCase(name: "an RDF feed with its default namespace and rdf:about",
                    document: "<?xml version='1.0' standalone='yes'?><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\""
                        + " xmlns=\"http://purl.org/rss/1.0/\"><channel rdf:about=\"https://example.org/\"><title>R</title></channel>"
                        + "<item rdf:about=\"https://example.org/r1\"><title>One</title></item></rdf:RDF>",
                    isScanned: true),
        ScannerCase(name: "a root that is no feed fails as with libxml2",
                    document: "<html><body><p>not a feed</p></body></html>", isScanned: true),
        ScannerCase(name: "an entry document stands for a feed of one",
                    document: "<entry xmlns=\"http://www.w3.org/2005/Atom\"><title>Alone</title><id>urn:a</id></entry>",
                    isScanned: true),
        ScannerCase(name: "a truncated feed is left to libxml2, which keeps the entries before the break",
                    document: rss("<title>One</title></item><item><title>Two</title>").replacingOccurrences(of: "</channel></rss>\n", with: ""),
                    isScanned: false),
        ScannerCase(name: "mismatched tags are left to libxml2",
                    document: rss("<title>One</titel>"), isScanned: false),
        ScannerCase(name: "a control character is left to libxml2",
                    document: rss("<title>One\u{1}</title>"), isScanned: false),
        ScannerCase(name: "U+FFFE is left to libxml2",
                    document: rss("<title>One\u{FFFE}</title>"), isScanned: false),
        ScannerCase(name: "]]> in text is left to libxml2",
                    document: rss("<title>a ]]> b</title>"), isScanned: false),
        ScannerCase(name: "a repeated attribute is left to libxml2",
                    document: rss("<enclosure url=\"a\" url=\"b\"/>"), isScanned: false),
        ScannerCase(name: "an undeclared prefix is left to libxml2",
                    document: rss("<media:content url=\"https://example.org/v.mp4\"/><title>t</title>"), isScanned: false),
        ScannerCase(name: "a non-ASCII element name is left to libxml2",
                    document: rss("<títle>t</títle><title>t</title>"), isScanned: false),
        ScannerCase(name: "a character reference to U+0001 is left to libxml2",
                    document: rss("<title>a&#1;b</title>"), isScanned: false),
        ScannerCase(name: "a carriage return in an attribute value is left to libxml2",
                    document: rss("<enclosure url=\"a\r\nb\"/>"), isScanned: false),
        ScannerCase(name: "text after the root element is left to libxml2",
                    document: rss("<title>t</title>") + "junk", isScanned: false),
        ScannerCase(name: "an XML declaration of version 1.1 is left to libxml2",
                    document: rss("<title>t</title>").replacingOccurrences(of: "1.0\" encoding", with: "1.1\" encoding"),
                    isScanned: false),
        ScannerCase(name: "attributes without whitespace between them are left to libxml2",
                    document: rss("<enclosure url=\"a\"type=\"b\"/>"), isScanned: false),
        ScannerCase(name: "whitespace before the declaration is mended first, with its warning",
                    document: "\n  " + rss("<title>t</title>"), isScanned: false),
        ScannerCase(name: "an HTML entity is mended first, with its warning",
                    document: rss("<title>caf&eacute;</title>"), isScanned: false),
        ScannerCase(name: "a character reference of 41 bytes is a bare ampersand to XMLRepair, and mended first",
                    document: rss("<title>a&#" + String(repeating: "0", count: 36) + "65;b</title>"), isScanned: false),
        // Text is scanned eight bytes at a time: each stop must be found wherever it falls in a word.
        ScannerCase(name: "references, brackets, line ends, tabs and non-ASCII text at every offset of an eight-byte word",
                    document: rss("<description>" + (0..<17).map { offset in
                        ["&amp;", "]", "\r\n", "\r", "é", "\t", "\n", "&#x1F600;"].map { String(repeating: "x", count: offset) + $0 }.joined()
                    }.joined() + "</description>"),
                    isScanned: true),
        ScannerCase(name: "a control character after a long run of text is left to libxml2",
                    document: rss("<title>" + String(repeating: "abcdefgh", count: 3) + "a\u{1}b</title>"), isScanned: false),
        ScannerCase(name: "U+FFFF after a long run of text is left to libxml2",
                    document: rss("<title>" + String(repeating: "abcdefgh", count: 3) + "abc\u{FFFF}</title>"), isScanned: false),
        ScannerCase(name: "]]> after a long run of text is left to libxml2",
                    document: rss("<title>" + String(repeating: "abcdefgh", count: 3) + "abcdef]]></title>"), isScanned: false),
        ScannerCase(name: "a character reference of 40 bytes is read",
                    document: rss("<title>a&#" + String(repeating: "0", count: 35) + "65;b</title>"), isScanned: true),
    ]

    @Test("cases", arguments: cases)
    func readsAsLibXML2Does(_ scenario: ScannerCase) {
        let document = Data(scenario.document.utf8)
        let base = URL(string: "https://example.org/feed.xml")
        let scanned = document.withUnsafeBytes { XMLScanner.read($0.bindMemory(to: UInt8.self), documentURL: base) }
        #expect((scanned != nil) == scenario.isScanned)
        let ours = Result { () throws(FeedParseError) in try XMLFeedReader.parse(document, documentURL: base) }
        #expect(ours == Self.libxml2(document, documentURL: base))
    }

    /// The document mended and read by libxml2, as every document was before the scanner.
    private static func libxml2(_ document: Data, documentURL: URL?) -> Result<ParsedFeed, FeedParseError> {
        let (repaired, fixes) = XMLRepair.repair(document)
        return Result { () throws(FeedParseError) in
            var parsed = try XMLFeedReader.parseWithLibXML2(repaired, documentURL: documentURL)
            parsed.warnings = fixes.map(\.reason) + parsed.warnings
            return parsed
        }
    }

    /// The bench's generated feeds, as the comparison with feedparser-rs reads them, are read by the scanner.
    @Test("a large generated feed is scanned and reads as libxml2 reads it")
    func largeFeed() throws {
        var document = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">"
        for number in 0..<300 {
            document += "<entry><title type=\"html\">Entry \(number) &amp; more</title><link rel=\"alternate\" href=\"https://example.org/\(number)\"/>"
                + "<id>urn:e:\(number)</id><published>2026-11-18T14:02:00Z</published><author><name>W \(number % 7)</name></author>"
                + "<summary type=\"html\">&lt;p&gt;words &lt;b&gt;bold&lt;/b&gt; &amp;amp; &#8212;&lt;/p&gt;</summary></entry>\n"
        }
        document += "</feed>\n"
        let data = Data(document.utf8)
        #expect(data.withUnsafeBytes { XMLScanner.read($0.bindMemory(to: UInt8.self), documentURL: nil) } != nil)
        let ours = try XMLFeedReader.parse(data, documentURL: nil)
        #expect(ours.entries.count == 300)
        #expect(Result.success(ours) == Self.libxml2(data, documentURL: nil))
    }
}
