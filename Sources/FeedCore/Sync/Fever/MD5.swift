import Foundation

/// MD5 (RFC 1321), only for the Fever API's key, md5("user:password"): the protocol's choice, not
/// a security measure of ours. Foundation on Linux has no digest, and FeedCore links no crypto library.
enum MD5 {
    /// The lower-case hex digest of `bytes`.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        digest(Array(bytes)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(abs(sin(i + 1)) * 2^32), as the RFC defines its table.
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    private static func digest(_ input: [UInt8]) -> [UInt8] {
        var message = input
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bitLength = UInt64(input.count) &* 8
        for byte in 0..<8 { message.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(byte)))) }

        var a0: UInt32 = 0x6745_2301, b0: UInt32 = 0xEFCD_AB89, c0: UInt32 = 0x98BA_DCFE, d0: UInt32 = 0x1032_5476
        for chunk in stride(from: 0, to: message.count, by: 64) {
            let words = (0..<16).map { index in
                (0..<4).reduce(UInt32(0)) { $0 | UInt32(message[chunk + index * 4 + $1]) << (8 * UInt32($1)) }
            }
            var a = a0, b = b0, c = c0, d = d0
            for i in 0..<64 {
                var f: UInt32
                let g: Int
                switch i {
                case 0..<16: f = (b & c) | (~b & d); g = i
                case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
                case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
                default: f = c ^ (b | ~d); g = (7 * i) % 16
                }
                f = f &+ a &+ constants[i] &+ words[g]
                a = d
                d = c
                c = b
                b = b &+ (f << shifts[i] | f >> (32 - shifts[i]))
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
        }
        return [a0, b0, c0, d0].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
