import Foundation
import Testing
@testable import FeedCore

@Suite("Character encodings")
struct EncodingTests {
    @Test func iso88591IsReadAsWindows1252() throws {
        let parsed = try parseCorpus("latin1.xml")
        #expect(parsed.feed.title == "Café € Latin")
        #expect(parsed.entries.first?.title == "“Smart quotes” naïve")
    }

    @Test func windows1252() throws {
        let parsed = try parseCorpus("windows1252.xml")
        #expect(parsed.feed.title == "Price €5 – it’s a deal…")
        #expect(parsed.entries.first?.title == "Été Škoda ™")
    }

    @Test(arguments: ["utf16le.xml", "utf16be.xml"])
    func utf16WithByteOrderMark(name: String) throws {
        let parsed = try parseCorpus(name)
        #expect(parsed.feed.title == "Grüße 日本 😀")
        #expect(parsed.entries.first?.title == "Sixteen")
    }

    @Test func utf16WithoutByteOrderMark() throws {
        let text = #"<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>No BOM ü</title></channel></rss>"#
        var data = Data()
        for unit in text.utf16 {
            data.append(UInt8(unit & 0xFF))
            data.append(UInt8(unit >> 8))
        }
        #expect(try FeedParser().parse(data).feed.title == "No BOM ü")
    }

    @Test func utf8WithByteOrderMark() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(#"<?xml version="1.0" encoding="utf-8"?><rss><channel><title>BOM é</title></channel></rss>"#.utf8)
        #expect(try FeedParser().parse(data).feed.title == "BOM é")
    }

    @Test func byteOrderMarkOutranksThePrologLabel() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><title>Crème</title></channel></rss>"#.utf8)
        #expect(try FeedParser().parse(data).feed.title == "Crème")
    }

    @Test func strayWindows1252BytesInUTF8AreRepaired() throws {
        #expect(try parseCorpus("mislabelled-utf8.xml").feed.title == "It’s café")
    }

    @Test func iso885915EuroSign() throws {
        let data = Data(#"<?xml version="1.0" encoding="ISO-8859-15"?><rss><channel><title>"#.utf8) + Data([0xA4, 0x20, 0xBD]) + Data("</title></channel></rss>".utf8)
        #expect(try FeedParser().parse(data).feed.title == "€ œ")
    }

    @Test func undeclaredEncodingDefaultsToUTF8() throws {
        let data = Data("<rss><channel><title>Ünïcödé</title></channel></rss>".utf8)
        #expect(try FeedParser().parse(data).feed.title == "Ünïcödé")
    }

    @Test func unknownEncodingIsReportedByName() {
        let data = Data(#"<?xml version="1.0" encoding="x-klingon"?><rss><channel><title>t</title></channel></rss>"#.utf8)
        let error = parseError { try FeedParser().parse(data) }
        #expect(error == .unsupportedEncoding("x-klingon"))
        #expect(error?.description == "Unsupported character encoding \"x-klingon\"")
    }
}
