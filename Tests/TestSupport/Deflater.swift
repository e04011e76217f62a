import CZlib
import Foundation

/// zlib's deflate for building test bodies, including ones that expand far beyond what a test could hold.
public final class Deflater {
    public enum Format: Sendable {
        case gzip
        /// RFC 1950, what HTTP calls deflate.
        case zlib
        /// Deflate without a wrapper, which many servers send as deflate.
        case raw

        var windowBits: Int32 {
            switch self {
            case .gzip: 15 + 16
            case .zlib: 15
            case .raw: -15
            }
        }
    }

    private var stream = z_stream()

    public init(_ format: Format) {
        precondition(czlib_deflate_init(&stream, Z_BEST_COMPRESSION, format.windowBits) == Z_OK)
    }

    deinit {
        deflateEnd(&stream)
    }

    /// Compresses `data`, then flushes as `flush` asks, returning the output produced.
    public func compress(_ data: Data, flush: Int32 = Z_NO_FLUSH) -> Data {
        var input = data
        var output = Data()
        var buffer = [Bytef](repeating: 0, count: 64 * 1024)
        input.withUnsafeMutableBytes { raw in
            stream.next_in = raw.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_in = uInt(raw.count)
            repeat {
                buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    deflate(&stream, flush)
                    output.append(out.baseAddress!, count: out.count - Int(stream.avail_out))
                }
            } while stream.avail_out == 0
        }
        return output
    }

    /// Ends the stream: its last block and trailer.
    public func finish() -> Data {
        compress(Data(), flush: Z_FINISH)
    }

    /// `data` as one complete stream.
    public static func compress(_ data: Data, as format: Format) -> Data {
        let deflater = Deflater(format)
        return deflater.compress(data) + deflater.finish()
    }

    /// One stream of `megabytes` MB of zeros, built without ever holding the zeros: after a full
    /// flush the compressed form of the next megabyte cannot refer back, so it is the same every time
    /// and is repeated. The trailer's checksum is worked out for the whole length.
    public static func zeros(megabytes: Int, as format: Format) -> Data {
        precondition(megabytes >= 2)
        let megabyte = Data(count: 1 << 20)
        let deflater = Deflater(format)
        var output = deflater.compress(megabyte, flush: Z_FULL_FLUSH)
        let segment = deflater.compress(megabyte, flush: Z_FULL_FLUSH)
        for _ in 1..<megabytes {
            output.append(segment)
        }
        let ending = deflater.finish()
        let checksums = megabyte.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: Bytef.self)
            return (crc: crc32(0, bytes.baseAddress, uInt(bytes.count)), adler: adler32(1, bytes.baseAddress, uInt(bytes.count)))
        }
        var crc = crc32(0, nil, 0)
        var adler = adler32(0, nil, 0)
        for _ in 0..<megabytes {
            crc = crc32_combine(crc, checksums.crc, off_t(megabyte.count))
            adler = adler32_combine(adler, checksums.adler, off_t(megabyte.count))
        }
        switch format {
        case .gzip:
            output.append(ending.dropLast(8))
            output.append(littleEndian: UInt32(truncatingIfNeeded: crc))
            output.append(littleEndian: UInt32(truncatingIfNeeded: megabytes << 20))
        case .zlib:
            output.append(ending.dropLast(4))
            output.append(contentsOf: withUnsafeBytes(of: UInt32(truncatingIfNeeded: adler).bigEndian, Array.init))
        case .raw:
            output.append(ending)
        }
        return output
    }

    /// `count` gzip members of a megabyte of zeros each, one after another as RFC 1952 allows.
    public static func zeroMembers(count: Int) -> Data {
        let member = compress(Data(count: 1 << 20), as: .gzip)
        return Data((0..<count).flatMap { _ in member })
    }

    /// A gzip member whose deflate stream is nothing but `megabytes` MB of empty stored blocks:
    /// a body that decodes to nothing however much work it takes.
    public static func emptyBlocks(megabytes: Int) -> Data {
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        // A stored block of length zero: its header bits padded to a byte, then LEN 0 and NLEN 0xFFFF.
        let emptyBlock: [UInt8] = [0, 0, 0, 0xFF, 0xFF]
        let megabyteOfBlocks = Data((0..<(1 << 20) / emptyBlock.count).flatMap { _ in emptyBlock })
        // The last block: final, fixed Huffman codes, and at once the end-of-block code; then the
        // empty content's CRC-32 and length, both zero.
        let ending: [UInt8] = [3, 0] + [UInt8](repeating: 0, count: 8)
        let outer = Deflater(.gzip)
        var output = outer.compress(Data(header))
        for _ in 0..<megabytes {
            output.append(outer.compress(megabyteOfBlocks))
        }
        output.append(outer.compress(Data(ending)))
        return output + outer.finish()
    }
}

private extension Data {
    mutating func append(littleEndian value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
