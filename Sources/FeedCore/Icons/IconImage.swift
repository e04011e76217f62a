import Foundation

/// Tells the image formats browsers show as icons by their first bytes, and reads from their
/// headers how many pixels decoding them would make, so an image that would take gigabytes to
/// decode (a small file can say it is 60000 pixels square) is refused before anything decodes it.
public enum IconImage {
    /// The widest and tallest icon accepted: podcast artwork is up to 3000 pixels square.
    public static let maxSide = 4096
    /// The most pixels an icon may decode to, every frame of an animation counted.
    public static let maxPixels = 4096 * 4096

    /// Whether `data` is an icon of a known format whose header says it decodes to no more than
    /// `maxSide` pixels a side and `maxPixels` in all. SVG, drawn at the size shown, has no size
    /// to check.
    public static func isDecodable(_ data: Data) -> Bool {
        guard let format = format(of: data) else { return false }
        if format == .svg { return true }
        let bytes = [UInt8](data)
        guard let frames = frames(of: bytes, format: format), !frames.isEmpty else { return false }
        var pixels = 0
        for frame in frames {
            guard frame.width > 0, frame.height > 0, frame.width <= maxSide, frame.height <= maxSide else { return false }
            pixels += frame.width * frame.height
            guard pixels <= maxPixels else { return false }
        }
        return true
    }

    enum Format {
        case png, ico, gif, jpeg, bmp, webp, svg
    }

    /// The image format `data` starts as, if it is one icons come in.
    static func format(of data: Data) -> Format? {
        let signatures: [([UInt8], Format)] = [
            ([0x89, 0x50, 0x4E, 0x47], .png), ([0x00, 0x00, 0x01, 0x00], .ico), ([0x47, 0x49, 0x46, 0x38], .gif),
            ([0xFF, 0xD8, 0xFF], .jpeg), ([0x42, 0x4D], .bmp),
        ]
        if let match = signatures.first(where: { data.starts(with: $0.0) }) { return match.1 }
        if data.count > 12, data.prefix(4) == Data("RIFF".utf8), data.dropFirst(8).prefix(4) == Data("WEBP".utf8) { return .webp }
        let head = String(decoding: data.prefix(512), as: UTF8.self).lowercased()
        return head.contains("<svg") ? .svg : nil
    }

    /// The width and height of a picture the image holds.
    struct Frame: Equatable {
        var width: Int
        var height: Int
    }

    /// The pictures a decoder would make of `bytes`, as their headers say; nil when a header is
    /// cut short or unreadable.
    static func frames(of bytes: [UInt8], format: Format) -> [Frame]? {
        switch format {
        case .png: pngSize(bytes, at: 0).map { [$0] }
        case .bmp: bitmapSize(bytes, infoAt: 14).map { [$0] }
        case .gif: gifFrames(bytes)
        case .jpeg: jpegSize(bytes).map { [$0] }
        case .ico: icoSizes(bytes)
        case .webp: webpSize(bytes).map { [$0] }
        case .svg: []
        }
    }

    /// PNG: the IHDR chunk, first after the signature.
    private static func pngSize(_ bytes: [UInt8], at start: Int) -> Frame? {
        guard bytes.count >= start + 24, bytes[start + 12..<start + 16].elementsEqual("IHDR".utf8) else { return nil }
        return Frame(width: Int(bigEndian32(bytes, at: start + 16)), height: Int(bigEndian32(bytes, at: start + 20)))
    }

    /// A BMP info header (in a BMP after the 14-byte file header, in an ICO at its entry): the
    /// height is negative for rows stored top down.
    private static func bitmapSize(_ bytes: [UInt8], infoAt start: Int) -> Frame? {
        guard bytes.count >= start + 12 else { return nil }
        if littleEndian32(bytes, at: start) == 12 {
            return Frame(width: Int(littleEndian16(bytes, at: start + 4)), height: Int(littleEndian16(bytes, at: start + 6)))
        }
        let width = Int(Int32(bitPattern: littleEndian32(bytes, at: start + 4)))
        let height = Int(Int32(bitPattern: littleEndian32(bytes, at: start + 8)))
        return Frame(width: abs(width), height: abs(height))
    }

    /// GIF: every frame is drawn on the whole logical screen, so each costs the screen's pixels
    /// (or the frame's, if it reaches further).
    private static func gifFrames(_ bytes: [UInt8]) -> [Frame]? {
        guard bytes.count >= 13 else { return nil }
        let screen = Frame(width: Int(littleEndian16(bytes, at: 6)), height: Int(littleEndian16(bytes, at: 8)))
        var position = 13
        if bytes[10] & 0x80 != 0 { position += 3 << (Int(bytes[10] & 0x07) + 1) }
        var frames: [Frame] = []
        /// Skips data sub-blocks up to and past their empty terminator; false when they run past the end.
        func skipSubBlocks() -> Bool {
            while position < bytes.count {
                let size = Int(bytes[position])
                position += 1 + size
                if size == 0 { return true }
            }
            return false
        }
        while position < bytes.count {
            switch bytes[position] {
            case 0x2C:
                guard position + 10 <= bytes.count else { return frames }
                let left = Int(littleEndian16(bytes, at: position + 1)), top = Int(littleEndian16(bytes, at: position + 3))
                let width = Int(littleEndian16(bytes, at: position + 5)), height = Int(littleEndian16(bytes, at: position + 7))
                frames.append(Frame(width: max(screen.width, left + width), height: max(screen.height, top + height)))
                let packed = bytes[position + 9]
                position += 10
                if packed & 0x80 != 0 { position += 3 << (Int(packed & 0x07) + 1) }
                position += 1
                guard skipSubBlocks() else { return frames }
            case 0x21:
                position += 2
                guard skipSubBlocks() else { return frames }
            default:
                // The trailer, or bytes a decoder stops at.
                return frames
            }
        }
        return frames
    }

    /// JPEG: the first start-of-frame segment, found by skipping the segments before it.
    private static func jpegSize(_ bytes: [UInt8]) -> Frame? {
        var position = 2
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF {
                position += 1
                continue
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                position += 2
                continue
            }
            let length = Int(bigEndian16(bytes, at: position + 2))
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard position + 9 <= bytes.count else { return nil }
                return Frame(width: Int(bigEndian16(bytes, at: position + 7)), height: Int(bigEndian16(bytes, at: position + 5)))
            }
            // Scan data before any frame header: nothing a decoder could size.
            guard marker != 0xDA, length >= 2 else { return nil }
            position += 2 + length
        }
        return nil
    }

    /// ICO: each directory entry's image, a PNG or a BMP info header whose height counts the
    /// mask's rows too.
    private static func icoSizes(_ bytes: [UInt8]) -> [Frame]? {
        guard bytes.count >= 6 else { return nil }
        let count = Int(littleEndian16(bytes, at: 4))
        guard count > 0, bytes.count >= 6 + 16 * count else { return nil }
        var frames: [Frame] = []
        for entry in 0..<count {
            let offset = Int(littleEndian32(bytes, at: 6 + 16 * entry + 12))
            guard offset < bytes.count else { return nil }
            if bytes[offset...].starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                guard let size = pngSize(bytes, at: offset) else { return nil }
                frames.append(size)
            } else {
                guard let size = bitmapSize(bytes, infoAt: offset) else { return nil }
                frames.append(Frame(width: size.width, height: size.height / 2))
            }
        }
        // A decoder picks one entry: the largest is what it may cost.
        return frames.max { $0.width * $0.height < $1.width * $1.height }.map { [$0] }
    }

    /// WebP: the canvas of an extended file, else the size in its lossy or lossless bitstream.
    private static func webpSize(_ bytes: [UInt8]) -> Frame? {
        guard bytes.count >= 30 else { return nil }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8X":
            return Frame(width: Int(littleEndian24(bytes, at: 24)) + 1, height: Int(littleEndian24(bytes, at: 27)) + 1)
        case "VP8L":
            guard bytes[20] == 0x2F else { return nil }
            let bits = littleEndian32(bytes, at: 21)
            return Frame(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8 ":
            guard bytes[23..<26].elementsEqual([0x9D, 0x01, 0x2A]) else { return nil }
            return Frame(width: Int(littleEndian16(bytes, at: 26) & 0x3FFF), height: Int(littleEndian16(bytes, at: 28) & 0x3FFF))
        default:
            return nil
        }
    }

    private static func bigEndian16(_ bytes: [UInt8], at index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    private static func bigEndian32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bigEndian16(bytes, at: index)) << 16 | UInt32(bigEndian16(bytes, at: index + 2))
    }

    private static func littleEndian16(_ bytes: [UInt8], at index: Int) -> UInt16 {
        UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }

    private static func littleEndian24(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(littleEndian16(bytes, at: index)) | UInt32(bytes[index + 2]) << 16
    }

    private static func littleEndian32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(littleEndian16(bytes, at: index)) | UInt32(littleEndian16(bytes, at: index + 2)) << 16
    }
}

extension IconImage {
    /// The bytes of the icon `file`, when they are no more than `FeedIcons.maxIconSize` and
    /// `isDecodable`: icons saved before this check existed are checked again before decoding.
    public static func decodableContents(of file: URL) -> Data? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let size = attributes[.size] as? Int, size <= FeedIcons.maxIconSize,
              let data = try? Data(contentsOf: file), isDecodable(data) else { return nil }
        return data
    }
}
