import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("Icon images: their size read from their headers, and icons too large to decode refused", .serialized)
struct IconImageTests {
    @Test("each format's header gives its size", arguments: [
        (IconHeaders.png(width: 300, height: 200), IconImage.Format.png, [IconImage.Frame(width: 300, height: 200)]),
        (IconHeaders.bmp(width: 48, height: -32), .bmp, [IconImage.Frame(width: 48, height: 32)]),
        (IconHeaders.ico(width: 32, height: 32), .ico, [IconImage.Frame(width: 32, height: 32)]),
        (IconHeaders.ico(width: 64, height: 64, asPNG: true), .ico, [IconImage.Frame(width: 64, height: 64)]),
        (IconHeaders.gif(width: 20, height: 10, frames: 3), .gif, Array(repeating: IconImage.Frame(width: 20, height: 10), count: 3)),
        (IconHeaders.jpeg(width: 640, height: 480), .jpeg, [IconImage.Frame(width: 640, height: 480)]),
        (IconHeaders.webpExtended(width: 400, height: 300), .webp, [IconImage.Frame(width: 400, height: 300)]),
        (IconHeaders.webpLossless(width: 128, height: 96), .webp, [IconImage.Frame(width: 128, height: 96)]),
        (IconHeaders.webpLossy(width: 500, height: 250), .webp, [IconImage.Frame(width: 500, height: 250)]),
    ] as [(Data, IconImage.Format, [IconImage.Frame])])
    func sizes(data: Data, format: IconImage.Format, expected: [IconImage.Frame]) {
        #expect(IconImage.format(of: data) == format)
        #expect(IconImage.frames(of: [UInt8](data), format: format) == expected)
        #expect(IconImage.isDecodable(data))
    }

    @Test("pictures larger than an icon could be are refused", arguments: [
        ("the 437 KB PNG of 60000 pixels square", IconHeaders.png(width: 60000, height: 60000)),
        ("a PNG one pixel too wide", IconHeaders.png(width: IconImage.maxSide + 1, height: 1)),
        ("a BMP stored top down", IconHeaders.bmp(width: 1, height: -100_000)),
        ("an ICO of no pixels", IconHeaders.ico(width: 0, height: 0)),
        ("an ICO holding a PNG bomb", IconHeaders.ico(width: 50000, height: 50000, asPNG: true)),
        ("a GIF screen of 65535 pixels square", IconHeaders.gif(width: 65535, height: 65535, frames: 1)),
        ("a GIF of many full-screen frames", IconHeaders.gif(width: 1000, height: 1000, frames: 20)),
        ("a JPEG of 65535 pixels square", IconHeaders.jpeg(width: 65535, height: 65535)),
        ("a WebP of 16384 pixels square", IconHeaders.webpExtended(width: 16384, height: 16384)),
        ("a PNG of no pixels", IconHeaders.png(width: 0, height: 16)),
    ] as [(String, Data)])
    func tooLarge(name: String, data: Data) {
        #expect(!IconImage.isDecodable(data), "\(name)")
    }

    @Test("the largest icons accepted: podcast artwork, an animated icon")
    func largestAccepted() {
        #expect(IconImage.isDecodable(IconHeaders.png(width: IconImage.maxSide, height: IconImage.maxSide)))
        #expect(IconImage.isDecodable(IconHeaders.jpeg(width: 3000, height: 3000)))
        #expect(IconImage.isDecodable(IconHeaders.gif(width: 64, height: 64, frames: 100)))
    }

    @Test("headers cut short are refused, at every length short of the size", arguments: [
        (IconHeaders.png(width: 16, height: 16), 24), (IconHeaders.bmp(width: 16, height: 16), 26),
        (IconHeaders.ico(width: 16, height: 16), 34), (IconHeaders.gif(width: 16, height: 16, frames: 1), 37),
        (IconHeaders.jpeg(width: 16, height: 16), 29), (IconHeaders.webpExtended(width: 16, height: 16), 30),
        (IconHeaders.webpLossless(width: 16, height: 16), 30),
    ] as [(Data, Int)])
    func truncated(data: Data, headerLength: Int) {
        for length in 0..<headerLength {
            #expect(!IconImage.isDecodable(data.prefix(length)), "\(length) bytes")
        }
        #expect(IconImage.isDecodable(data.prefix(headerLength)))
    }

    @Test("an SVG is drawn at the size shown: no header to check")
    func svg() {
        #expect(IconImage.isDecodable(Data("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"99999\"/>".utf8)))
        #expect(!IconImage.isDecodable(Data("<!doctype html><html>Not found</html>".utf8)))
    }

    @Test("a real PNG bomb: small enough to pass the file size cap, refused by its size in pixels")
    func realBomb() {
        let bomb = PNGBomb.reported
        #expect(bomb.count < FeedIcons.maxIconSize)
        #expect(IconImage.format(of: bomb) == .png)
        #expect(!IconImage.isDecodable(bomb))
    }

    @Test("a saved icon is read back only when it is safe to decode")
    func savedFiles() throws {
        let folder = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.icon"), bomb = folder.appendingPathComponent("bomb.icon")
        let large = folder.appendingPathComponent("large.icon")
        try IconHeaders.png(width: 32, height: 32).write(to: good)
        try PNGBomb.reported.write(to: bomb)
        try (IconHeaders.png(width: 32, height: 32) + Data(count: FeedIcons.maxIconSize)).write(to: large)
        #expect(IconImage.decodableContents(of: good) == IconHeaders.png(width: 32, height: 32))
        #expect(IconImage.decodableContents(of: bomb) == nil)
        #expect(IconImage.decodableContents(of: large) == nil)
        #expect(IconImage.decodableContents(of: folder.appendingPathComponent("missing.icon")) == nil)
    }
}
