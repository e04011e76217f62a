extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without leading and trailing ASCII whitespace.
    ///
    /// Foundation's `trimmingCharacters(in:)` goes through `NSString` and UTF-16 on Linux and was
    /// most of the parse time for large feeds; this scans UTF-8 and copies nothing when there is nothing to trim.
    var trimmingWhitespace: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !$0.isASCIIWhitespace }) else { return "" }
        let last = bytes.lastIndex(where: { !$0.isASCIIWhitespace }) ?? first
        if first == bytes.startIndex, bytes.index(after: last) == bytes.endIndex, let string = self as? String {
            return string
        }
        return String(self[first...last])
    }

    /// Whether the text has anything but ASCII whitespace.
    var hasVisibleContent: Bool {
        utf8.contains { !$0.isASCIIWhitespace }
    }
}

extension String {
    /// Whether the text is `lowercase` but for the case of ASCII letters: `lowercased() == lowercase`
    /// without making a string, for a `lowercase` of ASCII without a `k` (the one ASCII letter a
    /// non-ASCII character, the Kelvin sign, lowercases to).
    func matchesLowercase(_ lowercase: StaticString) -> Bool {
        guard utf8.count == lowercase.utf8CodeUnitCount else { return false }
        // A native string's bytes are contiguous; only a bridged one takes the slower way.
        return utf8.withContiguousStorageIfAvailable { $0.matchesLowercase(lowercase) }
            ?? Array(utf8).withUnsafeBufferPointer { $0.matchesLowercase(lowercase) }
    }
}
