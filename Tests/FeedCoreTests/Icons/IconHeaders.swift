import Foundation

/// The headers of icon files, as their formats lay them out, for tests of what is read from them.
enum IconHeaders {
    static func png(width: Int, height: Int) -> Data {
        var bytes = Bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        bytes.bigEndian(13, 4)
        bytes.text("IHDR")
        bytes.bigEndian(width, 4)
        bytes.bigEndian(height, 4)
        bytes.raw([8, 6, 0, 0, 0])
        bytes.bigEndian(0, 4)
        return bytes.data
    }

    /// A BMP info header: 40 bytes, width, height (negative: rows top down), one plane, 32 bits.
    static func bitmapInfo(width: Int, height: Int) -> Data {
        var bytes = Bytes()
        bytes.littleEndian(40, 4)
        bytes.littleEndian(width, 4)
        bytes.littleEndian(height, 4)
        bytes.littleEndian(1, 2)
        bytes.littleEndian(32, 2)
        bytes.raw([UInt8](repeating: 0, count: 24))
        return bytes.data
    }

    static func bmp(width: Int, height: Int) -> Data {
        var bytes = Bytes()
        bytes.text("BM")
        bytes.littleEndian(0, 4)
        bytes.littleEndian(0, 4)
        bytes.littleEndian(54, 4)
        return bytes.data + bitmapInfo(width: width, height: height)
    }

    /// An ICO of one image, a BMP (whose height counts its mask too) or, if asked, a PNG.
    static func ico(width: Int, height: Int, asPNG: Bool = false) -> Data {
        let image = asPNG ? png(width: width, height: height) : bitmapInfo(width: width, height: height * 2)
        var bytes = Bytes([0, 0, 1, 0, 1, 0, UInt8(width & 0xFF), UInt8(height & 0xFF), 0, 0])
        bytes.littleEndian(1, 2)
        bytes.littleEndian(32, 2)
        bytes.littleEndian(image.count, 4)
        bytes.littleEndian(22, 4)
        return bytes.data + image
    }

    /// A GIF with a global colour table and `frames` frames of the whole screen, each with one
    /// graphic control extension and a one-byte LZW block.
    static func gif(width: Int, height: Int, frames: Int) -> Data {
        var bytes = Bytes()
        bytes.text("GIF89a")
        bytes.littleEndian(width, 2)
        bytes.littleEndian(height, 2)
        bytes.raw([0x80, 0, 0, 0, 0, 0, 0, 0, 0])
        for _ in 0..<frames {
            bytes.raw([0x21, 0xF9, 4, 0, 10, 0, 0, 0, 0x2C])
            bytes.littleEndian(0, 2)
            bytes.littleEndian(0, 2)
            bytes.littleEndian(width, 2)
            bytes.littleEndian(height, 2)
            bytes.raw([0, 2, 1, 0x44, 0])
        }
        bytes.raw([0x3B])
        return bytes.data
    }

    /// A JPEG with an APP0 segment before its baseline frame header.
    static func jpeg(width: Int, height: Int) -> Data {
        var bytes = Bytes([0xFF, 0xD8, 0xFF, 0xE0])
        bytes.bigEndian(16, 2)
        bytes.text("JFIF")
        bytes.raw([UInt8](repeating: 0, count: 10))
        bytes.raw([0xFF, 0xC0])
        bytes.bigEndian(17, 2)
        bytes.raw([8])
        bytes.bigEndian(height, 2)
        bytes.bigEndian(width, 2)
        bytes.raw([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        return bytes.data
    }

    /// An extended WebP's header: its canvas size.
    static func webpExtended(width: Int, height: Int) -> Data {
        var bytes = webpChunk("VP8X")
        bytes.raw([0, 0, 0, 0])
        bytes.littleEndian(width - 1, 3)
        bytes.littleEndian(height - 1, 3)
        return bytes.data
    }

    /// A lossless WebP's header: the size packed in 14-bit fields after the signature byte.
    static func webpLossless(width: Int, height: Int) -> Data {
        var bytes = webpChunk("VP8L")
        bytes.raw([0x2F])
        bytes.littleEndian((width - 1) | (height - 1) << 14, 4)
        bytes.raw([0, 0, 0, 0, 0])
        return bytes.data
    }

    /// A lossy WebP's header: the key frame's start code, then the size.
    static func webpLossy(width: Int, height: Int) -> Data {
        var bytes = webpChunk("VP8 ")
        bytes.raw([0x50, 0x02, 0, 0x9D, 0x01, 0x2A])
        bytes.littleEndian(width, 2)
        bytes.littleEndian(height, 2)
        return bytes.data
    }

    /// The RIFF header of a WebP whose first chunk is `chunk`, up to the chunk's data.
    private static func webpChunk(_ chunk: String) -> Bytes {
        var bytes = Bytes()
        bytes.text("RIFF")
        bytes.littleEndian(30, 4)
        bytes.text("WEBP" + chunk)
        bytes.littleEndian(10, 4)
        return bytes
    }

    private struct Bytes {
        var data: Data

        init(_ bytes: [UInt8] = []) { data = Data(bytes) }

        mutating func raw(_ bytes: [UInt8]) { data.append(contentsOf: bytes) }

        mutating func text(_ text: String) { data.append(contentsOf: Array(text.utf8)) }

        mutating func bigEndian(_ value: Int, _ count: Int) {
            data.append(contentsOf: (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }

        mutating func littleEndian(_ value: Int, _ count: Int) {
            data.append(contentsOf: (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
    }
}
