/// Rebuilds markup for inline XHTML content, which libxml2's SAX2 parser hands over as separate events.
enum MarkupEscaping {
    /// Escapes text for use inside HTML elements or double-quoted attribute values.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A start tag with its attributes in a stable order; void elements close themselves.
    static func startTag(_ name: String, attributes: [String: String]) -> String {
        var tag = "<" + name
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("xmlns") {
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
