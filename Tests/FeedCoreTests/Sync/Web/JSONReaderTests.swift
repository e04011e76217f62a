import Foundation
import Testing
@testable import FeedCore

@Suite("JSON reader")
struct JSONReaderTests {
    /// Reads `document`'s one value with `body`.
    static func read<Value>(_ document: String, _ body: (inout JSONReader) throws(WebAPIError) -> Value) throws(WebAPIError) -> Value {
        try JSONReader.read(Data(document.utf8), body)
    }

    @Test(arguments: [
        (#""""#, ""),
        (#""plain text""#, "plain text"),
        (#""a\"b\\c\/d""#, "a\"b\\c/d"),
        (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
        (#""\u00e9\u65E5\u0041""#, "\u{E9}\u{65E5}A"),
        (#""x\ud83d\ude00y""#, "x\u{1F600}y"),
        (#""\uD83D\uDE00""#, "\u{1F600}"),
        (#""nul\u0000byte""#, "nul\u{0}byte"),
        ("\"Caf\u{E9} \u{65E5}\u{672C} \u{1F600}\"", "Caf\u{E9} \u{65E5}\u{672C} \u{1F600}"),
        (#""<p>one<\/p>\n<p>two \"2\"<\/p>""#, "<p>one</p>\n<p>two \"2\"</p>"),
        ("\"\u{7F}\"", "\u{7F}"),
    ])
    func strings(document: String, expected: String) throws {
        #expect(try Self.read(document) { reader throws(WebAPIError) in try reader.readString() } == expected)
        // The same bytes handed over in place, without a String made.
        #expect(try Self.read(document) { reader throws(WebAPIError) in try reader.readString { Array($0) } } == Array(expected.utf8))
    }

    /// As `LenientNumber` decoded them with JSONDecoder: integral values an Int64 holds in decimal,
    /// whatever their spelling; other numbers as Swift spells the Double; strings as they are.
    @Test(arguments: [
        ("12", "12"), ("-3", "-3"), ("0", "0"), ("-0", "0"), ("1.0", "1"), ("2e3", "2000"), ("1E2", "100"),
        ("0.1e1", "1"), ("1500e-3", "1.5"), ("1.25e-1", "0.125"), ("1.5", "1.5"), ("-2.5E+2", "-250"),
        ("1e20", "1e+20"), ("9223372036854775807", "9223372036854775807"), ("-9223372036854775808", "-9223372036854775808"),
        ("9223372036854775808", "9.223372036854776e+18"), ("123456789012345678.0", "123456789012345678"),
        ("1e-400", "0"), (#""1700000000123""#, "1700000000123"), (#""not a number""#, "not a number"), (#""""#, ""),
    ])
    func lenientNumbers(document: String, expected: String) throws {
        #expect(try Self.read(document) { reader throws(WebAPIError) in try reader.readLenientNumber() }.text == expected)
    }

    /// A lenient number read straight as an Int64 is what its text gave.
    @Test(arguments: [
        "12", "-3", "-0", "1.0", "2e3", "1500e-3", "1.5", "-2.5E+2", "1e20", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "123456789012345678.0", "1e-400", #""1700000000123""#, #""-42""#, #""007""#, #""+5""#,
        #""1.5""#, #""9223372036854775807""#, #""-9223372036854775808""#, #""9223372036854775808""#, #""-""#, #""""#,
        #""not a number""#, #""\u0031\u0032""#,
    ])
    func lenientIntegers(document: String) throws {
        let text = try Self.read(document) { reader throws(WebAPIError) in try reader.readLenientNumber() }
        #expect(try Self.read(document) { reader throws(WebAPIError) in try reader.readLenientInt64() } == text.int64)
    }

    @Test(arguments: [("42", 42), ("-42", -42), ("1e3", 1000), ("7.0", 7), ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min)] as [(String, Int64)])
    func integers(document: String, expected: Int64) throws {
        #expect(try Self.read(document) { reader throws(WebAPIError) in try reader.readInt64() } == expected)
    }

    @Test(arguments: ["1.5", "1e19", "9223372036854775808", "-9223372036854775809", #""12""#, "true", "null"])
    func notAnInt64(document: String) {
        #expect(throws: WebAPIError.malformedAnswer) { try Self.read(document) { reader throws(WebAPIError) in try reader.readInt64() } }
    }

    @Test func literals() throws {
        let values = try Self.read(" [true, false ,null] ") { reader throws(WebAPIError) in
            var values: [Bool?] = []
            try reader.readArray { reader throws(WebAPIError) in
                values.append(try reader.readNull() ? nil : reader.readBool())
            }
            return values
        }
        #expect(values == [true, false, nil])
    }

    /// Unknown members are skipped whole, whatever they hold, and whitespace goes anywhere between tokens.
    @Test func skipsWhatIsNotAskedFor() throws {
        let document = """
            \u{FEFF}\r\n\t{ "skip" : { "a" : [ 1 , -2.5e+3 , { "b" : null } , true , false , "x\\"]}" , [ [ ] ] , { } ] } ,
             "k\\u0065ep"\t:\n"kept" , "also" : "u\\u00e9\\ud83d\\ude00" , "n":[]}\r\n
            """
        let kept = try Self.read(document) { reader throws(WebAPIError) in
            var kept: [String] = []
            try reader.readObject { reader, key throws(WebAPIError) in
                switch key {
                case "keep": kept.append(try reader.readString())
                default: try reader.skipValue()
                }
            }
            return kept
        }
        #expect(kept == ["kept"])
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        let limit = JSONReader.depthLimit
        let document = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        try Self.read(document) { reader throws(WebAPIError) in try reader.skipValue() }
    }

    static let deepArray: String = String(repeating: "[", count: JSONReader.depthLimit + 1) + String(repeating: "]", count: JSONReader.depthLimit + 1)
    static let deepObject: String = String(repeating: #"{"a":"#, count: JSONReader.depthLimit + 1) + "1" + String(repeating: "}", count: JSONReader.depthLimit + 1)
    static let unclosed: String = String(repeating: "[", count: 100_000)

    /// Everything that is not JSON, read or skipped, is a malformed answer: never a crash, a hang
    /// or a value made up.
    @Test(arguments: [
        "", " ", "{", "[", "[1,2", #""abc"#, #"{"a":1"#, #"{"a" 1}"#, "{a:1}", #"{"a":}"#, #"{,"a":1}"#, "[,1]",
        "[1,]", #"{"a":1,}"#, "[1 2]", "[1] x", "[1]]", "{}}", "[1][2]", "tru", "nul", "nulll", "fals", "True", "NULL",
        "01", "-01", "-", "1.", ".5", "1e", "1e+", "+1", "0x1", "NaN", "Infinity", "-Infinity", "1_000",
        #""\x""#, #""\u12""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800\""#, #""\"#,
        "\"a\tb\"", "\"a\nb\"", "\"\u{1}\"", "'single'", "[1]\u{0}", "\u{0}",
        deepArray, deepObject, unclosed,
    ] as [String])
    func malformed(document: String) {
        #expect(throws: WebAPIError.malformedAnswer) { try Self.read(document) { reader throws(WebAPIError) in try reader.skipValue() } }
    }

    /// A string that is read must be UTF-8, as JSONDecoder has it: no byte is replaced unseen.
    @Test(arguments: [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
    func invalidUTF8InAStringIsMalformed(bytes: [UInt8]) {
        for document in [Data([0x22] + bytes + [0x22]), Data([0x22, 0x5C, 0x6E] + bytes + [0x22])] {
            #expect(throws: WebAPIError.malformedAnswer) { try JSONReader.read(document) { reader throws(WebAPIError) in try reader.readString() } }
            #expect(throws: WebAPIError.malformedAnswer) { try JSONReader.read(document) { reader throws(WebAPIError) in try reader.readString { _ in } } }
        }
    }

    @Test(arguments: [
        ("12", "a number read as a string"), ("null", "null read as a string"), (#""1""#, "a string read as a bool"),
        (#"{"a":1}"#, "an object read as an array"), ("[1]", "an array read as an object"),
    ])
    func theWrongTypeIsMalformed(document: String, what: String) {
        #expect(throws: WebAPIError.malformedAnswer, "\(what)") {
            try Self.read(document) { reader throws(WebAPIError) in
                switch what {
                case "a string read as a bool": _ = try reader.readBool()
                case "an object read as an array": try reader.readArray { reader throws(WebAPIError) in try reader.skipValue() }
                case "an array read as an object": try reader.readObject { reader, _ throws(WebAPIError) in try reader.skipValue() }
                default: _ = try reader.readString()
                }
            }
        }
    }
}
