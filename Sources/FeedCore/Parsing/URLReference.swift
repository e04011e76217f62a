import Foundation

/// Returns the text unless it is empty or only whitespace.
func nonEmpty(_ text: String?) -> String? {
    guard let text, text.hasVisibleContent else { return nil }
    return text
}

/// Resolves a possibly relative reference against a base, returning nil for empty references.
func resolveURL(_ reference: String?, against base: URL?) -> URL? {
    // Trimming leaves nothing exactly when there is nothing but whitespace: one scan, not two.
    guard let trimmed = reference?.trimmingWhitespace, !trimmed.isEmpty else { return nil }
    // Most references are absolute already, and resolving costs more than parsing.
    guard let base, !hasScheme(trimmed) else { return URL(string: trimmed) }
    return URL(string: trimmed, relativeTo: base)?.absoluteURL
}

/// The text of the absolute URL `resolveURL` makes of a reference (its `absoluteString`), with
/// no `URL` made for the plain web address most feeds' links are: `URL(string:)` gives those
/// back as they are, and it cost some 3,800 instructions a link.
func resolveAddress(_ reference: String?, against base: URL?) -> String? {
    guard var trimmed = reference?.trimmingWhitespace, !trimmed.isEmpty else { return nil }
    if trimmed.withUTF8(isPlainWebAddress) { return trimmed }
    return resolveURL(trimmed, against: base)?.absoluteString
}

/// Whether `URL(string:)` takes the text as an absolute http or https URL and gives it back
/// unchanged: the scheme in lower case, a host of letters, digits, dots and hyphens (no user,
/// no port), then only characters RFC 3986 allows unescaped in a path, query and fragment,
/// every '%' starting an escape. Anything else goes the general way.
func isPlainWebAddress(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let schemeLength = bytes.starts(with: "https://".utf8) ? 8 : bytes.starts(with: "http://".utf8) ? 7 : 0
    guard schemeLength > 0 else { return false }
    var index = schemeLength
    while index < bytes.count {
        let byte = bytes[index]
        guard byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") else { break }
        index += 1
    }
    guard index > schemeLength else { return false }
    if index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
        return false
    }
    var inFragment = false
    while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "%"):
            guard index + 2 < bytes.count, bytes[index + 1].isASCIIHexDigit, bytes[index + 2].isASCIIHexDigit else { return false }
            index += 3
            continue
        case UInt8(ascii: "#"):
            guard !inFragment else { return false }
            inFragment = true
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            break
        default:
            return false
        }
        index += 1
    }
    return true
}

/// Whether a URL reference starts with a scheme such as `https:` (RFC 3986 section 3.1).
func hasScheme(_ reference: String) -> Bool {
    for (offset, byte) in reference.utf8.enumerated() {
        if byte == UInt8(ascii: ":") { return offset > 0 }
        let allowed = byte.isASCIILetter || (offset > 0 && (byte.isASCIIDigit || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
        if !allowed { return false }
    }
    return false
}
