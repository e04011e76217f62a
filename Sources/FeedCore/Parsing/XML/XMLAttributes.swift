/// An element's attributes in document order, by qualified name. Elements carry a handful, so
/// a scan finds one sooner than hashing them all into a dictionary would.
///
/// Values are kept as bytes, one after another in a buffer the list keeps for the document, and
/// compared or made strings only when asked for: most (an Atom entry's `category term`, a
/// `title type`) are never read as text, and a string made of each cost more than the rest of its tag.
struct XMLAttributes {
    private var names: [String] = []
    /// The values' bytes, each starting where the one before it ends.
    private var valueBytes = ReusableBytes()
    /// Where each value ends in `valueBytes`.
    private var valueEnds: [Int] = []
    /// The first `xml:base`, noted as it is added: every element asks for it.
    private var xmlBaseIndex: Int?

    var isEmpty: Bool { names.isEmpty }

    /// The first `xml:base` attribute's value.
    var xmlBase: String? { xmlBaseIndex.map(string(at:)) }

    /// The attributes as (name, value) pairs, in document order.
    var pairs: [(name: String, value: String)] { names.indices.map { (names[$0], string(at: $0)) } }

    /// The value of the attribute named `name`, as a string.
    subscript(name: String) -> String? {
        index(of: name).map(string(at:))
    }

    func contains(_ name: String) -> Bool {
        index(of: name) != nil
    }

    /// Whether the attribute named `name` is there with exactly `literal` as its value.
    func value(of name: String, is literal: StaticString) -> Bool {
        guard let index = index(of: name) else { return false }
        return literal.withUTF8Buffer { expected in withValue(at: index) { $0.elementsEqual(expected) } }
    }

    /// Whether the attribute named `name` is there with a value that `matchesLowercase` `lowercase`,
    /// after trimming ASCII whitespace at either end when `trimmed` is asked.
    func value(of name: String, matchesLowercase lowercase: StaticString, trimmed: Bool = false) -> Bool {
        guard let index = index(of: name) else { return false }
        return value(at: index, matchesLowercase: lowercase, trimmed: trimmed)
    }

    /// Whether the value at `index` is `lowercase` but for the case of ASCII letters, as
    /// `String.matchesLowercase` says of the string it would make.
    func value(at index: Int, matchesLowercase lowercase: StaticString, trimmed: Bool = false) -> Bool {
        withValue(at: index) { value in
            let value = trimmed ? value.trimmingASCIIWhitespace : value
            return value.matchesLowercase(lowercase)
        }
    }

    /// The index of the attribute named `name`.
    func index(of name: String) -> Int? {
        let length = name.utf8.count
        // Comparing lengths first spares most mismatches the full string comparison.
        var index = 0
        while index < names.count {
            if names[index].utf8.count == length, names[index] == name { return index }
            index += 1
        }
        return nil
    }

    func string(at index: Int) -> String {
        withValue(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    private func withValue<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = index == 0 ? 0 : valueEnds[index - 1]
        return valueBytes.withUnsafeBufferPointer(from: start, to: valueEnds[index], body)
    }

    // MARK: - Building

    /// Empties the list, keeping its storage for the next element's.
    mutating func removeAll() {
        // One at a time: `removeAll(keepingCapacity:)` goes through a generic range replacement that costs more than a few attributes.
        while !names.isEmpty {
            names.removeLast()
            valueEnds.removeLast()
        }
        valueBytes.removeAll()
        xmlBaseIndex = nil
    }

    /// Adds bytes to the value being read, which `endValue(name:)` then names.
    mutating func appendToValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        valueBytes.append(bytes)
    }

    mutating func appendToValue(_ byte: UInt8) {
        valueBytes.append(byte)
    }

    /// Adds the attribute named `name` with the value read since the last.
    mutating func endValue(name: String) {
        if xmlBaseIndex == nil, name.utf8.count == 8, name == "xml:base" { xmlBaseIndex = names.count }
        names.append(name)
        valueEnds.append(valueBytes.count)
    }

    /// The value read since the last, as a string, leaving the list as it was before it: a
    /// namespace declaration's, which is no attribute of the element.
    mutating func takeValue() -> String {
        let start = valueEnds.last ?? 0
        let value = valueBytes.withUnsafeBufferPointer(from: start) { String(decoding: $0, as: UTF8.self) }
        valueBytes.truncate(to: start)
        return value
    }
}
