import CZlib
import Foundation

/// Why a response body could not be decoded.
enum ContentDecodingError: Error, Equatable {
    /// The encoded bytes, or what any layer decodes them to, exceed the size limit.
    case tooLarge
    /// The `Content-Encoding` names a coding other than gzip and deflate, or too many layers of them.
    case unsupported(String)
    /// The bytes are not valid for the named coding, or stop in the middle of a stream.
    case corrupt(String)
}

/// Undoes a response's `Content-Encoding` as its bytes arrive, so the size limit acts on decoded
/// bytes the moment they exist: a small compressed body can never expand past it in memory or in time.
///
/// The limit applies at every stage, the received bytes and each layer's output alike, so even
/// layers that decode to nothing (empty deflate blocks, empty gzip members) cost bounded work.
final class ContentDecoder {
    /// More layers than any server has a reason to send; each one multiplies the bytes to inflate.
    static let maximumLayers = 3

    /// The decoded body so far.
    private(set) var body = Data()
    private let limit: Int
    /// The codings to undo, in the order they must be undone: the last one applied comes first.
    private let layers: [Inflater]
    private var received = 0

    /// A decoder for a body sent with `contentEncoding` (nil or empty: unencoded), keeping at most `limit` bytes.
    init(contentEncoding: String?, limit: Int) throws(ContentDecodingError) {
        let codings = (contentEncoding ?? "")
            .split(separator: ",")
            .map { $0.trimmingWhitespace.lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard codings.count <= Self.maximumLayers else {
            throw .unsupported(contentEncoding ?? "")
        }
        var layers: [Inflater] = []
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip": layers.append(Inflater(format: .gzip, limit: limit))
            case "deflate": layers.append(Inflater(format: .deflate, limit: limit))
            default: throw .unsupported(coding)
            }
        }
        self.layers = layers
        self.limit = limit
    }

    /// Decodes the next received bytes, appending what they decode to to `body`.
    func decode(_ bytes: UnsafeRawBufferPointer) throws(ContentDecodingError) {
        received += bytes.count
        guard received <= limit else { throw .tooLarge }
        try pass(bytes, toLayer: 0)
    }

    /// Checks that every compressed stream ended: a body cut short decodes to a truncated document.
    func finish() throws(ContentDecodingError) {
        if let cutShort = layers.first(where: { $0.isIncomplete }) {
            throw .corrupt(cutShort.format.rawValue)
        }
    }

    private func pass(_ bytes: UnsafeRawBufferPointer, toLayer index: Int) throws(ContentDecodingError) {
        guard index < layers.count else {
            guard body.count + bytes.count <= limit else { throw .tooLarge }
            body.append(contentsOf: bytes)
            return
        }
        try layers[index].inflate(bytes) { output throws(ContentDecodingError) in
            try pass(output, toLayer: index + 1)
        }
    }
}

/// One layer of gzip or deflate, decoded with zlib a buffer at a time.
private final class Inflater {
    enum Format: String {
        /// One gzip member or several in a row (RFC 1952 allows concatenation).
        case gzip
        /// RFC 9110's zlib-wrapped deflate, or the raw deflate many servers send under that name.
        case deflate
    }

    /// Output is handed on in pieces this large, which bounds the work done past the limit.
    private static let outputSize = 64 * 1024

    let format: Format
    private let limit: Int
    private var stream = z_stream()
    private var produced = 0
    private var state = State.awaitingHeader
    /// The first bytes of a deflate body, kept until two of them tell zlib from raw deflate.
    private var pending: [UInt8] = []

    private enum State {
        case awaitingHeader
        case inflating
        /// A stream ended; a gzip body may start another member, anything else is trailing padding.
        case ended
        /// Padding after the last stream, ignored as gzip(1) ignores it.
        case ignoringRest
    }

    init(format: Format, limit: Int) {
        self.format = format
        self.limit = limit
    }

    deinit {
        if state != .awaitingHeader {
            inflateEnd(&stream)
        }
    }

    /// True when bytes arrived but their stream did not end.
    var isIncomplete: Bool {
        state == .inflating || !pending.isEmpty
    }

    /// Inflates `input`, handing each piece of output to `emit` as soon as it is produced.
    func inflate(
        _ input: UnsafeRawBufferPointer,
        emit: (UnsafeRawBufferPointer) throws(ContentDecodingError) -> Void
    ) throws(ContentDecodingError) {
        var input = input
        if state == .awaitingHeader, format == .deflate, pending.count + input.count < 2 {
            pending.append(contentsOf: input)
            return
        }
        if !pending.isEmpty {
            try withUnsafeTemporaryAllocation(byteCount: pending.count + input.count, alignment: 1) { joined throws(ContentDecodingError) in
                joined.copyBytes(from: pending)
                UnsafeMutableRawBufferPointer(rebasing: joined[pending.count...]).copyMemory(from: input)
                pending = []
                try inflate(UnsafeRawBufferPointer(joined), emit: emit)
            }
            return
        }
        while !input.isEmpty {
            switch state {
            case .awaitingHeader:
                try start(first: input)
            case .ended:
                // Another gzip member starts with the magic byte 0x1f; anything else is padding.
                guard format == .gzip, input[0] == 0x1f else {
                    state = .ignoringRest
                    return
                }
                inflateReset(&stream)
                state = .inflating
            case .ignoringRest:
                return
            case .inflating:
                let consumed = try step(input, emit: emit)
                input = UnsafeRawBufferPointer(rebasing: input[consumed...])
            }
        }
    }

    /// Initialises zlib for the format, telling zlib-wrapped deflate from raw by its header.
    private func start(first input: UnsafeRawBufferPointer) throws(ContentDecodingError) {
        let windowBits: Int32
        switch format {
        case .gzip:
            // 32 also accepts a zlib header, which some servers send labelled gzip.
            windowBits = 15 + 32
        case .deflate:
            let header = UInt16(input[0]) << 8 | UInt16(input[1])
            let isZlib = input[0] & 0x0F == 8 && header % 31 == 0
            windowBits = isZlib ? 15 : -15
        }
        guard czlib_inflate_init(&stream, windowBits) == Z_OK else {
            throw .corrupt(format.rawValue)
        }
        state = .inflating
    }

    /// Runs inflate over `input` until it is used up or its stream ends; returns the bytes consumed.
    private func step(
        _ input: UnsafeRawBufferPointer,
        emit: (UnsafeRawBufferPointer) throws(ContentDecodingError) -> Void
    ) throws(ContentDecodingError) -> Int {
        let base = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
        stream.next_in = base
        stream.avail_in = uInt(input.count)
        defer {
            stream.next_in = nil
            stream.avail_in = 0
        }
        return try withUnsafeTemporaryAllocation(of: Bytef.self, capacity: Self.outputSize) { output throws(ContentDecodingError) in
            while true {
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                let count = output.count - Int(stream.avail_out)
                switch status {
                case Z_OK, Z_STREAM_END, Z_BUF_ERROR:
                    break
                default:
                    throw .corrupt(format.rawValue)
                }
                produced += count
                guard produced <= limit else { throw .tooLarge }
                if count > 0 {
                    try emit(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[..<count]))
                }
                if status == Z_STREAM_END {
                    state = .ended
                    return input.count - Int(stream.avail_in)
                }
                // Output space left over means zlib wants more input than this piece holds.
                if stream.avail_in == 0, stream.avail_out > 0 {
                    return input.count
                }
            }
        }
    }
}
