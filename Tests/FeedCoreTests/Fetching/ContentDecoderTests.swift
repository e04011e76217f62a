import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Decoding Content-Encoding as the body arrives")
struct ContentDecoderTests {
    static let text = Data(String(repeating: "<item><title>Streaming</title></item>\n", count: 200).utf8)
    static let limit = 20 << 20

    /// Feeds `body` in pieces of `pieceSize`, as curl hands them over, until it ends or the decoder throws;
    /// returns the decoder, how many bytes it was given and what it threw.
    static func decode(_ body: Data, encoding: String?, limit: Int = limit, pieceSize: Int = 16 * 1024)
        -> (decoder: ContentDecoder?, consumed: Int, error: ContentDecodingError?)
    {
        let decoder: ContentDecoder
        do {
            decoder = try ContentDecoder(contentEncoding: encoding, limit: limit)
        } catch {
            return (nil, 0, error)
        }
        var consumed = 0
        do {
            while consumed < body.count {
                let piece = body[(body.startIndex + consumed)...].prefix(pieceSize)
                consumed += piece.count
                try Data(piece).withUnsafeBytes { try decoder.decode($0) }
            }
            try decoder.finish()
        } catch {
            return (decoder, consumed, error as? ContentDecodingError)
        }
        return (decoder, consumed, nil)
    }

    @Test(arguments: [
        (nil, text),
        ("identity", text),
        ("gzip", Deflater.compress(text, as: .gzip)),
        ("x-gzip", Deflater.compress(text, as: .gzip)),
        ("deflate", Deflater.compress(text, as: .zlib)),
        ("deflate", Deflater.compress(text, as: .raw)),
        ("gzip, gzip", Deflater.compress(Deflater.compress(text, as: .gzip), as: .gzip)),
        ("deflate, GZIP", Deflater.compress(Deflater.compress(text, as: .raw), as: .gzip)),
    ] as [(String?, Data)])
    func decodesWhateverTheSizeOfThePieces(encoding: String?, body: Data) {
        for pieceSize in [1, 7, 16 * 1024] {
            let (decoder, _, error) = Self.decode(body, encoding: encoding, pieceSize: pieceSize)
            #expect(error == nil)
            #expect(decoder?.body == Self.text, "pieces of \(pieceSize)")
        }
    }

    @Test func concatenatedGzipMembersAreOneBody() {
        let half = Self.text.count / 2
        let body = Deflater.compress(Self.text.prefix(half), as: .gzip) + Deflater.compress(Self.text.dropFirst(half), as: .gzip)

        let (decoder, _, error) = Self.decode(body, encoding: "gzip", pieceSize: 5)

        #expect(error == nil)
        #expect(decoder?.body == Self.text)
    }

    @Test func paddingAfterTheStreamIsIgnored() {
        let body = Deflater.compress(Self.text, as: .gzip) + Data(count: 512)

        let (decoder, _, error) = Self.decode(body, encoding: "gzip")

        #expect(error == nil)
        #expect(decoder?.body == Self.text)
    }

    @Test(arguments: [
        ("gzip", Deflater.Format.gzip),
        ("deflate", .zlib),
        ("deflate", .raw),
    ])
    func bombStopsAtTheLimit(encoding: String, format: Deflater.Format) {
        let bomb = Deflater.zeros(megabytes: 1024, as: format)

        let (decoder, consumed, error) = Self.decode(bomb, encoding: encoding)

        #expect(error == .tooLarge)
        #expect(decoder?.body.count ?? 0 <= Self.limit)
        // Zeros compress about 1000 to 1: the decoder stops within a piece of the limit's worth.
        #expect(consumed <= Self.limit / 1000 + 2 * 16 * 1024, "read \(consumed) of \(bomb.count) compressed bytes")
    }

    @Test func concatenatedMembersBombStopsAtTheLimit() {
        let bomb = Deflater.zeroMembers(count: 1024)

        let (_, consumed, error) = Self.decode(bomb, encoding: "gzip")

        #expect(error == .tooLarge)
        #expect(consumed <= Self.limit / 1000 + 2 * 16 * 1024, "read \(consumed) of \(bomb.count) compressed bytes")
    }

    @Test func nestedBombStopsAtTheLimit() {
        let bomb = Deflater.compress(Deflater.zeros(megabytes: 1024, as: .gzip), as: .gzip)

        let (decoder, _, error) = Self.decode(bomb, encoding: "gzip, gzip")

        #expect(error == .tooLarge)
        #expect(decoder?.body.count ?? 0 <= Self.limit)
    }

    @Test func innerLayerDecodingToNothingIsStillBounded() {
        let limit = 1 << 20
        let body = Deflater.emptyBlocks(megabytes: 16)

        let (decoder, _, error) = Self.decode(body, encoding: "gzip, gzip", limit: limit)

        #expect(error == .tooLarge, "the outer layer's output counts against the limit")
        #expect(decoder?.body.isEmpty == true)
        #expect(Self.decode(body, encoding: "gzip, gzip", limit: 32 << 20).error == nil, "the same body within a larger limit is valid")
    }

    @Test func receivedBytesCountAgainstTheLimit() {
        let (_, _, error) = Self.decode(Data(count: 4096), encoding: nil, limit: 1024)

        #expect(error == .tooLarge)
    }

    @Test(arguments: [
        ("br", "br"),
        ("gzip, zstd", "zstd"),
        ("gzip, gzip, gzip, gzip", "gzip, gzip, gzip, gzip"),
    ])
    func unsupportedCodingsAreRefused(encoding: String, reported: String) {
        #expect(Self.decode(Self.text, encoding: encoding).error == .unsupported(reported))
    }

    @Test func corruptDataIsReported() {
        #expect(Self.decode(Data("not gzip at all".utf8), encoding: "gzip").error == .corrupt("gzip"))
        #expect(Self.decode(Data([0x78, 0x9C, 0xFF, 0xFF, 0xFF]), encoding: "deflate").error == .corrupt("deflate"))
    }

    @Test func truncatedStreamIsReported() {
        let body = Deflater.compress(Self.text, as: .gzip)

        #expect(Self.decode(body.prefix(body.count / 2), encoding: "gzip").error == .corrupt("gzip"))
        #expect(Self.decode(body.prefix(1), encoding: "deflate").error == .corrupt("deflate"), "one byte of a deflate stream")
    }
}
