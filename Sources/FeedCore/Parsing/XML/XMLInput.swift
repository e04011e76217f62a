import Foundation

/// Readies raw feed bytes for `XMLParser`: converts them to UTF-8 and refuses entity declarations.
///
/// Left to itself, libxml2 reads ISO-8859-1 literally (so the euro signs and smart quotes such feeds
/// really contain become invisible control characters), rejects a stray non-UTF-8 byte outright, and
/// knows other encodings only as far as its iconv build does. Converting here gives one predictable
/// path: every document reaches it as UTF-8 with a prolog that says so.
enum XMLInput {
    /// Returns the document as UTF-8 XML, or throws when its encoding is unknown or it declares entities.
    static func prepare(_ data: Data) throws(FeedParseError) -> Data {
        let utf8 = try convertToUTF8(data)
        try rejectEntityDeclarations(in: utf8)
        return utf8
    }

    // MARK: - Encoding

    private static func convertToUTF8(_ data: Data) throws(FeedParseError) -> Data {
        let bytes = [UInt8](data.prefix(4))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // A byte order mark outranks the prolog's label (XML 1.0, appendix F).
            return relabelled(validUTF8(Data(data.dropFirst(3))))
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return relabelled(utf16: data.dropFirst(2), bigEndian: true)
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return relabelled(utf16: data.dropFirst(2), bigEndian: false)
        }
        if bytes == [0x00, 0x3C, 0x00, 0x3F] {
            return relabelled(utf16: data, bigEndian: true)
        }
        if bytes == [0x3C, 0x00, 0x3F, 0x00] {
            return relabelled(utf16: data, bigEndian: false)
        }
        return try convert8Bit(data)
    }

    /// Converts a document in an ASCII-compatible encoding, as named by its prolog (UTF-8 when none is).
    private static func convert8Bit(_ data: Data) throws(FeedParseError) -> Data {
        let label = declaredEncoding(in: data)?.lowercased() ?? "utf-8"
        switch label {
        case "utf-8", "utf8":
            return validUTF8(data)
        case "us-ascii", "ascii", "utf-16", "utf-16le", "utf-16be":
            // ASCII is a subset of UTF-8, and a UTF-16 label on bytes that are plainly 8-bit
            // (the prolog was readable) is a mislabel.
            return relabelled(validUTF8(data))
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1",
             "windows-1252", "cp1252", "x-cp1252":
            // Browsers, and so the people writing feeds, treat ISO-8859-1 as windows-1252.
            return relabelled(decode8Bit(data, highScalar: Windows1252.scalar(for:)))
        case "iso-8859-15", "iso8859-15", "iso_8859-15", "latin9", "latin-9":
            return relabelled(decode8Bit(data, highScalar: latin9Scalar(for:)))
        default:
            guard let encoding = foundationEncodings[label], let text = String(data: data, encoding: encoding) else {
                throw .unsupportedEncoding(label)
            }
            return relabelled(Data(text.utf8))
        }
    }

    /// The data itself when it is valid UTF-8, else with stray bytes repaired.
    private static func validUTF8(_ data: Data) -> Data {
        String(validating: data, as: UTF8.self) != nil ? data : UTF8Repair.repaired(data)
    }

    private static let foundationEncodings: [String: String.Encoding] = [
        "iso-8859-2": .isoLatin2, "latin2": .isoLatin2,
        "windows-1250": .windowsCP1250, "cp1250": .windowsCP1250,
        "windows-1251": .windowsCP1251, "cp1251": .windowsCP1251,
        "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254,
        "shift_jis": .shiftJIS, "shift-jis": .shiftJIS, "sjis": .shiftJIS,
        "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP, "macintosh": .macOSRoman,
    ]

    private static func relabelled(utf16 data: Data, bigEndian: Bool) -> Data {
        var units: [UInt16] = []
        units.reserveCapacity(data.count / 2)
        var index = data.startIndex
        while index + 1 < data.endIndex {
            let (high, low) = bigEndian ? (data[index], data[index + 1]) : (data[index + 1], data[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        return relabelled(Data(String(decoding: units, as: UTF16.self).utf8))
    }

    private static func decode8Bit(_ data: Data, highScalar: (UInt8) -> Unicode.Scalar) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(data.count + data.count / 8)
        for byte in data {
            if byte < 0x80 {
                output.append(byte)
            } else if let encoded = UTF8.encode(highScalar(byte)) {
                output.append(contentsOf: encoded)
            }
        }
        return Data(output)
    }

    /// ISO-8859-15 is Latin-1 with eight letters changed, notably the euro sign at 0xA4.
    private static func latin9Scalar(for byte: UInt8) -> Unicode.Scalar {
        switch byte {
        case 0xA4: "\u{20AC}"
        case 0xA6: "\u{0160}"
        case 0xA8: "\u{0161}"
        case 0xB4: "\u{017D}"
        case 0xB8: "\u{017E}"
        case 0xBC: "\u{0152}"
        case 0xBD: "\u{0153}"
        case 0xBE: "\u{0178}"
        default: Windows1252.scalar(for: byte)
        }
    }

    // MARK: - Prolog

    /// The value of the prolog's `encoding` pseudo-attribute, if any.
    private static func declaredEncoding(in data: Data) -> String? {
        guard let range = encodingValueRange(in: data) else { return nil }
        return String(decoding: data[range], as: UTF8.self).trimmingWhitespace
    }

    /// Where the prolog's encoding name sits, so it can be read or replaced.
    private static func encodingValueRange(in data: Data) -> Range<Data.Index>? {
        // A small array is far quicker to search than `Data` through its generic collection methods.
        let head = [UInt8](data.prefix(512))
        guard head.starts(with: Array("<?xml".utf8)),
              let close = firstIndex(of: Array("?>".utf8), in: head),
              let key = firstIndex(of: Array("encoding".utf8), in: head[..<close])
        else { return nil }
        var index = key + 8
        while index < close, head[index] == 0x20 || head[index] == 0x3D || head[index] == 0x09 {
            index += 1
        }
        guard index < close, head[index] == 0x22 || head[index] == 0x27 else { return nil }
        let quote = head[index]
        let start = index + 1
        guard let end = head[start..<close].firstIndex(of: quote) else { return nil }
        return (data.startIndex + start)..<(data.startIndex + end)
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (bytes.startIndex...(bytes.endIndex - pattern.count)).first { start in
            bytes[start..<(start + pattern.count)].elementsEqual(pattern)
        }
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        firstIndex(of: pattern, in: bytes[...])
    }

    /// Makes the prolog (if any) declare UTF-8, which `utf8` now is.
    private static func relabelled(_ utf8: Data) -> Data {
        guard let range = encodingValueRange(in: utf8) else { return utf8 }
        var output = utf8
        output.replaceSubrange(range, with: Array("UTF-8".utf8))
        return output
    }

    // MARK: - Entities

    /// Throws if a DOCTYPE before the root element has an internal subset declaring entities.
    private static func rejectEntityDeclarations(in data: Data) throws(FeedParseError) {
        let offset: Int? = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return PrologScanner(bytes: bytes).entityDeclarationOffset()
        }
        guard let offset else { return }
        let prefix = data.prefix(offset)
        let line = prefix.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
        throw .entityDeclarationsForbidden(line: line, column: offset - (lineStart - data.startIndex) + 1)
    }
}

/// Walks the prolog (declarations, comments, processing instructions, DOCTYPE) up to the root element.
private struct PrologScanner {
    let bytes: UnsafeBufferPointer<UInt8>

    /// The offset of the first `<!ENTITY` inside a DOCTYPE's internal subset, if there is one.
    func entityDeclarationOffset() -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if bytes.matches("<?", at: index) {
                guard let end = bytes.find("?>", from: index + 2) else { return nil }
                index = end + 2
            } else if bytes.matches("<!--", at: index) {
                guard let end = bytes.find("-->", from: index + 4) else { return nil }
                index = end + 3
            } else if bytes.matches("<!DOCTYPE", at: index) {
                return entityInDoctype(from: index + 9)
            } else {
                return nil
            }
        }
        return nil
    }

    private func entityInDoctype(from start: Int) -> Int? {
        var quote: UInt8 = 0
        var inSubset = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if inSubset, bytes.matches("<!ENTITY", at: index) {
                return index
            } else if !inSubset, byte == UInt8(ascii: ">") {
                return nil
            }
            index += 1
        }
        return nil
    }
}
