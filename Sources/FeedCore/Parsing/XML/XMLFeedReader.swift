import CLibXML2
import Foundation

/// Reads RSS, RDF and Atom documents as libxml2's SAX2 parser streams them, keeping only the
/// current path.
///
/// libxml2 is used directly rather than through FoundationXML's `XMLParser`, which makes a
/// string of every name, namespace and run of text, a dictionary of every element's attributes
/// and a weak delegate load per event. Here names are made once per interned libxml2 string,
/// text only while a field is being read, and the options are ours: no network, no DTD, no
/// entity substitution (`XMLInput` has removed the DOCTYPE, so no entity can be declared), and
/// `XML_PARSE_HUGE`, so a feed over libxml2's 10 MB default is read within `FeedParser`'s cap.
final class XMLFeedReader {
    /// The state lives behind a pointer the reader owns: as a stored `var`, every callback paid
    /// a dynamic exclusivity check. Callbacks arrive one at a time on the parsing thread.
    private let state: UnsafeMutablePointer<XMLFeedState>
    private var context: xmlParserCtxtPtr?
    /// Element names, qualified names and namespaces by the addresses of libxml2's interned
    /// copies, which stay the same for the whole parse: each is made and classified once.
    private let names = InternCache<XMLName>()
    private let qualifiedNames = InternCache<String>()
    private let namespaces = InternCache<XMLNamespace>()

    private init(documentURL: URL?) {
        state = .allocate(capacity: 1)
        state.initialize(to: XMLFeedState(documentURL: documentURL))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses `data`, which must already be UTF-8 (see `XMLInput`): by `XMLScanner` when it can
    /// read the whole document, as it can nearly every well-formed feed, else by libxml2 once
    /// `XMLRepair` has mended it. A document the scanner reads as it is needs no mending (it
    /// refuses everything `XMLRepair` changes, leading whitespace included), so that pass is spared.
    static func parse(_ data: Data, documentURL: URL?) throws(FeedParseError) -> ParsedFeed {
        if data.first == UInt8(ascii: "<"), let scanned = scan(data, documentURL: documentURL) {
            return try result(of: scanned)
        }
        let (document, fixes) = XMLRepair.repair(data)
        var parsed = if let scanned = scan(document, documentURL: documentURL) {
            try result(of: scanned)
        } else {
            try parseWithLibXML2(document, documentURL: documentURL)
        }
        parsed.warnings = fixes.map(\.reason) + parsed.warnings
        return parsed
    }

    private static func scan(_ data: Data, documentURL: URL?) -> XMLFeedState? {
        data.withUnsafeBytes { XMLScanner.read($0.bindMemory(to: UInt8.self), documentURL: documentURL) }
    }

    /// Parses `data` with libxml2, which reads what `XMLScanner` leaves: faults, above all.
    static func parseWithLibXML2(_ data: Data, documentURL: URL?) throws(FeedParseError) -> ParsedFeed {
        let reader = XMLFeedReader(documentURL: documentURL)
        let unmanaged = Unmanaged.passRetained(reader)
        defer { unmanaged.release() }
        // The whole document is in memory: libxml2's pull parser reads it where it lies, without
        // the push parser's copy and its lookahead for complete tokens.
        let started = data.withUnsafeBytes { bytes -> Bool in
            guard let base = bytes.baseAddress, bytes.count > 0,
                  let context = xmlCreateMemoryParserCtxt(base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
            else { return false }
            defer { xmlFreeParserCtxt(context) }
            context.pointee.sax.pointee = Self.makeHandler()
            context.pointee.userData = unmanaged.toOpaque()
            reader.context = context
            defer { reader.context = nil }
            // The document is UTF-8 by now (XMLInput): libxml2 must not guess again from its first
            // bytes, which after conversion may look like UTF-32 and fail its own decoder.
            xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
            xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_NOCDATA.rawValue))
            xmlParseDocument(context)
            return true
        }
        guard started else { throw .unsupportedFormat(found: "the document is empty") }
        return try result(of: reader.state.pointee)
    }

    /// The feed a finished read yields, or why there is none.
    private static func result(of state: XMLFeedState) throws(FeedParseError) -> ParsedFeed {
        if let failure = state.failure {
            throw failure
        }
        if let result = state.result {
            return try result.get()
        }
        throw .unsupportedFormat(found: "the document is empty")
    }

    private static func reader(_ context: UnsafeMutableRawPointer?) -> XMLFeedReader {
        Unmanaged<XMLFeedReader>.fromOpaque(context!).takeUnretainedValue()
    }

    private func name(_ pointer: UnsafePointer<xmlChar>) -> XMLName {
        names.value(for: pointer, nil) { XMLName(String(cString: pointer)) }
    }

    private func namespace(_ uri: UnsafePointer<xmlChar>?) -> XMLNamespace {
        guard let uri else { return Self.noNamespace }
        return namespaces.value(for: uri, nil) { XMLNamespace(uri: String(cString: uri)) }
    }

    private static let noNamespace = XMLNamespace(uri: "")

    private func qualifiedName(prefix: UnsafePointer<xmlChar>?, localName: UnsafePointer<xmlChar>) -> String {
        qualifiedNames.value(for: localName, prefix) {
            guard let prefix else { return String(cString: localName) }
            return String(cString: prefix) + ":" + String(cString: localName)
        }
    }

    /// Stops the parser once the state has failed or broken off.
    private func stopIfFailed() {
        if state.pointee.isStopped, let context { xmlStopParser(context) }
    }

    // MARK: - Events

    private func startElement(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
                              attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        var values = XMLAttributes()
        if attributeCount > 0, let attributes {
            // Five pointers each: local name, prefix, namespace, value, end of value.
            for index in stride(from: 0, to: attributeCount * 5, by: 5) {
                guard let local = attributes[index], let start = attributes[index + 3], let end = attributes[index + 4] else { continue }
                Self.appendAttributeValue(UnsafeBufferPointer(start: start, count: end - start), to: &values)
                values.endValue(name: qualifiedName(prefix: attributes[index + 1], localName: local))
            }
        }
        state.pointee.startElement(name(localName), namespace: namespace(uri),
                                   qualifiedName: qualifiedName(prefix: prefix, localName: localName), attributes: values)
        stopIfFailed()
    }

    /// An attribute's value. Without entity substitution libxml2 keeps every '&' a reference
    /// stood for as "&#38;" (and nothing else escaped), so each "&#38;" is one '&'.
    private static func appendAttributeValue(_ bytes: UnsafeBufferPointer<xmlChar>, to attributes: inout XMLAttributes) {
        var start = 0
        while let reference = bytes.find("&#38;", from: start) {
            attributes.appendToValue(UnsafeBufferPointer(rebasing: bytes[start..<reference]))
            attributes.appendToValue(UInt8(ascii: "&"))
            start = reference + 5
        }
        attributes.appendToValue(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    private func characters(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        // Text outside the field being read is never needed; inside it, the bytes are kept and
        // one string is made at the end (libxml2 hands text over in pieces, one per reference).
        guard state.pointee.capture != nil else { return }
        state.pointee.appendText(UnsafeBufferPointer(start: bytes, count: count))
    }

    private func error(_ error: UnsafePointer<xmlError>) {
        guard !state.pointee.isStopped, let context else { return }
        state.pointee.recordError(code: Int(error.pointee.code), line: Int(xmlSAX2GetLineNumber(context)),
                                  column: Int(xmlSAX2GetColumnNumber(context)))
        stopIfFailed()
    }

    /// The callbacks, as libxml2's SAX2 handler.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, localName, prefix, uri, _, _, attributeCount, _, attributes in
            guard let localName else { return }
            XMLFeedReader.reader(context).startElement(localName: localName, prefix: prefix, uri: uri,
                                         attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { context, localName, _, _ in
            guard let localName else { return }
            let reader = XMLFeedReader.reader(context)
            reader.state.pointee.endElement(reader.name(localName).local)
        }
        handler.characters = { context, bytes, count in
            guard let bytes else { return }
            XMLFeedReader.reader(context).characters(bytes, count: Int(count))
        }
        handler.ignorableWhitespace = handler.characters
        handler.serror = { context, error in
            guard let error else { return }
            XMLFeedReader.reader(context).error(error)
        }
        return handler
    }
}

/// Values made from libxml2's interned names, by address: a direct-mapped table, since a feed
/// uses a few dozen names and a hashed dictionary cost more than making the values again.
private final class InternCache<Value> {
    private static var size: Int { 1 << sizeBits }
    private static var sizeBits: Int { 9 }
    private let keys = UnsafeMutablePointer<(UnsafeRawPointer?, UnsafeRawPointer?)>.allocate(capacity: size)
    private let values = UnsafeMutablePointer<Value?>.allocate(capacity: size)

    init() {
        keys.initialize(repeating: (nil, nil), count: Self.size)
        values.initialize(repeating: nil, count: Self.size)
    }

    deinit {
        keys.deallocate()
        values.deinitialize(count: Self.size)
        values.deallocate()
    }

    /// The value for the name at `name` (with `prefix`, for a qualified name), made by `make`
    /// the first time or when another name has taken its slot.
    func value(for name: UnsafeRawPointer, _ prefix: UnsafeRawPointer?, make: () -> Value) -> Value {
        // libxml2 packs interned names a few bytes apart: Fibonacci hashing spreads neighbours
        // over the table, where low address bits alone put several names in one slot.
        let key = UInt(bitPattern: name) ^ (prefix.map { UInt(bitPattern: $0) &* 0x100_0000_01B3 } ?? 0)
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth - Self.sizeBits))
        if keys[slot] == (name, prefix), let value = values[slot] { return value }
        let made = make()
        keys[slot] = (name, prefix)
        values[slot] = made
        return made
    }
}
