/// Extracts a display name from the author strings feeds use.
enum PersonName {
    /// Turns RSS's `jane@example.com (Jane Doe)` into "Jane Doe" and `Jane Doe <jane@example.com>`
    /// into "Jane Doe"; anything else, including a bare address, is returned unchanged.
    static func fromRSSAddress(_ text: String) -> String {
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            let name = text[text.index(after: open)..<close].trimmingWhitespace
            if !name.isEmpty { return name }
        }
        if let open = text.firstIndex(of: "<"), text.hasSuffix(">") {
            let name = text[..<open].trimmingWhitespace
            if !name.isEmpty { return name }
        }
        return text
    }
}
