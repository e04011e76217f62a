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
}
