/// Rebuilds markup for inline XHTML content, which libxml2's SAX2 parser hands over as separate events.
enum MarkupEscaping {
    /// Escapes text for use inside HTML elements or double-quoted attribute values.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscaping) else { return text }
        var output = ReusableBytes()
        var text = text
        text.withUTF8 { appendEscaped($0, to: &output) }
        return output.string
    }

    /// Appends UTF-8 text to `output`, escaped as `escaped(_:)` does.
    static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to output: inout ReusableBytes) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): output.append("&amp;")
            case UInt8(ascii: "<"): output.append("&lt;")
            case UInt8(ascii: ">"): output.append("&gt;")
            case UInt8(ascii: "\""): output.append("&quot;")
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
