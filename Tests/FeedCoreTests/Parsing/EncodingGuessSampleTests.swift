import Foundation
import Testing
@testable import FeedCore

/// Undeclared legacy text that starts late in a document: the guess must look past its ASCII head.
@Suite("Encoding guess: text after a long ASCII head")
struct EncodingGuessSampleTests {
    /// An RSS feed whose channel carries `asciiBytes` of ASCII before an item titled `title`.
    static func feed(asciiBytes: Int, title: Data) -> Data {
        let words = String(repeating: "Plain ASCII channel text. ", count: asciiBytes / 26 + 1)
        return Data("<rss version=\"2.0\"><channel><title>News</title><description>\(words)</description><item><title>".utf8)
            + title + Data("</title></item></channel></rss>".utf8)
    }

    @Test(arguments: [("WINDOWS-1251", "windows-1251"), ("KOI8-R", "KOI8-R")], [2 * 1024, 40 * 1024])
    func cyrillicAfterALongASCIIHeadIsReadInItsEncoding(encoding: (iconv: String, label: String), asciiBytes: Int) throws {
        let text = "Новости дня: мэр открыл новую библиотеку"
        let encoded = try #require(iconvEncoded(text, in: encoding.iconv))
        let parsed = try FeedParser().parse(Self.feed(asciiBytes: asciiBytes, title: encoded))
        #expect(parsed.entries.first?.title == text)
        #expect(parsed.warnings.map(\.englishWarning) == ["no character encoding declared; read as \(encoding.label)"])
    }
}
