import Foundation

/// Repairs text that claims to be UTF-8 but is not, a common fault in hand-made feeds.
enum UTF8Repair {
    /// Keeps valid UTF-8 sequences and reads each stray byte as windows-1252,
    /// which is what such bytes almost always are (smart quotes pasted from a word processor).
    static func repaired(_ data: Data) -> Data {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            var index = 0
            while index < bytes.count {
                let length = validSequenceLength(bytes, at: index)
                if length > 0 {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                    index += length
                } else {
                    if let encoded = UTF8.encode(Windows1252.scalar(for: bytes[index])) {
                        output.append(contentsOf: encoded)
                    }
                    index += 1
                }
            }
            return Data(output)
        }
    }

    /// Whether `data` is well-formed UTF-8 throughout, checked in place: ASCII runs, the bulk of
    /// any feed, go eight bytes at a time, and no string is made.
    static func isValid(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                while index + 8 <= bytes.count,
                      raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < bytes.count else { break }
                let length = validSequenceLength(bytes, at: index)
                guard length > 0 else { return false }
                index += length
            }
            return true
        }
    }

    /// How many multi-byte UTF-8 sequences `data` holds, and how many bytes stray outside any.
    static func sequenceCounts(_ data: Data) -> (valid: Int, invalid: Int) {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var valid = 0, invalid = 0, index = 0
            while index < bytes.count {
                if bytes[index] < 0x80 { index += 1; continue }
                let length = validSequenceLength(bytes, at: index)
                if length > 0 { valid += 1; index += length } else { invalid += 1; index += 1 }
            }
            return (valid, invalid)
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 if the byte there starts none.
    private static func validSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return 0
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
            return 0
        }
        return length
    }
}
