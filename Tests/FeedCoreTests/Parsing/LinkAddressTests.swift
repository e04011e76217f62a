import Foundation
import Testing
@testable import FeedCore

/// A link as a feed writes it, the base it is read against, and whether it is a plain web address
/// that is kept as it is written, with no `URL` made.
struct LinkCase: Sendable, CustomTestStringConvertible {
    var written: String
    var base: String?
    var isPlain: Bool

    var testDescription: String { written + (base.map { " against \($0)" } ?? "") }
}

/// Entries keep their link as the text of an absolute URL; the plain web addresses most feeds
/// use are taken as written, every other goes through `URL`: both must give what `URL` gives.
@Suite("Entry links kept as text, as URL gives them")
struct LinkAddressTests {
    static let links: [LinkCase] = [
        LinkCase(written: "https://bench.example.org/posts/1", isPlain: true),
        LinkCase(written: "http://example.org", isPlain: true),
        LinkCase(written: "https://Example.ORG/Path/To?Q=1&r=%2F#Frag", isPlain: true),
        LinkCase(written: "https://example.org/a_b~c;d=e,f(g)*h+i!j$k'l@m:n", isPlain: true),
        LinkCase(written: "https://example.org/?q=a/b?c#x/y?z", isPlain: true),
        LinkCase(written: "  https://example.org/trimmed\n", isPlain: true),
        LinkCase(written: "https://a..b/-x", isPlain: true),
        LinkCase(written: "https://example.org/%7euser", isPlain: true),
        LinkCase(written: "https://example.org/%zz", isPlain: false),
        LinkCase(written: "https://example.org/%4", isPlain: false),
        LinkCase(written: "https://example.org/a b", isPlain: false),
        LinkCase(written: "https://example.org/caf\u{E9}", isPlain: false),
        LinkCase(written: "https://ex\u{E4}mple.org/", isPlain: false),
        LinkCase(written: "https://example.org/a#b#c", isPlain: false),
        LinkCase(written: "https://example.org/a|b{c}", isPlain: false),
        LinkCase(written: "https://example.org/[x]", isPlain: false),
        LinkCase(written: "https://example.org:8443/port", isPlain: false),
        LinkCase(written: "https://user:pass@example.org/", isPlain: false),
        LinkCase(written: "https://[::1]/v6", isPlain: false),
        LinkCase(written: "https://", isPlain: false),
        LinkCase(written: "https:///path", isPlain: false),
        LinkCase(written: "HTTPS://example.org/", isPlain: false),
        LinkCase(written: "ftp://example.org/file", isPlain: false),
        LinkCase(written: "mailto:someone@example.org", isPlain: false),
        LinkCase(written: "javascript:alert(1)", isPlain: false),
        LinkCase(written: "posts/2", isPlain: false),
        LinkCase(written: "posts/2", base: "https://example.org/blog/", isPlain: false),
        LinkCase(written: "/root?x=1", base: "https://example.org/blog/", isPlain: false),
        LinkCase(written: "//cdn.example.net/a", base: "https://example.org/", isPlain: false),
        LinkCase(written: "https://example.org/abs", base: "https://other.example/", isPlain: true),
        LinkCase(written: " \t ", isPlain: false),
        LinkCase(written: "", isPlain: false),
    ]

    @Test("a link's text is the absoluteString of the URL the general way makes", arguments: links)
    func address(_ link: LinkCase) throws {
        let base = link.base.flatMap { URL(string: $0) }
        let address = resolveAddress(link.written, against: base)
        #expect(address == resolveURL(link.written, against: base)?.absoluteString)
        var trimmed = link.written.trimmingWhitespace
        #expect(trimmed.withUTF8(isPlainWebAddress) == link.isPlain)
        if let address {
            #expect(URL(string: address)?.absoluteString == address, "the text makes the same URL again")
        }
    }

    @Test("a parsed entry's link reads back as a URL, and one set as a URL is kept as its text")
    func entryLink() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>F</title>
            <entry><id>urn:1</id><title>t</title><link href="https://example.org/a?b=1"/></entry>
            <entry><id>urn:2</id><title>u</title><link href="caf\u{E9}.html"/></entry></feed>
            """
        let entries = try FeedParser().parse(Data(atom.utf8), url: URL(string: "https://example.org/feed/")).entries
        #expect(entries.map(\.linkString) == ["https://example.org/a?b=1", "https://example.org/feed/caf%C3%A9.html"])
        #expect(entries.map(\.link) == [URL(string: "https://example.org/a?b=1"), URL(string: "https://example.org/feed/caf%C3%A9.html")])
        var entry = Entry(id: "x", link: URL(string: "https://example.org/set"))
        #expect(entry.linkString == "https://example.org/set")
        entry.link = nil
        #expect(entry.linkString == nil && entry.link == nil)
    }
}
