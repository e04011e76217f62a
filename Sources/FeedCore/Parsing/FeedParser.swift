import Foundation

/// Parses RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 1.0 and 0.3, and JSON Feed 1.0/1.1 documents.
///
/// Parsing is streaming (no DOM is built), the DTD is never read (so no entity expands and no
/// external one is loaded), and documents larger than `maxDocumentSize` are refused. `FeedParser` is a value type
/// with no shared state, so any number of parses can run at once on different tasks.
public struct FeedParser: Sendable {
    /// The default size limit: 20 MB.
    public static let defaultMaxDocumentSize = 20 * 1024 * 1024

    /// The largest document, in bytes, that will be parsed.
    public var maxDocumentSize: Int

    /// Creates a parser that refuses documents larger than `maxDocumentSize` bytes.
    public init(maxDocumentSize: Int = FeedParser.defaultMaxDocumentSize) {
        self.maxDocumentSize = maxDocumentSize
    }

    /// Parses a feed document, reading it anyway where it is not well-formed XML but a reader can
    /// tell what it means; what was mended is in the result's `warnings`.
    ///
    /// - Parameters:
    ///   - data: The document's bytes, in any encoding its BOM, XML prolog or `charset` names.
    ///   - url: Where the document came from; relative links are resolved against it.
    ///   - charset: The HTTP `Content-Type` charset, which outranks the XML prolog (RFC 7303).
    public func parse(_ data: Data, url: URL? = nil, charset: String? = nil) throws(FeedParseError) -> ParsedFeed {
        guard data.count <= maxDocumentSize else {
            throw .tooLarge(limit: maxDocumentSize)
        }
        switch Self.firstSignificantByte(of: data) {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try JSONFeedReader.parse(data, documentURL: url)
        case nil:
            throw .unsupportedFormat(found: "the document is empty")
        case UInt8(ascii: "<"), 0x00, Self.ebcdicLessThan:
            let (document, warnings) = XMLInput.utf8(data, charset: charset)
            var parsed = try XMLFeedReader.parse(document, documentURL: url)
            parsed.warnings = warnings + parsed.warnings
            return parsed
        default:
            throw .unsupportedFormat(found: "the document is neither XML nor JSON")
        }
    }

    /// '<' in EBCDIC, which IBM systems' feeds start with.
    private static let ebcdicLessThan: UInt8 = 0x4C

    /// The first byte that is not whitespace or part of a byte order mark; UTF-16 XML yields 0x00 or '<'.
    private static func firstSignificantByte(of data: Data) -> UInt8? {
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : (data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) ? 2 : 0)
        return data.dropFirst(start).first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }
}
