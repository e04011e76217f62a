import CZlib
import Foundation

/// Real PNGs of a black picture, one bit a pixel: zeros compress over a thousand to one, so a few
/// hundred KB decode to gigabytes.
public enum PNGBomb {
    /// The icon that froze the reader for 40 s at every start: 60000 pixels square in 437 KB,
    /// made once per test process (it takes seconds).
    public static let reported = make(side: 60000)

    /// A bomb `side` pixels square.
    public static func make(side: Int) -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(side))
        header.appendBigEndian(UInt32(side))
        // Bit depth 1, greyscale, deflate, adaptive filtering, not interlaced.
        header.append(contentsOf: [1, 0, 0, 0, 0])
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlibZeros(rows: side, rowBytes: 1 + (side + 7) / 8))
        png.appendChunk("IEND", Data())
        return png
    }
}

/// One zlib stream of `rows` rows of `rowBytes` zeros (each row's filter byte is 0 too),
/// compressed a batch of rows at a time so the whole picture is never held.
private func zlibZeros(rows: Int, rowBytes: Int) -> Data {
    let deflater = Deflater(.zlib)
    let batchRows = max(1, (1 << 20) / rowBytes)
    let batch = Data(count: batchRows * rowBytes)
    var output = Data()
    var left = rows
    while left > 0 {
        let count = min(left, batchRows)
        left -= count
        output.append(deflater.compress(batch.prefix(count * rowBytes), flush: left == 0 ? Z_FINISH : Z_NO_FLUSH))
    }
    return output
}

private extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Appends a PNG chunk: its length, type, data and the CRC-32 of type and data.
    mutating func appendChunk(_ type: String, _ data: Data) {
        appendBigEndian(UInt32(data.count))
        let typed = Data(type.utf8) + data
        append(typed)
        let crc = typed.withUnsafeBytes { raw in crc32(0, raw.bindMemory(to: Bytef.self).baseAddress, uInt(raw.count)) }
        appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }
}
