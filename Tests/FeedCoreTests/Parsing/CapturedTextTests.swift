import Foundation
import Testing
@testable import FeedCore

/// A title as written in a feed and the plain text the reader shows for it.
struct TitleCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// The `type` of an Atom title; nil for an RSS title, which may hold HTML.
    var atomType: String?
    var written: String
    var shown: String?

    var testDescription: String { name }
}

/// Captured text is read from the document's bytes directly, with shortcuts for text that is
/// plain already and for attribute values compared without regard to case: each must give what
/// the general way gives.
@Suite("Captured text: fields read from the document's bytes as the general way reads them")
struct CapturedTextTests {
    static let titles: [TitleCase] = [
        TitleCase(name: "plain text, taken as it is", atomType: "text", written: "Entry 12: swift and gtk", shown: "Entry 12: swift and gtk"),
        TitleCase(name: "plain text with runs of spaces, tabs and line ends", atomType: "text",
                  written: "  two  spaces\tand\na line  ", shown: "two spaces and a line"),
        TitleCase(name: "a no-break space is a word break", atomType: "text", written: "a\u{A0}b", shown: "a b"),
        TitleCase(name: "non-ASCII text kept", atomType: "text", written: "Ärger über Café — 東京", shown: "Ärger über Café — 東京"),
        TitleCase(name: "only whitespace is no title", atomType: "text", written: " \n\t ", shown: nil),
        TitleCase(name: "HTML with no markup, taken as it is", atomType: "html", written: "Entry 7: more", shown: "Entry 7: more"),
        TitleCase(name: "HTML with an entity decoded", atomType: "html", written: "Q&amp;amp;A &amp;eacute;", shown: "Q&A é"),
        TitleCase(name: "HTML with markup removed", atomType: "html", written: "&lt;b&gt;Bold&lt;/b&gt; news", shown: "Bold news"),
        TitleCase(name: "a bare ampersand in HTML stays", atomType: "html", written: "AT&amp;T", shown: "AT&T"),
        TitleCase(name: "the type in capitals is HTML still", atomType: "HTML", written: "&lt;i&gt;x&lt;/i&gt; y", shown: "x y"),
        TitleCase(name: "text/plain in mixed case is plain text: markup stays", atomType: "Text/Plain",
                  written: "&lt;i&gt;x&lt;/i&gt;", shown: "<i>x</i>"),
        TitleCase(name: "an RSS title is HTML", atomType: nil, written: "A &lt;b&gt;tag&lt;/b&gt;  here", shown: "A tag here"),
    ]

    @Test("a title reads as the general way reads it", arguments: titles)
    func title(_ title: TitleCase) throws {
        let document: String
        if let type = title.atomType {
            document = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>F</title><entry><id>urn:1</id>"
                + "<title type=\"\(type)\">\(title.written)</title></entry></feed>"
        } else {
            document = "<rss version=\"2.0\"><channel><title>F</title><item><guid>g</guid><title>\(title.written)</title></item></channel></rss>"
        }
        let parsed = try FeedParser().parse(Data(document.utf8))
        #expect(parsed.entries.first?.title == title.shown)
    }

    @Test("link relations, enclosure relations and isPermaLink are read without regard to case")
    func attributeCase() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>F</title><entry><id>urn:1</id><title>t</title>
            <link rel="ENCLOSURE" href="https://example.org/e.mp3" type="audio/mpeg"/>
            <link rel=" Alternate " href="https://example.org/a"/></entry></feed>
            """
        let entry = try #require(try FeedParser().parse(Data(atom.utf8)).entries.first)
        #expect(entry.link?.absoluteString == "https://example.org/a")
        #expect(entry.enclosures.map(\.url.absoluteString) == ["https://example.org/e.mp3"])
        let rss = """
            <rss version="2.0"><channel><title>F</title>
            <item><title>a</title><guid isPermaLink="FALSE">https://example.org/not-a-link</guid></item>
            <item><title>b</title><guid isPermaLink="True">https://example.org/b</guid></item></channel></rss>
            """
        let entries = try FeedParser().parse(Data(rss.utf8)).entries
        #expect(entries.map { $0.link?.absoluteString } == [nil, "https://example.org/b"])
    }

    static let values = ["html", "HTML", "hTmL", "html ", "htm", "ｈｔｍｌ", "\u{130}tml", "text/HTML", "TEXT/PLAIN", "Text",
                         "XHTML", "application/XHTML+xml", "ALTERNATE", "Enclosure", "FALSE", "False", "fals", "", "\u{212A}"]
    static let lowercase: [StaticString] = ["html", "text/html", "xhtml", "application/xhtml+xml", "text", "text/plain",
                                            "alternate", "http://www.iana.org/assignments/relation/alternate", "enclosure", "false"]

    @Test("matchesLowercase agrees with lowercased() for the values the parser compares", arguments: values)
    func matchesLowercase(_ value: String) {
        for literal in Self.lowercase {
            #expect(value.matchesLowercase(literal) == (value.lowercased() == "\(literal)"), "\(value) against \(literal)")
        }
    }
}
