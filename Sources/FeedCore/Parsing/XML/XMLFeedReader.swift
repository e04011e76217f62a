import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads RSS, RDF and Atom documents as `XMLParser` streams them, keeping only the current path.
final class XMLFeedReader: NSObject, XMLParserDelegate {
    private var state: XMLFeedState

    private init(documentURL: URL?) {
        state = XMLFeedState(documentURL: documentURL)
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
        if let failure = reader.state.failure {
            throw failure
        }
        if let result = reader.state.result {
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
        if state.failure != nil {
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
        state.startElement(name, namespace: namespaceURI ?? "", qualifiedName: qualifiedName, attributes: attributes)
        stopIfFailed(parser)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        state.endElement(name)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        state.appendText(string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        state.appendText(String(decoding: block, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        state.appendEntity(named: name)
        return nil
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: Error) {
        guard state.failure == nil else { return }
        state.recordError(code: (error as NSError).code, line: parser.lineNumber, column: parser.columnNumber)
        stopIfFailed(parser)
    }
}
