import Foundation

/// Readies raw feed bytes for libxml2: converts them to UTF-8 and mends what real feeds get wrong.
///
/// Left to itself, libxml2 reads ISO-8859-1 literally (so the euro signs and smart quotes such feeds
/// really contain become invisible control characters), rejects a stray non-UTF-8 byte outright, and
/// knows other encodings only as far as its iconv build does. Converting here gives one predictable
/// path: every document reaches it as UTF-8 with a prolog that says so, and with no DTD.
enum XMLInput {
    /// The document as UTF-8 with a prolog that says so, and warnings for what was mended on the
    /// way; `XMLFeedReader` mends its XML (`XMLRepair`).
    ///
    /// - Parameter charset: the HTTP `Content-Type` charset, which outranks the prolog (RFC 7303).
    static func utf8(_ data: Data, charset: String? = nil) -> (document: Data, warnings: [ErrorReason]) {
        var warnings: [ErrorReason] = []
        let utf8 = convertToUTF8(data, charset: charset, warnings: &warnings)
        return (utf8, warnings)
    }

    /// The document as UTF-8 when it names no encoding, has no byte order mark and is not
    /// UTF-8 (a Latin-1 OPML file, say), guessed as undeclared feeds are; otherwise unchanged,
    /// for libxml2 to read as it declares. Nothing is mended: a broken file stays broken.
    static func guessingUndeclaredEncoding(_ data: Data) -> Data {
        guard sniffedEncoding([UInt8](data.prefix(4))) == nil, declaredEncoding(in: data) == nil, !UTF8Repair.isValid(data) else {
            return data
        }
        return EncodingGuess.bestReading(of: data).utf8
    }

    // MARK: - Encoding

    /// The encoding the bytes themselves show: a byte order mark, or the first characters of an
    /// XML declaration in a 16- or 32-bit or EBCDIC encoding (XML 1.0, appendix F).
    private static func sniffedEncoding(_ head: [UInt8]) -> (name: String, markLength: Int)? {
        switch head {
        case _ where head.starts(with: [0x00, 0x00, 0xFE, 0xFF]): ("UTF-32BE", 4)
        case _ where head.starts(with: [0xFF, 0xFE, 0x00, 0x00]): ("UTF-32LE", 4)
        case _ where head.starts(with: [0xEF, 0xBB, 0xBF]): ("UTF-8", 3)
        case _ where head.starts(with: [0xFE, 0xFF]): ("UTF-16BE", 2)
        case _ where head.starts(with: [0xFF, 0xFE]): ("UTF-16LE", 2)
        case [0x00, 0x00, 0x00, 0x3C]: ("UTF-32BE", 0)
        case [0x3C, 0x00, 0x00, 0x00]: ("UTF-32LE", 0)
        case [0x00, 0x3C, 0x00, 0x3F]: ("UTF-16BE", 0)
        case [0x3C, 0x00, 0x3F, 0x00]: ("UTF-16LE", 0)
        case [0x4C, 0x6F, 0xA7, 0x94]: ("IBM037", 0)
        default: nil
        }
    }

    private static func convertToUTF8(_ data: Data, charset: String?, warnings: inout [ErrorReason]) -> Data {
        if let (sniffed, markLength) = sniffedEncoding([UInt8](data.prefix(4))) {
            let body = data.dropFirst(markLength)
            if sniffed == "UTF-8" { return relabelled(validUTF8(Data(body), warnings: &warnings)) }
            // An EBCDIC prolog names its code page in EBCDIC: read it through the common one first.
            let name = sniffed == "IBM037"
                ? TextDecoding.utf8(Data(body.prefix(256)), from: sniffed).flatMap(declaredEncoding(in:))
                    .flatMap(TextDecoding.iconvName(forLabel:)) ?? sniffed
                : sniffed
            return relabelled(TextDecoding.utf8(Data(body), from: name) ?? validUTF8(Data(body), warnings: &warnings))
        }
        // The bytes are 8-bit (the prolog was readable as ASCII): a 16- or 32-bit label is a mislabel.
        let labels = [charset, declaredEncoding(in: data)].compactMap { $0 }
            .filter { !$0.lowercased().hasPrefix("utf-16") && !$0.lowercased().hasPrefix("utf-32") }
        guard let label = labels.first else { return relabelled(undeclared(data, warnings: &warnings)) }
        guard !TextDecoding.isUTF8(label) else { return relabelled(validUTF8(data, warnings: &warnings)) }
        guard let name = TextDecoding.iconvName(forLabel: label), let converted = TextDecoding.utf8(data, from: name) else {
            warnings.append(ErrorReason(.unknownEncoding, [.encoding: label]))
            return relabelled(validUTF8(data, warnings: &warnings))
        }
        return relabelled(converted)
    }

    /// A document that names no encoding: UTF-8 as XML says, mended when a few bytes stray from
    /// it, or, when it holds no UTF-8 beyond ASCII, read in the encoding its text looks written in.
    private static func undeclared(_ data: Data, warnings: inout [ErrorReason]) -> Data {
        // Nearly every such document is plain UTF-8, and the check settles it.
        guard !UTF8Repair.isValid(data) else { return data }
        let (valid, invalid) = UTF8Repair.sequenceCounts(data)
        guard valid < invalid else { return repairedUTF8(data, warnings: &warnings) }
        let (encoding, utf8) = EncodingGuess.bestReading(of: data)
        warnings.append(ErrorReason(.undeclaredEncoding, [.encoding: encoding]))
        return utf8
    }

    /// The data itself when it is valid UTF-8, else with stray bytes read as windows-1252.
    private static func validUTF8(_ data: Data, warnings: inout [ErrorReason]) -> Data {
        UTF8Repair.isValid(data) ? data : repairedUTF8(data, warnings: &warnings)
    }

    /// UTF-8 with its stray bytes read as windows-1252, and a warning that says so.
    private static func repairedUTF8(_ data: Data, warnings: inout [ErrorReason]) -> Data {
        warnings.append(ErrorReason(.notUTF8))
        return UTF8Repair.repaired(data)
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
        let declaration = head.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } ?? 0
        guard head[declaration...].starts(with: Array("<?xml".utf8)),
              let close = firstIndex(of: Array("?>".utf8), in: head[declaration...]),
              let key = firstIndex(of: Array("encoding".utf8), in: head[declaration..<close])
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

    /// Makes the prolog (if any) declare UTF-8, which `utf8` now is.
    private static func relabelled(_ utf8: Data) -> Data {
        guard let range = encodingValueRange(in: utf8) else { return utf8 }
        var output = utf8
        output.replaceSubrange(range, with: Array("UTF-8".utf8))
        return output
    }
}
