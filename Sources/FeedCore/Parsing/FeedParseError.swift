import Foundation

/// Why a document could not be read as a feed.
public enum FeedParseError: Error, Sendable, Hashable {
    /// The XML is not well-formed; `line` and `column` are 1-based and point where the parser gave up.
    case malformedXML(line: Int, column: Int, reason: String)
    /// The document looked like JSON but could not be decoded.
    case malformedJSON(reason: String)
    /// The document is readable but is not RSS, Atom or JSON Feed; `found` says what it is instead.
    case unsupportedFormat(found: String)
    /// The document is bigger than the parser's `maxDocumentSize`.
    case tooLarge(limit: Int)
}

extension FeedParseError: CustomStringConvertible, LocalizedError {
    /// The error in words for the person using the app.
    public var description: String {
        switch self {
        case let .malformedXML(line, column, reason):
            "Malformed XML at line \(line), column \(column): \(reason)"
        case let .malformedJSON(reason):
            "Malformed JSON: \(reason)"
        case let .unsupportedFormat(found):
            "Not a feed: \(found)"
        case let .tooLarge(limit):
            "Feed is larger than the \(ByteCount.text(limit)) limit"
        }
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension FeedParseError: ReasonedError {
    /// The error as a code and the values its sentence needs; the parsers' own words are technical details.
    public var reason: ErrorReason {
        switch self {
        case let .malformedXML(line, column, reason):
            ErrorReason(.malformedXML, [.line: String(line), .column: String(column), .technical: reason])
        case let .malformedJSON(reason): ErrorReason(.malformedJSON, [.technical: reason])
        case let .unsupportedFormat(found): ErrorReason(.notAFeed, [.technical: found])
        case let .tooLarge(limit): ErrorReason(.tooLarge, [.bytes: String(limit)])
        }
    }
}
