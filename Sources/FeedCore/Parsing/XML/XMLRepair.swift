import Foundation

/// Mends, in one linear pass over UTF-8 bytes, the faults real feeds have that make an XML
/// parser give up, the way established readers read them anyway, and takes the DTD out.
///
/// Without a DOCTYPE libxml2 has no entity declarations at all, so nothing can expand however the
/// prolog is disguised; references to HTML's entities become character references, and any other
/// name XML does not define stays as written, as text.
enum XMLRepair {
    /// What was mended, reported as the feed's warnings.
    enum Fix: CaseIterable, Sendable {
        case leadingWhitespace, bareAmpersand, htmlEntity, undefinedEntity, doubleHyphenInComment, unclosedCDATA,
             doctypeRemoved, entityDeclarationsIgnored

        /// The warning the fix is reported as.
        var reason: ErrorReason {
            switch self {
            case .leadingWhitespace: ErrorReason(.textBeforeDeclaration)
            case .bareAmpersand: ErrorReason(.bareAmpersand)
            case .htmlEntity: ErrorReason(.htmlEntities)
            case .undefinedEntity: ErrorReason(.undefinedEntity)
            case .doubleHyphenInComment: ErrorReason(.doubleHyphenInComment)
            case .unclosedCDATA: ErrorReason(.unclosedCDATA)
            case .doctypeRemoved: ErrorReason(.doctypeIgnored)
            case .entityDeclarationsIgnored: ErrorReason(.entityDeclarationsIgnored)
            }
        }
    }

    /// The repaired document and the fixes made, in the order first made.
    static func repair(_ data: Data) -> (document: Data, fixes: [Fix]) {
        data.withUnsafeBytes { raw in
            var pass = Pass(bytes: raw.bindMemory(to: UInt8.self))
            pass.run()
            return (pass.output.map { Data($0) } ?? data, pass.fixes)
        }
    }

    private struct Pass {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The repaired bytes, made only once something needs changing.
        var output: [UInt8]?
        var fixes: [Fix] = []
        /// Bytes before this index that still need copying to `output`.
        private var copied = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func run() {
            var index = skipLeadingWhitespace()
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "<"): index = markup(at: index)
                case UInt8(ascii: "&"): index = reference(at: index)
                default: index = nextMarkupOrReference(from: index + 1)
                }
            }
            flush(upTo: bytes.count)
        }

        /// The next '<' or '&' from `start`, or the end: memchr finds each far faster than a
        /// byte loop, and text runs between tags are long.
        private func nextMarkupOrReference(from start: Int) -> Int {
            guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
            let count = bytes.count - start
            let less = memchr(base + start, Int32(UInt8(ascii: "<")), count)
            let limit = less.map { UnsafeRawPointer($0) - UnsafeRawPointer(base + start) } ?? count
            let ampersand = memchr(base + start, Int32(UInt8(ascii: "&")), limit)
            let found = ampersand.map { UnsafeRawPointer($0) - UnsafeRawPointer(base + start) } ?? limit
            return start + found
        }

        // MARK: - Faults

        /// A declaration or any text before the first '<': libxml2 refuses `<?xml` anywhere but first.
        private mutating func skipLeadingWhitespace() -> Int {
            var index = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: "<"), bytes[index].isXMLWhitespace || bytes[index] == 0 {
                index += 1
            }
            guard index > 0, index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return 0 }
            replace(0..<index, with: [])
            note(.leadingWhitespace)
            return index
        }

        private mutating func markup(at start: Int) -> Int {
            // Nearly every '<' opens or closes an element, which needs nothing.
            guard start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "!") || bytes[start + 1] == UInt8(ascii: "?") else {
                return start + 1
            }
            if bytes.matches("<!--", at: start) { return comment(at: start) }
            if bytes.matches("<![CDATA[", at: start) { return cdata(at: start) }
            if bytes.matches("<!DOCTYPE", at: start) { return doctype(at: start) }
            if bytes.matches("<?", at: start) { return bytes.find("?>", from: start + 2).map { $0 + 2 } ?? bytes.count }
            return start + 1
        }

        /// `--` inside a comment is not XML; the second hyphen becomes a space.
        private mutating func comment(at start: Int) -> Int {
            let end = bytes.find("-->", from: start + 4) ?? bytes.count
            var index = start + 4
            while index + 1 < end {
                if bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-") {
                    replace((index + 1)..<(index + 2), with: [UInt8(ascii: " ")])
                    note(.doubleHyphenInComment)
                    index += 2
                } else {
                    index += 1
                }
            }
            return min(end + 3, bytes.count)
        }

        /// A CDATA section with no end is closed before the next end tag.
        private mutating func cdata(at start: Int) -> Int {
            let contentStart = start + 9
            if let end = bytes.find("]]>", from: contentStart) { return end + 3 }
            let close = bytes.find("</", from: contentStart) ?? bytes.count
            replace(close..<close, with: Array("]]>".utf8))
            note(.unclosedCDATA)
            return close
        }

        /// The whole DOCTYPE, internal subset and all, becomes blank (newlines kept, so lines
        /// and columns still point at the same places).
        private mutating func doctype(at start: Int) -> Int {
            let end = doctypeEnd(from: start + 9)
            let hasEntities = bytes.find("<!ENTITY", from: start).map { $0 < end } ?? false
            replace(start..<end, with: bytes[start..<end].map { $0 == 0x0A ? 0x0A : 0x20 })
            note(hasEntities ? .entityDeclarationsIgnored : .doctypeRemoved)
            return end
        }

        /// Just past the DOCTYPE's closing '>': quotes, comments and processing instructions in
        /// its internal subset are skipped whole, so no ']' or quote inside them ends it early.
        private func doctypeEnd(from start: Int) -> Int {
            var index = start
            var inSubset = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x27 {
                    index = (UnsafeBufferPointer(rebasing: bytes[(index + 1)...]).firstIndex(of: byte)
                        .map { index + 1 + $0 + 1 }) ?? bytes.count
                } else if inSubset, bytes.matches("<!--", at: index) {
                    index = bytes.find("-->", from: index + 4).map { $0 + 3 } ?? bytes.count
                } else if inSubset, bytes.matches("<?", at: index) {
                    index = bytes.find("?>", from: index + 2).map { $0 + 2 } ?? bytes.count
                } else if byte == UInt8(ascii: "[") {
                    inSubset = true
                    index += 1
                } else if byte == UInt8(ascii: "]") {
                    inSubset = false
                    index += 1
                } else if !inSubset, byte == UInt8(ascii: ">") {
                    return index + 1
                } else {
                    index += 1
                }
            }
            return bytes.count
        }

        /// A '&' that starts no reference is text, and so is one naming an entity XML does not
        /// define, unless HTML does: `&eacute;` becomes `&#xE9;`, `&b=2` becomes `&amp;b=2`.
        private mutating func reference(at start: Int) -> Int {
            let length = referenceLength(at: start)
            guard length > 0 else {
                replace(start..<(start + 1), with: Array("&amp;".utf8))
                note(.bareAmpersand)
                return start + 1
            }
            let end = start + length
            guard bytes[start + 1] != UInt8(ascii: "#") else { return end }
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)])
            // Feeds are full of these: they are recognised without making a string.
            if Self.xmlEntities.contains(where: { $0.elementsEqual(nameBytes) }) { return end }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if let scalar = HTMLEntities.scalar(named: name) {
                replace(start..<end, with: Array("&#x\(String(scalar.value, radix: 16));".utf8))
                note(.htmlEntity)
            } else {
                replace(start..<(start + 1), with: Array("&amp;".utf8))
                note(.undefinedEntity)
            }
            return end
        }

        /// The five entities XML itself defines.
        private static let xmlEntities: [[UInt8]] = ["amp", "lt", "gt", "quot", "apos"].map { Array($0.utf8) }

        /// The length of the reference at `start` (`&name;`, `&#digits;`, `&#xhex;`), or 0.
        private func referenceLength(at start: Int) -> Int {
            var index = start + 1
            let limit = min(bytes.count, start + 40)
            if index < limit, bytes[index] == UInt8(ascii: "#") {
                index += 1
                let hex = index < limit && (bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X"))
                if hex { index += 1 }
                let digitsStart = index
                while index < limit, hex ? bytes[index].isHexDigit : bytes[index].isDigit { index += 1 }
                guard index > digitsStart, index < limit, bytes[index] == UInt8(ascii: ";") else { return 0 }
                return index + 1 - start
            }
            guard index < limit, bytes[index].isNameStart else { return 0 }
            while index < limit, bytes[index].isNameCharacter { index += 1 }
            guard index < limit, bytes[index] == UInt8(ascii: ";") else { return 0 }
            return index + 1 - start
        }

        // MARK: - Output

        private mutating func note(_ fix: Fix) {
            if !fixes.contains(fix) { fixes.append(fix) }
        }

        /// Replaces `range` of the input (never before an earlier replacement) with `replacement`.
        private mutating func replace(_ range: Range<Int>, with replacement: [UInt8]) {
            if output == nil {
                output = []
                output!.reserveCapacity(bytes.count + 64)
            }
            flush(upTo: range.lowerBound)
            output!.append(contentsOf: replacement)
            copied = range.upperBound
        }

        /// Copies the input up to `end` once anything was replaced; until then the input stands.
        private mutating func flush(upTo end: Int) {
            guard output != nil, end > copied else { return }
            output!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<end]))
            copied = end
        }
    }
}

private extension UInt8 {
    var isXMLWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
    var isDigit: Bool { (0x30...0x39).contains(self) }
    var isHexDigit: Bool { isDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
    /// ASCII name starts; any byte of a multi-byte UTF-8 character counts too.
    var isNameStart: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || self == 0x5F || self == 0x3A || self >= 0x80
    }
    var isNameCharacter: Bool { isNameStart || isDigit || self == 0x2D || self == 0x2E }
}
