/// Literal matching for the parsers that scan UTF-8 bytes directly.
extension UnsafeBufferPointer<UInt8> {
    /// Whether `literal` stands at `index`.
    func matches(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= count else { return false }
        for offset in 0..<length where self[index + offset] != literal.utf8Start[offset] {
            return false
        }
        return true
    }

    /// The index of the first `literal` at or after `start`.
    func find(_ literal: StaticString, from start: Int) -> Int? {
        var index = start
        while index + literal.utf8CodeUnitCount <= count {
            if matches(literal, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// Whether the bytes are `lowercase` but for the case of ASCII letters, as `String.matchesLowercase` says.
    func matchesLowercase(_ lowercase: StaticString) -> Bool {
        guard count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<count {
            let byte = self[index], wanted = expected[index]
            guard byte == wanted || (byte.isASCIILetter && byte | 0x20 == wanted) else { return false }
        }
        return true
    }

    /// The bytes without ASCII whitespace at either end.
    var trimmingASCIIWhitespace: UnsafeBufferPointer<UInt8> {
        guard let first = firstIndex(where: { !$0.isASCIIWhitespace }), let last = lastIndex(where: { !$0.isASCIIWhitespace }) else {
            return UnsafeBufferPointer(start: baseAddress, count: 0)
        }
        return UnsafeBufferPointer(rebasing: self[first...last])
    }
}
