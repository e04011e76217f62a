import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads RSS, RDF and Atom documents as `XMLParser` streams them, keeping only the current path.
final class XMLFeedReader: NSObject, XMLParserDelegate {
    /// The state lives behind a pointer the reader owns: as a stored `var` of this class, every
    /// callback paid a dynamic exclusivity check (swift_beginAccess), about a tenth of a parse
    /// in callgrind. Callbacks arrive one at a time on the parsing thread, so accesses never overlap.
    private let state: UnsafeMutablePointer<XMLFeedState>

    private init(documentURL: URL?) {
        state = .allocate(capacity: 1)
        state.initialize(to: XMLFeedState(documentURL: documentURL))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses `data`, which must already be UTF-8 (see `XMLInput`).
    static func parse(_ data: Data, documentURL: URL?) throws(FeedParseError) -> ParsedFeed {
        let reader = XMLFeedReader(documentURL: documentURL)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.delegate = reader
        let succeeded = parser.parse()
        if let failure = reader.state.pointee.failure {
            throw failure
        }
        if let result = reader.state.pointee.result {
            return result
        }
        if !succeeded, let error = parser.parserError as NSError? {
            throw .malformedXML(line: parser.lineNumber, column: parser.columnNumber, reason: XMLErrorReason.text(forCode: error.code))
        }
        throw .unsupportedFormat(found: "the document is empty")
    }

    /// Stops the parser once the state has recorded a failure. This happens outside the state's
    /// own methods because libxml2 reports the stop through `parseErrorOccurred` synchronously.
    private func stopIfFailed(_ parser: XMLParser) {
        if state.pointee.failure != nil {
            parser.abortParsing()
        }
    }

    func parser(
        _ parser: XMLParser,
        didStartElement name: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String]
    ) {
        state.pointee.startElement(name, namespace: namespaceURI ?? "", qualifiedName: qualifiedName, attributes: attributes)
        stopIfFailed(parser)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        state.pointee.endElement(name)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        state.pointee.appendText(string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        state.pointee.appendText(String(decoding: block, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        state.pointee.appendEntity(named: name)
        return nil
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: Error) {
        guard state.pointee.failure == nil else { return }
        state.pointee.recordError(code: (error as NSError).code, line: parser.lineNumber, column: parser.columnNumber)
        stopIfFailed(parser)
    }
}
