/// An item's id in the Google Reader API, which has two spellings of the same 64 bits.
///
/// `stream/items/ids` gives the decimal form (`"1795698580517339"`; Google gave negative decimals
/// for ids past 2^63), while item contents give the long form, `tag:google.com,2005:reader/item/`
/// and 16 lower-case hex digits. Requests take either; the long form is always sent, since
/// FreshRSS reads a short hex id made only of digits as decimal.
struct GoogleReaderItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    var value: UInt64

    init(_ value: UInt64) {
        self.value = value
    }

    static let longFormPrefix = "tag:google.com,2005:reader/item/"

    /// Reads the decimal, the long and the bare 16-digit hex form; nil for anything else.
    init?(_ text: some StringProtocol) {
        if text.hasPrefix(Self.longFormPrefix) {
            let hex = text.dropFirst(Self.longFormPrefix.count)
            guard !hex.isEmpty, hex.count <= 16, let value = UInt64(hex, radix: 16) else { return nil }
            self.value = value
        } else if let value = UInt64(text, radix: 10) {
            self.value = value
        } else if let signed = Int64(text, radix: 10) {
            self.value = UInt64(bitPattern: signed)
        } else if text.count == 16, let value = UInt64(text, radix: 16) {
            self.value = value
        } else {
            return nil
        }
    }

    /// `tag:google.com,2005:reader/item/` and 16 zero-padded lower-case hex digits.
    var longForm: String {
        var digits: [UInt8] = Array(Self.longFormPrefix.utf8)
        for shift in stride(from: 60, through: 0, by: -4) {
            digits.append(Self.hexDigits[Int((value >> UInt64(shift)) & 0xF)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    var description: String { String(value) }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
}
