/// Turns the HTML found in feed titles and summaries into clean plain text.
public enum HTMLText {
    /// Strips tags, drops `script` and `style` contents, decodes entities and collapses whitespace.
    ///
    /// Block-level tags become word breaks, so `<p>one</p><p>two</p>` reads "one two",
    /// while inline tags such as `<b>` join their neighbours.
    public static func plainText(fromHTML html: String) -> String {
        var html = html
        return html.withUTF8 { plainText(fromHTML: $0) }
    }

    /// `plainText(fromHTML:)` of HTML written in UTF-8, for text still in the bytes it was read into.
    static func plainText(fromHTML bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scanner = HTMLScanner(bytes: bytes)
        return scanner.plainText()
    }

    /// The first `length` characters of `plainText(fromHTML:)`. When the text starts with more
    /// than `length` ASCII bytes, as most do, the HTML is read no further than that.
    public static func plainTextPrefix(fromHTML html: String, length: Int) -> String {
        var html = html
        let text = html.withUTF8 { bytes in
            var scanner = HTMLScanner(bytes: bytes)
            return scanner.plainText(asciiPrefix: length)
        }
        return text.utf8.count <= length ? text : String(text.prefix(length))
    }

    /// Collapses runs of whitespace to single spaces and trims both ends, leaving everything else as is.
    public static func collapsingWhitespace(_ text: String) -> String {
        var text = text
        return text.withUTF8 { collapsingWhitespace($0) }
    }

    /// `collapsingWhitespace(_:)` of text written in UTF-8.
    static func collapsingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var writer = PlainTextWriter(capacity: bytes.count)
        var index = 0
        while index < bytes.count {
            index = writer.copy(bytes, at: index)
        }
        return writer.text
    }

    /// Decodes one entity name or numeric reference, such as `eacute`, `#233` or `#xE9`.
    static func decodeEntity(_ name: Substring) -> Unicode.Scalar? {
        var name = name
        return name.withUTF8 { decodeEntity($0) }
    }

    /// Decodes one entity name or numeric reference written in UTF-8: numbers and the commonest
    /// names are read from the bytes without making a string.
    static func decodeEntity(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard name.first == UInt8(ascii: "#") else {
            if let scalar = commonEntities.first(where: { $0.name.elementsEqual(name) })?.scalar { return scalar }
            return HTMLEntities.scalar(named: String(decoding: name, as: UTF8.self))
        }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if let marker = digits.first, marker | 0x20 == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            let (next, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = next
        }
        return scalar(forCodePoint: value)
    }

    /// The entities feeds use most, XML's own five and the no-break space.
    private static let commonEntities: [(name: [UInt8], scalar: Unicode.Scalar)] = [
        ("amp", "&"), ("lt", "<"), ("gt", ">"), ("quot", "\""), ("apos", "'"), ("nbsp", "\u{A0}"),
    ].map { (Array($0.0.utf8), $0.1) }

    /// Maps a numeric reference's code point the way browsers do: C1 controls as windows-1252,
    /// and anything that is not a valid scalar as U+FFFD.
    static func scalar(forCodePoint value: UInt32) -> Unicode.Scalar {
        if (0x80...0x9F).contains(value) {
            return Windows1252.scalar(for: UInt8(value))
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }
}

/// Accumulates plain text as UTF-8 bytes, collapsing whitespace as it goes.
struct PlainTextWriter {
    /// A byte copied as it is: not whitespace, nor the lead byte of a no-break space.
    private static func isOrdinary(_ byte: UInt8) -> Bool {
        !byte.isASCIIWhitespace && byte != 0xC2
    }

    private var buffer: [UInt8] = []
    private var pendingSpace = false

    init(capacity: Int) {
        buffer.reserveCapacity(capacity)
    }

    /// The text written so far, without leading or trailing whitespace.
    var text: String { String(decoding: buffer, as: UTF8.self) }

    var byteCount: Int { buffer.count }

    /// The first `count` bytes written, as text.
    func text(bytes count: Int) -> String { String(decoding: buffer.prefix(count), as: UTF8.self) }

    /// Whether the first `count` bytes written are all ASCII.
    func isASCII(bytes count: Int) -> Bool { !buffer.prefix(count).contains { $0 >= 0x80 } }

    /// Notes a word break; it is written only if more text follows.
    mutating func space() {
        pendingSpace = true
    }

    mutating func append(_ byte: UInt8) {
        if pendingSpace {
            if !buffer.isEmpty { buffer.append(0x20) }
            pendingSpace = false
        }
        buffer.append(byte)
    }

    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.properties.isWhitespace {
            space()
            return
        }
        if let encoded = UTF8.encode(scalar) {
            for byte in encoded { append(byte) }
        }
    }

    /// Copies the text at `index` up to the next byte in `stops` (or whitespace), turning whitespace,
    /// including a UTF-8 no-break space, into a word break. Returns the index of the next byte to read.
    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, stoppingAt stops: (UInt8) -> Bool = { _ in false }) -> Int {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
            space()
            return index + 1
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0xA0:
            space()
            return index + 2
        default:
            // Copy the whole run of ordinary bytes at once rather than byte by byte. A single
            // space between two ordinary bytes is already collapsed, so it stays in the run:
            // prose is then copied a sentence at a time, not a word at a time.
            var end = index + 1
            while end < bytes.count {
                let byte = bytes[end]
                if byte == 0x20, end + 1 < bytes.count, Self.isOrdinary(bytes[end + 1]), !stops(bytes[end + 1]) {
                    end += 2
                    continue
                }
                if byte.isASCIIWhitespace || byte == 0xC2 || stops(byte) { break }
                end += 1
            }
            if pendingSpace {
                if !buffer.isEmpty { buffer.append(0x20) }
                pendingSpace = false
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            return end
        }
    }
}

/// A single forward pass over HTML bytes; no DOM is built.
private struct HTMLScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var writer: PlainTextWriter

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.writer = PlainTextWriter(capacity: bytes.count)
    }

    /// The plain text, or only its first `asciiPrefix` bytes once they and the byte after them are
    /// ASCII: those are then its first `asciiPrefix` characters, as whitespace is written as
    /// spaces (no CR LF, the one pair of ASCII bytes that is a single character).
    mutating func plainText(asciiPrefix: Int? = nil) -> String {
        var asciiPrefix = asciiPrefix
        var index = 0
        while index < bytes.count {
            if let length = asciiPrefix, writer.byteCount > length {
                if writer.isASCII(bytes: length + 1) { return writer.text(bytes: length) }
                asciiPrefix = nil
            }
            switch bytes[index] {
            case UInt8(ascii: "<"):
                index = skipMarkup(at: index)
            case UInt8(ascii: "&"):
                index = decodeEntity(at: index)
            default:
                index = writer.copy(bytes, at: index) { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }
            }
        }
        return writer.text
    }

    /// Skips the tag, comment or declaration starting at `start`, or copies a lone `<` as text.
    private mutating func skipMarkup(at start: Int) -> Int {
        let next = start + 1 < bytes.count ? bytes[start + 1] : 0
        if next == UInt8(ascii: "!") {
            if bytes.matches("<!--", at: start) {
                return (bytes.find("-->", from: start + 4).map { $0 + 3 }) ?? bytes.count
            }
            return skipTag(from: start)
        }
        if next == UInt8(ascii: "?") {
            return skipTag(from: start)
        }
        let isClosing = next == UInt8(ascii: "/")
        let nameStart = isClosing ? start + 2 : start + 1
        guard nameStart < bytes.count, bytes[nameStart].isASCIILetter else {
            writer.append(UInt8(ascii: "<"))
            return start + 1
        }
        var nameEnd = nameStart
        var name = TagName()
        while nameEnd < bytes.count, bytes[nameEnd].isASCIILetter || bytes[nameEnd].isASCIIDigit {
            name.append(bytes[nameEnd])
            nameEnd += 1
        }
        let afterTag = skipTag(from: nameEnd)
        if !name.isInline {
            writer.space()
        }
        if !isClosing, name == HTMLScanner.script || name == HTMLScanner.style {
            guard let closing = findClosingTag(Array(bytes[nameStart..<nameEnd]), from: afterTag) else { return bytes.count }
            return skipTag(from: closing)
        }
        return afterTag
    }

    /// Returns the index just past the `>` ending the tag, ignoring `>` inside quoted attribute values.
    private func skipTag(from start: Int) -> Int {
        var quote: UInt8 = 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    private mutating func decodeEntity(at start: Int) -> Int {
        var end = start + 1
        let limit = min(bytes.count, start + 34)
        while end < limit, bytes[end].isASCIILetter || bytes[end].isASCIIDigit || (end == start + 1 && bytes[end] == UInt8(ascii: "#")) {
            end += 1
        }
        let isNumeric = end > start + 1 && bytes[start + 1] == UInt8(ascii: "#")
        let hasSemicolon = end < bytes.count && bytes[end] == UInt8(ascii: ";")
        // Browsers accept numeric references without the semicolon; named ones need it here,
        // so "AT&T" and "a&b=c" in URLs stay as written.
        if hasSemicolon || isNumeric {
            if let scalar = HTMLText.decodeEntity(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])) {
                writer.append(scalar)
                return hasSemicolon ? end + 1 : end
            }
        }
        writer.append(UInt8(ascii: "&"))
        return start + 1
    }

    /// Finds `</name` case-insensitively, returning the index of its `<`.
    private func findClosingTag(_ name: [UInt8], from start: Int) -> Int? {
        let pattern = Array("</".utf8) + name
        var index = start
        while index + pattern.count <= bytes.count {
            var matched = true
            for offset in 0..<pattern.count where bytes[index + offset] | 0x20 != pattern[offset] | 0x20 {
                matched = false
                break
            }
            if matched { return index }
            index += 1
        }
        return nil
    }

    /// Packed once: a literal compared inline would be packed again for every tag.
    private static let script: TagName = "script", style: TagName = "style"

}

/// A lowercased tag name of up to eight ASCII characters packed into an integer, so tags can be
/// classified without allocating a string for each; longer names match nothing.
private struct TagName: Hashable, ExpressibleByStringLiteral {
    private var packed: UInt64 = 0
    private var length = 0

    init() {}

    init(stringLiteral value: String) {
        for byte in value.utf8 {
            append(byte)
        }
    }

    mutating func append(_ byte: UInt8) {
        length += 1
        if length <= 8 {
            packed = packed << 8 | UInt64(byte | 0x20)
        }
    }

    /// Whether the element does not break words; every other tag reads as whitespace. Found by
    /// halving a sorted list: hashing the name for a set cost more than the search.
    var isInline: Bool {
        guard length <= 8 else { return false }
        let names = Self.inlineElements
        var low = 0, high = names.count
        while low < high {
            let middle = (low + high) / 2
            if names[middle] < packed { low = middle + 1 } else { high = middle }
        }
        return low < names.count && names[low] == packed
    }

    /// Up to eight bytes, a name packs into a number no other name of eight bytes or fewer packs into.
    private static let inlineElements: [UInt64] = ([
        "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font",
        "i", "ins", "kbd", "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong",
        "sub", "sup", "time", "tt", "u", "var", "wbr",
    ] as [TagName]).map(\.packed).sorted()
}
