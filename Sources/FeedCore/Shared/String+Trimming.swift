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
