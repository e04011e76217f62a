import Foundation

/// Reads a well-formed feed document itself, handing `XMLFeedState` the events libxml2's SAX2
/// parser would hand it, at a fraction of libxml2's cost a byte.
///
/// It reads only what it can read exactly as libxml2 does: ASCII names, namespaces declared before
/// use, the five predefined entities and character references, comments, processing instructions
/// and CDATA sections. At anything else, every fault included, it gives up with nothing kept and
/// `XMLFeedReader` reads the document with libxml2 from its start, so a malformed document's
/// errors, their positions and what is kept before them stay libxml2's.
struct XMLScanner {
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var index = 0
    /// The state behind a pointer `read` owns: held inline, the state (a few hundred bytes) was
    /// copied at every start tag.
    private let state: UnsafeMutablePointer<XMLFeedState>
    /// The open elements, innermost last.
    private var open: [OpenElement] = []
    /// Namespace declarations in scope, innermost last; each open element knows how many it added.
    private var bindings: [Binding] = []
    private let names = NameTable()
    /// The current start tag's attributes but namespace declarations, to find a repeated name.
    private var attributeNames: [NameTable.Entry] = []
    /// The current start tag's attributes, one list for the document so its storage is allocated once.
    private var attributes = XMLAttributes()

    private struct OpenElement {
        var name: NameTable.Entry
        var qualifiedStart: Int
        var bindingCount: Int
    }

    private struct Binding {
        /// The prefix's bytes; empty for the default namespace.
        var prefix: [UInt8]
        var namespace: XMLNamespace
    }

    /// Why reading stopped before the end: the document needs libxml2.
    private struct GiveUp: Error {}

    private init(_ bytes: UnsafeBufferPointer<UInt8>, state: UnsafeMutablePointer<XMLFeedState>) {
        self.bytes = bytes.baseAddress!
        count = bytes.count
        self.state = state
    }

    /// The state after reading `document` (UTF-8, as `XMLInput` leaves it), or nil when the
    /// document holds anything this scanner does not read exactly as libxml2 does.
    static func read(_ document: UnsafeBufferPointer<UInt8>, documentURL: URL?) -> XMLFeedState? {
        guard document.count > 0 else { return nil }
        let state = UnsafeMutablePointer<XMLFeedState>.allocate(capacity: 1)
        state.initialize(to: XMLFeedState(documentURL: documentURL))
        defer {
            state.deinitialize(count: 1)
            state.deallocate()
        }
        var scanner = XMLScanner(document, state: state)
        do {
            try scanner.readDocument()
        } catch {
            return nil
        }
        return state.pointee
    }

    // MARK: - Document

    private mutating func readDocument() throws(GiveUp) {
        if matches("<?xml"), index + 5 < count, isWhitespace(bytes[index + 5]) {
            try declaration()
        }
        try miscellany()
        guard index < count, bytes[index] == UInt8(ascii: "<") else { throw GiveUp() }
        try startTag()
        while !open.isEmpty, !state.pointee.isStopped {
            try content()
        }
        if state.pointee.isStopped { return }
        try miscellany()
        guard index == count else { throw GiveUp() }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, each part as libxml2 accepts it quietly.
    private mutating func declaration() throws(GiveUp) {
        index += 5
        try pseudoAttribute("version") { $0.elementsEqual("1.0".utf8) }
        if hasWhitespaceThen("encoding") {
            try pseudoAttribute("encoding") { value in
                value.count == 5 && value.enumerated().allSatisfy { $1 | ($0 < 3 ? 0x20 : 0) == Array("utf-8".utf8)[$0] }
            }
        }
        if hasWhitespaceThen("standalone") {
            try pseudoAttribute("standalone") { $0.elementsEqual("yes".utf8) || $0.elementsEqual("no".utf8) }
        }
        skipWhitespace()
        guard matches("?>") else { throw GiveUp() }
        index += 2
    }

    private func hasWhitespaceThen(_ name: StaticString) -> Bool {
        var at = index
        while at < count, isWhitespace(bytes[at]) { at += 1 }
        return at > index && buffer.matches(name, at: at)
    }

    private mutating func pseudoAttribute(_ name: StaticString, valid: (UnsafeBufferPointer<UInt8>) -> Bool) throws(GiveUp) {
        guard hasWhitespaceThen(name) else { throw GiveUp() }
        skipWhitespace()
        index += name.utf8CodeUnitCount
        skipWhitespace()
        guard index < count, bytes[index] == UInt8(ascii: "=") else { throw GiveUp() }
        index += 1
        skipWhitespace()
        guard index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { throw GiveUp() }
        let quote = bytes[index]
        let start = index + 1
        var end = start
        while end < count, bytes[end] != quote { end += 1 }
        guard end < count, valid(UnsafeBufferPointer(start: bytes + start, count: end - start)) else { throw GiveUp() }
        index = end + 1
    }

    /// Whitespace, comments and processing instructions, before or after the root element.
    private mutating func miscellany() throws(GiveUp) {
        while true {
            skipWhitespace()
            if matches("<!--") {
                try comment()
            } else if matches("<?") {
                try processingInstruction()
            } else {
                return
            }
        }
    }

    // MARK: - Content

    /// Text up to the next markup, then that markup.
    private mutating func content() throws(GiveUp) {
        try text()
        guard index + 1 < count else { throw GiveUp() }
        switch bytes[index + 1] {
        case UInt8(ascii: "/"): try endTag()
        case UInt8(ascii: "!"):
            if matches("<!--") {
                try comment()
            } else if matches("<![CDATA[") {
                try cdata()
            } else {
                throw GiveUp()
            }
        case UInt8(ascii: "?"): try processingInstruction()
        default: try startTag()
        }
    }

    /// Character data up to the next '<', references decoded and line ends made '\n', handed to
    /// the state only while it captures a field.
    private mutating func text() throws(GiveUp) {
        let stops = Self.textStops
        var start = index
        while true {
            // A local index keeps the scan in a register; the stored one is written once a run.
            var at = index
            // Eight bytes at a time while none of them may stop the run, then byte by byte.
            while at + 8 <= count, !Self.mayStopText(UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self)) { at += 8 }
            while at < count, stops[Int(bytes[at])] == 0 { at += 1 }
            index = at
            guard index < count else { throw GiveUp() }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                emit(from: start, to: index)
                return
            case UInt8(ascii: "&"):
                emit(from: start, to: index)
                emit(try reference())
                start = index
            case 0x0D:
                emit(from: start, to: index)
                index += 1
                if index < count, bytes[index] == 0x0A {
                    start = index
                } else {
                    emit("\n")
                    start = index
                }
            case UInt8(ascii: "]"):
                if matches("]]>") { throw GiveUp() }
                index += 1
            default:
                try checkCharacter()
            }
        }
    }

    /// Whether any of eight bytes may end a run of character data: '<', '&', ']', a control
    /// character or any byte past ASCII (U+FFFE and U+FFFF among them). It may say yes where the
    /// stop table says no (a tab, a line feed, other non-ASCII), never the other way round.
    private static func mayStopText(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        /// A byte of `value` is zero: the classic test, exact as to whether any byte is.
        func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        return word & highs != 0                                    // non-ASCII
            || (word &- ones &* 0x20) & ~word & highs != 0          // a byte below 0x20
            || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "<"))))
            || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "&"))))
            || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "]"))))
    }

    /// A byte the stop tables single out that is neither markup nor a reference: a control
    /// character, which XML forbids, or the lead byte of U+FFFE or U+FFFF, which it forbids too.
    private mutating func checkCharacter() throws(GiveUp) {
        let byte = bytes[index]
        guard byte == 0xEF else { throw GiveUp() }
        if index + 2 < count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE { throw GiveUp() }
        index += 1
    }

    private mutating func emit(from start: Int, to end: Int) {
        guard end > start, state.pointee.capture != nil else { return }
        state.pointee.appendText(UnsafeBufferPointer(start: bytes + start, count: end - start))
    }

    private mutating func emit(_ character: Unicode.Scalar) {
        guard state.pointee.capture != nil else { return }
        if character.isASCII {
            state.pointee.appendText(ascii: UInt8(truncatingIfNeeded: character.value))
            return
        }
        var encoded: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var length = 0
        withUnsafeMutableBytes(of: &encoded) { buffer in
            for byte in UTF8.encode(character)! {
                buffer[length] = byte
                length += 1
            }
        }
        withUnsafeBytes(of: &encoded) { state.pointee.appendText(UnsafeBufferPointer(start: $0.bindMemory(to: UInt8.self).baseAddress, count: length)) }
    }

    /// `<![CDATA[...]]>`, its text as it stands but for line ends.
    private mutating func cdata() throws(GiveUp) {
        index += 9
        var start = index
        while true {
            guard index < count else { throw GiveUp() }
            switch bytes[index] {
            case UInt8(ascii: "]") where matches("]]>"):
                emit(from: start, to: index)
                index += 3
                return
            case 0x0D:
                emit(from: start, to: index)
                index += 1
                if index >= count || bytes[index] != 0x0A { emit("\n") }
                start = index
            case let byte where byte < 0x20 && byte != 0x09 && byte != 0x0A:
                throw GiveUp()
            case 0xEF:
                try checkCharacter()
            default:
                index += 1
            }
        }
    }

    /// `<!--...-->`, with no `--` inside, as XML requires.
    private mutating func comment() throws(GiveUp) {
        index += 4
        while true {
            guard index + 1 < count else { throw GiveUp() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-") {
                guard index + 2 < count, bytes[index + 2] == UInt8(ascii: ">") else { throw GiveUp() }
                index += 3
                return
            }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { throw GiveUp() }
            if byte == 0xEF { try checkCharacter() } else { index += 1 }
        }
    }

    /// `<?target data?>`, which a feed reader skips; a target of `xml` is a misplaced declaration.
    private mutating func processingInstruction() throws(GiveUp) {
        index += 2
        let targetStart = index
        guard let end = nameEnd(from: index), !buffer[targetStart..<end].contains(UInt8(ascii: ":")) else { throw GiveUp() }
        if end - targetStart == 3, buffer[targetStart..<end].map({ $0 | 0x20 }).elementsEqual("xml".utf8) { throw GiveUp() }
        index = end
        if matches("?>") {
            index += 2
            return
        }
        guard index < count, isWhitespace(bytes[index]) else { throw GiveUp() }
        while true {
            guard index + 1 < count else { throw GiveUp() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ">") {
                index += 2
                return
            }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { throw GiveUp() }
            if byte == 0xEF { try checkCharacter() } else { index += 1 }
        }
    }

    // MARK: - Tags

    private mutating func startTag() throws(GiveUp) {
        index += 1
        let qualifiedStart = index
        guard let nameEnd = nameEnd(from: index) else { throw GiveUp() }
        let element = names.entry(for: bytes + index, length: nameEnd - index, readable: count - index)
        index = nameEnd
        attributes.removeAll()
        let bindingCount = bindings.count
        while !attributeNames.isEmpty { attributeNames.removeLast() }
        while true {
            let hadWhitespace = skipWhitespace()
            guard index < count else { throw GiveUp() }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            guard hadWhitespace, let attributeEnd = self.nameEnd(from: index) else { throw GiveUp() }
            let name = names.entry(for: bytes + index, length: attributeEnd - index, readable: count - index)
            index = attributeEnd
            skipWhitespace()
            guard index < count, bytes[index] == UInt8(ascii: "=") else { throw GiveUp() }
            index += 1
            skipWhitespace()
            try attributeValue()
            if name.isNamespaceDeclaration {
                try declare(name, uri: attributes.takeValue(), since: bindingCount)
            } else {
                // Two attributes of one local name may be one expanded name, which libxml2 refuses.
                if attributeNames.contains(where: { $0.local.local == name.local.local }) { throw GiveUp() }
                attributeNames.append(name)
                attributes.endValue(name: name.qualified)
            }
        }
        let isEmpty = bytes[index] == UInt8(ascii: "/")
        if isEmpty {
            guard index + 1 < count, bytes[index + 1] == UInt8(ascii: ">") else { throw GiveUp() }
            index += 2
        } else {
            index += 1
        }
        for name in attributeNames where !name.prefix.isEmpty {
            guard name.hasXMLPrefix || namespace(of: name) != nil else { throw GiveUp() }
        }
        guard !element.hasXMLPrefix, let namespace = namespace(of: element),
              open.count < Self.maximumDepth
        else { throw GiveUp() }
        open.append(OpenElement(name: element, qualifiedStart: qualifiedStart, bindingCount: bindingCount))
        state.pointee.startElement(element.local, namespace: namespace, qualifiedName: element.qualified, attributes: attributes)
        if isEmpty, !state.pointee.isStopped {
            try endElement()
        }
    }

    private static let xmlPrefix = Array("xml".utf8)

    /// libxml2's own limit on nesting without `XML_PARSE_HUGE`, well past any feed's: deeper is left to it.
    private static let maximumDepth = 256

    private mutating func endTag() throws(GiveUp) {
        guard let current = open.last else { throw GiveUp() }
        let length = current.name.length
        index += 2
        guard index + length <= count, memcmp(bytes + index, bytes + current.qualifiedStart, length) == 0 else { throw GiveUp() }
        index += length
        skipWhitespace()
        guard index < count, bytes[index] == UInt8(ascii: ">") else { throw GiveUp() }
        index += 1
        try endElement()
    }

    private mutating func endElement() throws(GiveUp) {
        guard let current = open.popLast() else { throw GiveUp() }
        bindings.removeLast(bindings.count - current.bindingCount)
        state.pointee.endElement(current.name.local.local)
    }

    /// Records `xmlns` or `xmlns:prefix`, refusing what XML Namespaces forbids.
    private mutating func declare(_ name: NameTable.Entry, uri: String, since first: Int) throws(GiveUp) {
        let prefix = name.prefix.isEmpty ? [] : Array(name.local.local.utf8)
        guard uri != "http://www.w3.org/XML/1998/namespace", uri != "http://www.w3.org/2000/xmlns/",
              prefix.isEmpty || (!uri.isEmpty && prefix != Self.xmlPrefix && !prefix.elementsEqual("xmlns".utf8)),
              !bindings[first...].contains(where: { $0.prefix == prefix })
        else { throw GiveUp() }
        bindings.append(Binding(prefix: prefix, namespace: XMLNamespace(uri: uri)))
    }

    /// The namespace a name's prefix (or the default) is bound to; nil for an undeclared prefix.
    private func namespace(of name: NameTable.Entry) -> XMLNamespace? {
        let prefix = name.prefix
        var index = bindings.count
        while index > 0 {
            index -= 1
            if bindings[index].prefix == prefix { return bindings[index].namespace }
        }
        return prefix.isEmpty ? Self.noNamespace : nil
    }

    private static let noNamespace = XMLNamespace(uri: "")

    /// A quoted attribute value, as libxml2 reports it once `XMLFeedReader` has turned its
    /// `&#38;` back into '&' (references decoded, each whitespace character a space), added to
    /// `attributes` as the value being read.
    private mutating func attributeValue() throws(GiveUp) {
        guard index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { throw GiveUp() }
        let quote = bytes[index]
        index += 1
        let stops = Self.attributeStops
        var start = index
        while true {
            while index < count, stops[Int(bytes[index])] == 0 { index += 1 }
            guard index < count else { throw GiveUp() }
            let byte = bytes[index]
            if byte == quote {
                attributes.appendToValue(UnsafeBufferPointer(start: bytes + start, count: index - start))
                index += 1
                return
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
            case 0x09, 0x0A:
                attributes.appendToValue(UnsafeBufferPointer(start: bytes + start, count: index - start))
                attributes.appendToValue(0x20)
                index += 1
                start = index
            case UInt8(ascii: "&"):
                attributes.appendToValue(UnsafeBufferPointer(start: bytes + start, count: index - start))
                for byte in UTF8.encode(try reference())! { attributes.appendToValue(byte) }
                start = index
            case 0xEF:
                try checkCharacter()
            default:
                // '<', a control character, or a carriage return, whose pairing with a line feed is left to libxml2.
                throw GiveUp()
            }
        }
    }

    // MARK: - References

    /// The character the reference at `index` stands for.
    private mutating func reference() throws(GiveUp) -> Unicode.Scalar {
        index += 1
        guard index < count else { throw GiveUp() }
        if bytes[index] == UInt8(ascii: "#") {
            return try characterReference()
        }
        let start = index
        while index < count, index - start <= 4, bytes[index] != UInt8(ascii: ";") { index += 1 }
        guard index < count, bytes[index] == UInt8(ascii: ";") else { throw GiveUp() }
        let name = UnsafeBufferPointer(start: bytes + start, count: index - start)
        index += 1
        switch name.count {
        case 2 where name[0] == UInt8(ascii: "l") && name[1] == UInt8(ascii: "t"): return "<"
        case 2 where name[0] == UInt8(ascii: "g") && name[1] == UInt8(ascii: "t"): return ">"
        case 3 where name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p"): return "&"
        case 4 where name.elementsEqual("quot".utf8): return "\""
        case 4 where name.elementsEqual("apos".utf8): return "'"
        default: throw GiveUp()
        }
    }

    /// `&#digits;` or `&#xhex;` naming a character XML allows.
    private mutating func characterReference() throws(GiveUp) -> Unicode.Scalar {
        // XMLRepair takes a reference of 40 bytes or more for a bare '&': such are left to it.
        let ampersand = index - 1
        index += 1
        var radix: UInt32 = 10
        if index < count, bytes[index] == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        var digits = 0
        while index < count, bytes[index] != UInt8(ascii: ";") {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: throw GiveUp()
            }
            value = value * radix + digit
            digits += 1
            guard value <= 0x10FFFF else { throw GiveUp() }
            index += 1
        }
        guard index < count, index - ampersand < 40, digits > 0, Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
            throw GiveUp()
        }
        index += 1
        return scalar
    }

    /// XML 1.0's `Char`.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    // MARK: - Bytes

    private var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    private func matches(_ literal: StaticString) -> Bool {
        buffer.matches(literal, at: index)
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < count, isWhitespace(bytes[index]) { index += 1 }
        return index > start
    }

    /// The end of the ASCII name (with at most one prefix) at `start`, or nil when there is none.
    private func nameEnd(from start: Int) -> Int? {
        var end = start
        var colon: Int?
        while end < count {
            let byte = bytes[end]
            if byte.isASCIILetter || byte == UInt8(ascii: "_") {
                end += 1
            } else if end > start, byte.isASCIIDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
                // A local name starts with a letter or '_' too.
                if colon == end - 1 { return nil }
                end += 1
            } else if byte == UInt8(ascii: ":") {
                guard colon == nil, end > start else { return nil }
                colon = end
                end += 1
            } else {
                break
            }
        }
        // Names are ASCII here: a byte past them that may start a longer name is left to libxml2.
        guard end > start, colon != end - 1, end < count, bytes[end] < 0x80 else { return nil }
        return end
    }

    /// Bytes that end a run of character data: markup, references, line ends to normalize,
    /// a possible `]]>`, and the control characters and U+FFFE/U+FFFF that XML forbids. Filled
    /// once and only read after, so it is safe to share; a pointer spares the scan a bounds check a byte.
    nonisolated(unsafe) private static let textStops: UnsafePointer<UInt8> = stopTable(UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "]"))

    /// The same for attribute values, with either quote and the whitespace that becomes a space.
    nonisolated(unsafe) private static let attributeStops: UnsafePointer<UInt8> = stopTable(UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "\""),
                                                                         UInt8(ascii: "'"), 0x09, 0x0A)

    private static func stopTable(_ stops: UInt8...) -> UnsafePointer<UInt8> {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0..<256 {
            let isControl = byte < 0x20 && byte != 0x09 && byte != 0x0A
            table[byte] = isControl || byte == 0xEF || stops.contains(UInt8(byte)) ? 1 : 0
        }
        return UnsafePointer(table)
    }
}

/// Element and attribute names met in a document, each made and classified once by its bytes.
///
/// A name is found by its length and its first eight bytes read as one word, which tell apart
/// the names of eight bytes or fewer, most of a feed's, with no comparison byte by byte.
private final class NameTable {
    /// A class, so that the open elements and the attribute list hold a name with one retain,
    /// not one for each of its strings and arrays.
    final class Entry {
        /// The qualified name, as written.
        let qualified: String
        /// The local name, classified.
        let local: XMLName
        /// The bytes before the colon; empty without one.
        let prefix: [UInt8]
        /// `xmlns` or `xmlns:prefix`.
        let isNamespaceDeclaration: Bool
        /// The reserved prefix `xml`, bound without a declaration.
        let hasXMLPrefix: Bool
        /// The qualified name's length in bytes.
        let length: Int

        init(_ name: UnsafeBufferPointer<UInt8>) {
            length = name.count
            qualified = String(decoding: name, as: UTF8.self)
            let colon = name.firstIndex(of: UInt8(ascii: ":"))
            local = XMLName(colon.map { String(decoding: name[($0 + 1)...], as: UTF8.self) } ?? qualified)
            prefix = colon.map { Array(name[..<$0]) } ?? []
            isNamespaceDeclaration = colon == nil ? qualified == "xmlns" : prefix.elementsEqual("xmlns".utf8)
            hasXMLPrefix = prefix.elementsEqual("xml".utf8)
        }
    }

    private static let sizeBits = 9
    private static let size = 1 << sizeBits
    /// Each slot's entry, its name's leading word and its name's bytes, for the longer names'
    /// comparison: a table of pointers, so a lookup pays no bounds check or uniqueness test.
    private let entries = UnsafeMutablePointer<Entry?>.allocate(capacity: size)
    private let words = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
    private let names = UnsafeMutablePointer<[UInt8]>.allocate(capacity: size)

    init() {
        entries.initialize(repeating: nil, count: Self.size)
        words.initialize(repeating: 0, count: Self.size)
        names.initialize(repeating: [], count: Self.size)
    }

    deinit {
        entries.deinitialize(count: Self.size)
        entries.deallocate()
        words.deallocate()
        names.deinitialize(count: Self.size)
        names.deallocate()
    }

    /// The entry for the `length` bytes at `name`, made the first time or when another name has
    /// taken its slot. `readable` bytes may be read from `name`, at least `length` + 1.
    func entry(for name: UnsafePointer<UInt8>, length: Int, readable: Int) -> Entry {
        let word = Self.leadingWord(name, length: length, readable: readable)
        var hash = word ^ UInt64(truncatingIfNeeded: length)
        if length > 8 {
            // The last eight bytes too, which tell apart long names of one prefix (`content:encoded`, `content:type`).
            hash = hash &* 0x9E37_79B9_7F4A_7C15 ^ UnsafeRawPointer(name + length - 8).loadUnaligned(as: UInt64.self)
        }
        // Two slots a name, side by side: two of a document's few dozen names often share one slot.
        let first = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.sizeBits)) & ~1
        for slot in first...first + 1 {
            if let entry = entries[slot], entry.length == length, words[slot] == word,
               length <= 8 || names[slot].withUnsafeBufferPointer({ memcmp($0.baseAddress!, name, length) == 0 }) {
                return entry
            }
        }
        // An empty slot of the two, else the first, its name moved to the second in place of that one's.
        var slot = first
        if entries[first] != nil {
            if entries[first + 1] == nil {
                slot = first + 1
            } else {
                entries[first + 1] = entries[first]
                words[first + 1] = words[first]
                names[first + 1] = names[first]
            }
        }
        let buffer = UnsafeBufferPointer(start: name, count: length)
        let entry = Entry(buffer)
        entries[slot] = entry
        words[slot] = word
        names[slot] = length > 8 ? Array(buffer) : []
        return entry
    }

    /// The first eight bytes of a name (all of a shorter one's, the rest zero), as one word.
    private static func leadingWord(_ name: UnsafePointer<UInt8>, length: Int, readable: Int) -> UInt64 {
        if readable >= 8 {
            let word = UnsafeRawPointer(name).loadUnaligned(as: UInt64.self)
            return length >= 8 ? word : word & ((1 << UInt64(length * 8)) - 1)
        }
        var word: UInt64 = 0
        for offset in 0..<min(length, 8) {
            word |= UInt64(name[offset]) << UInt64(offset * 8)
        }
        return word
    }
}
