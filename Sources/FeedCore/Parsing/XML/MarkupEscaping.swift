/// Rebuilds markup for inline XHTML content, which libxml2's SAX2 parser hands over as separate events.
enum MarkupEscaping {
    /// Escapes text for use inside HTML elements or double-quoted attribute values.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscaping) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        var text = text
        text.withUTF8 { appendEscaped($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends UTF-8 text to `output`, escaped as `escaped(_:)` does.
    static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            default: output.append(byte)
            }
        }
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
    }

    /// A start tag with its attributes in document order; void elements close themselves.
    static func startTag(_ name: String, attributes: XMLAttributes) -> String {
        var tag = "<" + name
        for (key, value) in attributes.pairs where !key.hasPrefix("xmlns") {
            tag += " \(key)=\"\(escaped(value))\""
        }
        return tag + (isVoidElement(name) ? "/>" : ">")
    }

    /// HTML elements that never have content or an end tag.
    static func isVoidElement(_ name: String) -> Bool {
        voidElements.contains(name)
    }

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
}
