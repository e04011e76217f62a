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

/// Whether a URL reference starts with a scheme such as `https:` (RFC 3986 section 3.1).
private func hasScheme(_ reference: String) -> Bool {
    for (offset, byte) in reference.utf8.enumerated() {
        if byte == UInt8(ascii: ":") { return offset > 0 }
        let allowed = byte.isASCIILetter || (offset > 0 && (byte.isASCIIDigit || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
        if !allowed { return false }
    }
    return false
}
