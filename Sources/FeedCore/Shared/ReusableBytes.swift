/// Bytes appended to and emptied many times over, as a parse's captured text and attribute values
/// are: emptying keeps the storage and costs nothing a byte, where an array's
/// `removeAll(keepingCapacity:)` goes through a generic range replacement.
struct ReusableBytes {
    /// The bytes, in the first `count` of it; it only grows.
    private var storage: [UInt8] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Empties the buffer, keeping its storage.
    mutating func removeAll() {
        count = 0
    }

    /// Drops the bytes from `newCount` on.
    mutating func truncate(to newCount: Int) {
        count = min(count, newCount)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let start = count
        reserve(bytes.count)
        storage.withUnsafeMutableBufferPointer { ($0.baseAddress! + start).update(from: source, count: bytes.count) }
        count = start + bytes.count
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Room for `extra` more bytes past `count`.
    private mutating func reserve(_ extra: Int) {
        let needed = count + extra
        guard needed > storage.count else { return }
        storage.append(contentsOf: repeatElement(0, count: max(needed - storage.count, storage.count, 64)))
    }

    /// Calls `body` with the bytes from `start` to `end` (by default all of them).
    func withUnsafeBufferPointer<Result>(from start: Int = 0, to end: Int? = nil,
                                         _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let end = end ?? count
        return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// The bytes as text, anything that is not UTF-8 repaired.
    var string: String {
        withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }
}
