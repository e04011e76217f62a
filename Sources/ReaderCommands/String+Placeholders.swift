/// The one way values go into translated sentences. A value put in place of `%@` (a path, a feed
/// title, a folder name) is wrapped in U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL
/// ISOLATE, so it keeps its own direction inside a sentence of the other: without them Pango shows
/// "/home/u/x.opml" as "home/u/x.opml/" in an Arabic sentence. Translators add no marks.
extension String {
    /// `value` isolated from the text around it.
    public static func isolated(_ value: String) -> String {
        "\u{2068}\(value)\u{2069}"
    }

    /// The sentence with every `%@` replaced by `value`, isolated.
    public func filling(_ value: String) -> String {
        replacingEvery("%@", with: Self.isolated(value))
    }

    /// The sentence with every `%@` replaced by `phrase`, a phrase of the same language (such as
    /// "4 feeds"), whose direction is the sentence's own, or text only spoken to a screen reader:
    /// it needs no isolation.
    public func filling(phrase: String) -> String {
        replacingEvery("%@", with: phrase)
    }

    /// The sentence with `%1$@` replaced by `first` and `%2$@` by `second`, each isolated: a
    /// translation may put them in either order.
    public func filling(_ first: String, _ second: String) -> String {
        replacingEvery("%1$@", with: Self.isolated(first)).replacingEvery("%2$@", with: Self.isolated(second))
    }

    /// The sentence with `%1$@` replaced by `first`, isolated, and `%2$@` by `phrase`, a phrase of
    /// the same language (such as the reason something failed).
    public func filling(_ first: String, phrase: String) -> String {
        replacingEvery("%1$@", with: Self.isolated(first)).replacingEvery("%2$@", with: phrase)
    }

    /// The sentence with every `%@` replaced by `lines`, each isolated on a line of its own after a line break.
    public func filling(lines: [String]) -> String {
        replacingEvery("%@", with: lines.map { "\n" + Self.isolated($0) }.joined())
    }

    /// The sentence with every `%d` replaced by `count`.
    public func filling(count: Int) -> String {
        replacingEvery("%d", with: String(count))
    }

    /// The sentence with `%d` replaced by `percent` and `%%` by the percent sign the translation
    /// places (such as "120 %" in French).
    public func filling(percent: Int) -> String {
        filling(count: percent).replacingEvery("%%", with: "%")
    }

    /// The sentence with its two `%d` replaced in order by `first` and `second`.
    public func filling(count first: Int, of second: Int) -> String {
        guard let range = range(of: "%d") else { return self }
        return replacingCharacters(in: range, with: String(first)).filling(count: second)
    }

    /// The text with every `placeholder` (ASCII) replaced by `value`, left to right. Foundation's
    /// `replacingOccurrences` goes through NSString at some microseconds a call, which the
    /// sidebar's 5,000 rows' screen-reader names made 70 ms of a start (docs/performance.md).
    private func replacingEvery(_ placeholder: StaticString, with value: String) -> String {
        let mark = UnsafeBufferPointer(start: placeholder.utf8Start, count: placeholder.utf8CodeUnitCount)
        var text = self
        return text.withUTF8 { bytes in
            var result: [UInt8] = []
            var index = 0, copied = 0
            while index + mark.count <= bytes.count {
                guard bytes[index] == mark[0], bytes[index..<index + mark.count].elementsEqual(mark) else {
                    index += 1
                    continue
                }
                if result.isEmpty { result.reserveCapacity(bytes.count + value.utf8.count) }
                result += bytes[copied..<index]
                result += value.utf8
                index += mark.count
                copied = index
            }
            guard copied > 0 else { return self }
            result += bytes[copied...]
            return String(decoding: result, as: UTF8.self)
        }
    }
}
