import Foundation

/// A reader of one JSON document (RFC 8259) that walks its UTF-8 bytes in place, for the answers
/// a sync reads by the thousand: objects key by key, arrays element by element, each value read
/// as what the caller expects or skipped whole.
///
/// JSONDecoder spent a quarter of a Google Reader sync's CPU building its generic containers for
/// them (docs/performance.md, Sync); here a key is compared as bytes and only the values asked for
/// become Swift values. Anything that is not JSON is `WebAPIError.malformedAnswer`: a truncated
/// answer, trailing garbage, a bad literal or escape, a lone surrogate, a control character or
/// invalid UTF-8 in a string, nesting deeper than `depthLimit`.
struct JSONReader {
    /// How deeply arrays and objects may nest: deeper is no answer of a sync API, and the limit
    /// bounds the recursion of reading and skipping.
    static let depthLimit = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    /// Where a string with escapes is decoded; kept between strings so it is allocated once.
    private var scratch: [UInt8] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads the document `data` with `body`, which reads its one value; only whitespace may follow.
    static func read<Value>(_ data: Data, _ body: (inout JSONReader) throws(WebAPIError) -> Value) throws(WebAPIError) -> Value {
        let result = data.withUnsafeBytes { raw -> Result<Value, WebAPIError> in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            return Result { () throws(WebAPIError) -> Value in
                // A UTF-8 byte order mark may start the document (RFC 8259 §8.1); JSONDecoder skips it too.
                if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                    reader.position = 3
                }
                let value = try body(&reader)
                reader.skipWhitespace()
                guard reader.position == reader.bytes.count else { throw .malformedAnswer }
                return value
            }
        }
        return try result.get()
    }

    // MARK: - Containers

    /// Reads an object, calling `member` for each key with the reader at its value, which
    /// `member` reads or skips.
    mutating func readObject(_ member: (inout JSONReader, JSONKey) throws(WebAPIError) -> Void) throws(WebAPIError) {
        try open(ASCII.openBrace)
        if try close(ASCII.closeBrace) { return }
        repeat {
            skipWhitespace()
            let key = try readKey()
            skipWhitespace()
            try expect(ASCII.colon)
            try member(&self, key)
        } while try !endOfContainer(ASCII.closeBrace)
    }

    /// Reads an array, calling `element` with the reader at each element, which it reads or skips.
    mutating func readArray(_ element: (inout JSONReader) throws(WebAPIError) -> Void) throws(WebAPIError) {
        try open(ASCII.openBracket)
        if try close(ASCII.closeBracket) { return }
        repeat {
            try element(&self)
        } while try !endOfContainer(ASCII.closeBracket)
    }

    /// Reads a `null` if one is next, telling whether it was: an optional value is null or its type.
    mutating func readNull() throws(WebAPIError) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Skips the next value whole, checking it as it goes.
    mutating func skipValue() throws(WebAPIError) {
        skipWhitespace()
        guard position < bytes.count else { throw .malformedAnswer }
        switch bytes[position] {
        case ASCII.quote:
            try scanString(decoding: false)
        case ASCII.openBrace:
            try readObject { reader, _ throws(WebAPIError) in try reader.skipValue() }
        case ASCII.openBracket:
            try readArray { reader throws(WebAPIError) in try reader.skipValue() }
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        default:
            _ = try scanNumber()
        }
    }

    // MARK: - Values

    mutating func readString() throws(WebAPIError) -> String {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == ASCII.quote else { throw .malformedAnswer }
        let (start, end, escaped) = try scanString(decoding: true)
        let text = escaped ? String(validating: scratch, as: UTF8.self) : String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        guard let text else { throw .malformedAnswer }
        return text
    }

    /// Hands `body` a string's UTF-8 bytes, escapes decoded, without making a String of them;
    /// they are valid only while `body` runs.
    mutating func readString<Value>(utf8 body: (UnsafeBufferPointer<UInt8>) -> Value) throws(WebAPIError) -> Value {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == ASCII.quote else { throw .malformedAnswer }
        let (start, end, escaped) = try scanString(decoding: true)
        if escaped {
            guard scratch.withUnsafeBufferPointer(Self.isUTF8) else { throw .malformedAnswer }
            return scratch.withUnsafeBufferPointer(body)
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard Self.isUTF8(text) else { throw .malformedAnswer }
        return body(text)
    }

    /// Whether `bytes` are valid UTF-8; nearly always ASCII, which a scan tells.
    private static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
    }

    /// A string, or nil for null.
    mutating func readOptionalString() throws(WebAPIError) -> String? {
        try readNull() ? nil : readString()
    }

    /// The string member `name` of an object, skipping the others; nil when it is missing or null.
    mutating func readMember(_ name: StaticString) throws(WebAPIError) -> String? {
        var value: String?
        try readObject { reader, key throws(WebAPIError) in
            if name ~= key {
                value = try reader.readOptionalString()
            } else {
                try reader.skipValue()
            }
        }
        return value
    }

    /// A number with an integral value that an Int64 holds (`12`, `-3`, `1.0`, `2e3`).
    mutating func readInt64() throws(WebAPIError) -> Int64 {
        skipWhitespace()
        guard let value = try scanNumber().int64 else { throw .malformedAnswer }
        return value
    }

    /// A number or a string, as `LenientNumber` decodes it: a string's text as it is, an integral
    /// number that an Int64 holds in decimal, any other number as Swift spells the Double.
    mutating func readLenientNumber() throws(WebAPIError) -> LenientNumber {
        skipWhitespace()
        guard position < bytes.count else { throw .malformedAnswer }
        if bytes[position] == ASCII.quote {
            return LenientNumber(text: try readString())
        }
        let number = try scanNumber()
        if let integer = number.int64 {
            return LenientNumber(text: String(integer))
        }
        guard number.double.isFinite else { throw .malformedAnswer }
        return LenientNumber(text: String(number.double))
    }

    /// A lenient number, or nil for null.
    mutating func readOptionalLenientNumber() throws(WebAPIError) -> LenientNumber? {
        try readNull() ? nil : readLenientNumber()
    }

    /// What `readLenientNumber().int64` gives, without spelling the number out first: a Google
    /// Reader item has three times, and their texts were a tenth of reading it.
    mutating func readLenientInt64() throws(WebAPIError) -> Int64? {
        skipWhitespace()
        guard position < bytes.count else { throw .malformedAnswer }
        if bytes[position] == ASCII.quote {
            return try readString { digits in
                Self.decimalInt64(digits) ?? LenientNumber(text: String(decoding: digits, as: UTF8.self)).int64
            }
        }
        let number = try scanNumber()
        if let integer = number.int64 { return integer }
        guard number.double.isFinite else { throw .malformedAnswer }
        return Int64(exactly: number.double.rounded())
    }

    /// A lenient number's Int64, or nil for null (or a number no Int64 holds).
    mutating func readOptionalLenientInt64() throws(WebAPIError) -> Int64? {
        try readNull() ? nil : readLenientInt64()
    }

    /// `-` and decimal digits that an Int64 holds, as Int64; nil for anything else.
    private static func decimalInt64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = UnsafeBufferPointer(rebasing: text[(negative ? 1 : 0)...])
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }

    mutating func readBool() throws(WebAPIError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw .malformedAnswer }
        if bytes[position] == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    // MARK: - Grammar

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
            default:
                return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(WebAPIError) {
        guard position < bytes.count, bytes[position] == byte else { throw .malformedAnswer }
        position += 1
    }

    private mutating func open(_ bracket: UInt8) throws(WebAPIError) {
        skipWhitespace()
        try expect(bracket)
        depth += 1
        guard depth <= Self.depthLimit else { throw .malformedAnswer }
    }

    /// Closes the container just opened if `bracket` is next: an empty one.
    private mutating func close(_ bracket: UInt8) throws(WebAPIError) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == bracket else { return false }
        position += 1
        depth -= 1
        return true
    }

    /// After a member or element: true at the container's end, false after a comma.
    private mutating func endOfContainer(_ bracket: UInt8) throws(WebAPIError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw .malformedAnswer }
        switch bytes[position] {
        case ASCII.comma:
            position += 1
            return false
        case bracket:
            position += 1
            depth -= 1
            return true
        default:
            throw .malformedAnswer
        }
    }

    private mutating func literal(_ word: StaticString) throws(WebAPIError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count,
              UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
        else { throw .malformedAnswer }
        position += count
    }

    private mutating func readKey() throws(WebAPIError) -> JSONKey {
        guard position < bytes.count, bytes[position] == ASCII.quote else { throw .malformedAnswer }
        let (start, end, escaped) = try scanString(decoding: true)
        // An escaped key (rare: no server escapes plain ASCII names) is compared by its decoded bytes.
        return escaped ? JSONKey(decoded: scratch) : JSONKey(raw: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// Reads the string at `position`, its opening quote included. The bytes between the quotes
    /// are `start..<end`; when the string has escapes and `decoding` is set, its decoded bytes
    /// are in `scratch`.
    @discardableResult
    private mutating func scanString(decoding: Bool) throws(WebAPIError) -> (start: Int, end: Int, escaped: Bool) {
        position += 1
        let start = position
        var copied = start
        var escaped = false
        while true {
            // The plain run up to the next quote, backslash or control character.
            while position < bytes.count, bytes[position] != ASCII.quote, bytes[position] != ASCII.backslash, bytes[position] >= 0x20 {
                position += 1
            }
            guard position < bytes.count else { throw .malformedAnswer }
            let byte = bytes[position]
            if byte == ASCII.quote {
                if escaped, decoding {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<position]))
                }
                position += 1
                return (start, position - 1, escaped)
            }
            guard byte == ASCII.backslash else { throw .malformedAnswer }
            if decoding {
                if !escaped {
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<position]))
            }
            escaped = true
            position += 1
            try scanEscape(decoding: decoding)
            copied = position
        }
    }

    /// Reads the escape after a backslash, appending what it stands for to `scratch` when decoding.
    private mutating func scanEscape(decoding: Bool) throws(WebAPIError) {
        guard position < bytes.count else { throw .malformedAnswer }
        let byte = bytes[position]
        position += 1
        let decoded: UInt8
        switch byte {
        case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"): decoded = byte
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            let scalar = try scanUnicodeEscape()
            if decoding {
                scratch.append(contentsOf: UTF8.encode(scalar)!)
            }
            return
        default:
            throw .malformedAnswer
        }
        if decoding {
            scratch.append(decoded)
        }
    }

    /// The scalar of `\uXXXX` after its `u`, with the low half of a surrogate pair that follows
    /// as `\uXXXX`; a lone surrogate is no scalar, so malformed, as JSONDecoder has it.
    private mutating func scanUnicodeEscape() throws(WebAPIError) -> Unicode.Scalar {
        let unit = try scanHex4()
        switch unit {
        case 0xD800...0xDBFF:
            guard bytes.count - position >= 2, bytes[position] == ASCII.backslash, bytes[position + 1] == UInt8(ascii: "u") else {
                throw .malformedAnswer
            }
            position += 2
            let low = try scanHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw .malformedAnswer }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
        case 0xDC00...0xDFFF:
            throw .malformedAnswer
        default:
            return Unicode.Scalar(unit)!
        }
    }

    private mutating func scanHex4() throws(WebAPIError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw .malformedAnswer }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .malformedAnswer
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Reads the number at `position`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func scanNumber() throws(WebAPIError) -> JSONNumber {
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else { throw .malformedAnswer }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw .malformedAnswer }
            skipDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            integral = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw .malformedAnswer }
            skipDigits()
        }
        return JSONNumber(text: UnsafeBufferPointer(rebasing: bytes[start..<position]), integral: integral)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) {
            position += 1
        }
    }
}

/// An object's key, valid while its reader reads: the bytes between its quotes, or the decoded
/// bytes when it had escapes. Compared with names as bytes, so no String is made for it.
struct JSONKey {
    private let raw: UnsafeBufferPointer<UInt8>?
    private let decoded: [UInt8]

    fileprivate init(raw: UnsafeBufferPointer<UInt8>) {
        self.raw = raw
        decoded = []
    }

    fileprivate init(decoded: [UInt8]) {
        raw = nil
        self.decoded = decoded
    }

    /// Whether the key is `name`, so that `switch key { case "id": … }` compares bytes.
    static func ~= (name: StaticString, key: JSONKey) -> Bool {
        let count = name.utf8CodeUnitCount
        if let raw = key.raw {
            return raw.count == count && (count == 0 || memcmp(raw.baseAddress!, name.utf8Start, count) == 0)
        }
        return key.decoded.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: count))
    }
}

/// A number's text as the document spells it.
private struct JSONNumber {
    var text: UnsafeBufferPointer<UInt8>
    /// No fraction and no exponent.
    var integral: Bool

    /// Its value when that is an integer an Int64 holds, whatever its spelling (`1.0`, `2e3`,
    /// `1500e-3`), as JSONDecoder reads it: from the digits, and for a fraction or an exponent
    /// whose digits are no integer, from the Double it makes (`1e-400` is 0).
    var int64: Int64? {
        if let exact { return exact }
        return integral ? nil : Int64(exactly: double)
    }

    /// The value read from the digits, when it is an integer an Int64 holds.
    private var exact: Int64? {
        let negative = text[0] == UInt8(ascii: "-")
        // The common case, plain digits too few to overflow, read without an array.
        if integral, text.count <= 18 {
            let magnitude = text.dropFirst(negative ? 1 : 0).reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            return negative ? -magnitude : magnitude
        }
        var digits = Array(text.dropFirst(negative ? 1 : 0))
        var exponent = 0
        if !integral {
            if let e = digits.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
                // Past ±10^6 no nonzero integer fits; the clamp keeps the arithmetic finite.
                let spelled = String(decoding: digits[(e + 1)...], as: UTF8.self)
                exponent = Int(spelled).map { min(max($0, -1_000_000), 1_000_000) } ?? (spelled.hasPrefix("-") ? -1_000_000 : 1_000_000)
                digits.removeSubrange(e...)
            }
            if let point = digits.firstIndex(of: UInt8(ascii: ".")) {
                exponent -= digits.count - point - 1
                digits.remove(at: point)
            }
        }
        while digits.count > 1, digits.first == UInt8(ascii: "0") {
            digits.removeFirst()
        }
        while digits.count > 1, digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits == [UInt8(ascii: "0")] { return 0 }
        guard exponent >= 0, exponent <= 18 else { return nil }
        digits += repeatElement(UInt8(ascii: "0"), count: exponent)
        // Read into a negative accumulator, which holds Int64.min too.
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, underflow) = shifted.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !underflow else { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    var double: Double {
        Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }
}

private enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
}
