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

    /// The in-place check agrees with the standard library's on every kind of stray byte,
    /// before, at and after the eight-byte steps it takes through ASCII.
    @Test(arguments: [
        [], Array("plain ascii, long enough to take several steps".utf8), Array("Grüße 日本 😀".utf8),
        Array("1234567é".utf8), Array("12345678é".utf8), [0xC3], Array("1234567".utf8) + [0xE6, 0x97],
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        Array("caf".utf8) + [0xE9] + Array(" au lait, sixteen+".utf8), [0x80], Array("abcdefgh".utf8) + [0xFF],
    ] as [[UInt8]])
    func utf8ValidityCheck(bytes: [UInt8]) {
        #expect(UTF8Repair.isValid(Data(bytes)) == (String(validating: bytes, as: UTF8.self) != nil))
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

    @Test func anUnknownEncodingIsReadAsUTF8AndSaysSo() throws {
        let data = Data(#"<?xml version="1.0" encoding="x-klingon"?><rss><channel><title>tlhIngan</title></channel></rss>"#.utf8)
        let parsed = try FeedParser().parse(data)
        #expect(parsed.feed.title == "tlhIngan")
        #expect(parsed.warnings.map(\.englishWarning) == [#"unknown character encoding "x-klingon"; read as UTF-8"#])
    }

    /// Labels as feeds write them, the title's text, and that text's bytes in the encoding (made
    /// with Python's codecs, not with the iconv under test).
    static let legacyTitles: [(label: String, text: String, hex: String)] = [
        ("windows-1250", "Zażółć gęślą jaźń", "5a61bff3b3e62067ea9c6cb9206a619ff1"),
        ("windows-1251", "Новости дня", "cdeee2eef1f2e820e4edff"),
        ("windows-1252", "Café – “quoted” €", "436166e92096209371756f746564942080"),
        ("windows-1253", "Ειδήσεις", "c5e9e4def3e5e9f2"),
        ("windows-1254", "Güncel haberler ş ğ ı", "47fc6e63656c2068616265726c657220fe20f020fd"),
        ("windows-1255", "חדשות", "e7e3f9e5fa"),
        ("windows-1256", "أخبار اليوم", "c3cec8c7d120c7e1ede6e3"),
        ("windows-1257", "Žinios ąčę", "de696e696f7320e0e8e6"),
        ("windows-1258", "Đơn giá ₫", "d0f56e206769e120fe"),
        ("ISO-8859-7", "Ελληνικά νέα", "c5ebebe7ede9eadc20eddde1"),
        ("ISO-8859-2", "Łódź", "a3f364bc"),
        ("KOI8-U", "Новини України ґ є ї", "eecfd7c9cec920f5cbd2c1a7cec920ad20a420a7"),
        ("KOI8-R", "Новости", "eecfd7cfd3d4c9"),
        ("IBM866", "Привет", "8fe0a8a2a5e2"),
        ("GB2312", "新闻简体中文", "d0c2cec5bcf2cce5d6d0cec4"),
        ("GBK", "新聞与简体", "d0c2c284d3ebbcf2cce5"),
        ("GB18030", "新闻 𠀀 ㄅ", "d0c2cec5209532823620a8c5"),
        ("Big5", "新聞繁體中文", "b773bb44c163c5e9a4a4a4e5"),
        ("EUC-KR", "한국어 뉴스", "c7d1b1b9beee20b4babdba"),
        ("EUC-JP", "日本語のニュース", "c6fccbdcb8eca4cea5cba5e5a1bca5b9"),
        ("Shift_JIS", "日本語のニュース", "93fa967b8cea82cc836a8385815b8358"),
        ("x-sjis", "ニュース", "836a8385815b8358"),
        ("windows_1252", "Naïve café", "4e61ef766520636166e9"),
        ("cp1252", "Œuvre", "8c75767265"),
    ]

    static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    static func rss(label: String?, title: Data) -> Data {
        let prolog = label.map { #"<?xml version="1.0" encoding="\#($0)"?>"# } ?? ""
        return Data("\(prolog)<rss version=\"2.0\"><channel><title>".utf8) + title
            + Data("</title><item><title>ASCII</title></item></channel></rss>".utf8)
    }

    @Test(arguments: legacyTitles)
    func declaredLegacyEncodings(label: String, text: String, hex: String) throws {
        let parsed = try FeedParser().parse(Self.rss(label: label, title: Self.bytes(hex)))
        #expect(parsed.feed.title == text)
        #expect(parsed.warnings.isEmpty)
    }

    @Test(arguments: legacyTitles)
    func anHTTPCharsetOutranksTheProlog(label: String, text: String, hex: String) throws {
        let parsed = try FeedParser().parse(Self.rss(label: "UTF-8", title: Self.bytes(hex)), charset: label)
        #expect(parsed.feed.title == text)
    }

    @Test func aStrayByteInShiftJISCostsOneCharacter() throws {
        let title = Self.bytes("93fa967b" + "80" + "836a8385815b8358")
        #expect(try FeedParser().parse(Self.rss(label: "Shift_JIS", title: title)).feed.title == "日本\u{FFFD}ニュース")
    }

    /// Undeclared text in the legacy encodings most used without a declaration is read in its
    /// own encoding, not as windows-1252 mojibake.
    @Test(arguments: [
        ("windows-1251", "Новости дня: курс рубля и погода в Москве"),
        ("KOI8-R", "Новости дня: курс рубля и погода в Москве"),
        ("windows-1252", "Écoutez ça : les élèves préfèrent déjà l’été"),
        ("Shift_JIS", "日本語のニュースを読む"),
        ("GBK", "今天的新闻和天气预报"),
        ("Big5", "今天的新聞和天氣預報"),
        ("EUC-KR", "오늘의 뉴스와 날씨"),
    ])
    func undeclaredLegacyTextIsReadInItsOwnEncoding(encoding: String, text: String) throws {
        let encoded = try #require(iconvEncoded(text, in: encoding))
        let parsed = try FeedParser().parse(Self.rss(label: nil, title: encoded))
        #expect(parsed.feed.title == text)
        #expect(parsed.warnings.map(\.englishWarning) == ["no character encoding declared; read as \(encoding)"])
    }

    @Test func ebcdicDocumentsNameTheirCodePageInEBCDIC() throws {
        // '<?xml version="1.0" encoding="IBM037"?><rss><channel><title>Café EBCDIC</title>...'
        let ibm037 = Self.bytes("4c6fa7949340a58599a28996957e7ff14bf07f4085958396848995877e7fc9c2d4f0f3f77f6f6e4c99a2a26e4c838881959585936e4ca389a393856ec381865140c5c2c3c4c9c34c61a389a393856e4c61838881959585936e4c6199a2a26e")
        #expect(try FeedParser().parse(ibm037).feed.title == "Café EBCDIC")
        // The same in IBM500, whose brackets and exclamation mark sit elsewhere: "[Café]!".
        let ibm500 = Self.bytes("4c6fa7949340a58599a28996957e7ff14bf07f4085958396848995877e7fc9c2d4f5f0f07f6f6e4c99a2a26e4c838881959585936e4ca389a393856e4ac38186515a4f4c61a389a393856e4c61838881959585936e4c6199a2a26e")
        #expect(try FeedParser().parse(ibm500).feed.title == "[Café]!")
    }

    @Test func utf32WithAndWithoutByteOrderMark() throws {
        let text = #"<?xml version="1.0" encoding="UTF-32"?><rss><channel><title>Ünï 😀</title></channel></rss>"#
        func utf32(_ bigEndian: Bool) -> Data {
            var data = Data()
            for scalar in text.unicodeScalars {
                let value = bigEndian ? scalar.value.bigEndian : scalar.value.littleEndian
                withUnsafeBytes(of: value) { data.append(contentsOf: $0) }
            }
            return data
        }
        #expect(try FeedParser().parse(Data([0xFF, 0xFE, 0x00, 0x00]) + utf32(false)).feed.title == "Ünï 😀")
        #expect(try FeedParser().parse(utf32(true)).feed.title == "Ünï 😀")
    }
}
