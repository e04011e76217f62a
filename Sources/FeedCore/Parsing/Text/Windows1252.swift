/// The windows-1252 code page, which most 8-bit feeds really use whatever their prolog says.
enum Windows1252 {
    /// The Unicode scalar for one windows-1252 byte.
    ///
    /// Bytes 0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned and map to the C1 control of the same
    /// value, as browsers do, so no byte is ever lost.
    static func scalar(for byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        return Unicode.Scalar(highRange[Int(byte) - 0x80]) ?? Unicode.Scalar(byte)
    }

    private static let highRange: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
