import CLibXML2
import Foundation

/// A list of subscriptions as OPML 1.0 and 2.0 carry them between feed readers.
public struct OPMLDocument: Sendable, Equatable {
    /// One subscription: where the feed is, what it is called, and the folder it is in.
    public struct Subscription: Sendable, Hashable {
        public var url: URL
        public var title: String?
        public var siteURL: URL?
        /// The names of the folders it is in, outermost first; empty outside any folder.
        public var folderPath: [String]

        public init(url: URL, title: String? = nil, siteURL: URL? = nil, folderPath: [String] = []) {
            self.url = url
            self.title = title
            self.siteURL = siteURL
            self.folderPath = folderPath
        }
    }

    public var title: String?
    /// The subscriptions in document order.
    public var subscriptions: [Subscription]

    public init(title: String? = nil, subscriptions: [Subscription]) {
        self.title = title
        self.subscriptions = subscriptions
    }

    /// The largest file read as OPML: a list of ten thousand feeds is a few megabytes.
    public static let maxFileSize = 32 << 20
    /// How many folders deep subscriptions are kept; outlines nested deeper go into the deepest
    /// kept folder, so a hostile file cannot make the folder tree (and the sidebar) deeper.
    public static let maxFolderDepth = 6

    /// Why a file could not be read as OPML.
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The XML is broken at `line` (1-based); `reason` is libxml2's.
        case malformed(line: Int, reason: String)
        /// Well-formed XML, but its root is not `<opml>`.
        case notOPML(root: String)
        /// The document declares entities, which OPML never needs and which can expand without bound.
        case declaresEntities
        /// The elements nest deeper than libxml2 reads without `XML_PARSE_HUGE`.
        case tooDeep
        /// The file is larger than `maxFileSize`.
        case tooLarge(bytes: Int)

        public var description: String {
            switch self {
            case let .malformed(line, reason): "line \(line): \(reason)"
            case let .notOPML(root): "the document is <\(root)>, not <opml>"
            case .declaresEntities: "the document declares entities"
            case .tooDeep: "the elements nest too deeply"
            case let .tooLarge(bytes): "the file is \(bytes) bytes, more than \(OPMLDocument.maxFileSize)"
            }
        }
    }

    /// Reads an OPML document. Outlines with an `xmlUrl` are subscriptions; outlines without one
    /// that hold others are folders, named by `title` or else `text`, nested as the outlines are
    /// up to `maxFolderDepth`. Feeds are web addresses; `allowingLocalFiles` also accepts
    /// `file:` ones, for the copy the store writes itself: a file from elsewhere must not make
    /// the reader read local files. A file that names no encoding and is not UTF-8 is read in
    /// the encoding its text looks written in, as feeds are.
    public init(data: Data, allowingLocalFiles: Bool = false) throws(ReadError) {
        guard data.count <= Self.maxFileSize else { throw .tooLarge(bytes: data.count) }
        // An empty file (or /dev/null) is no list at all, rather than one broken at its first line.
        guard !data.isEmpty else { throw .notOPML(root: "") }
        let data = XMLInput.guessingUndeclaredEncoding(data)
        guard let context = xmlNewParserCtxt() else { throw .malformed(line: 1, reason: "out of memory") }
        defer { xmlFreeParserCtxt(context) }
        // libxml2 keeps parsing after the first error and its lastError is the last one, often
        // "premature end of data" at the file's end: the first error says where the file broke.
        let problems = ParseProblems()
        context.pointee._private = Unmanaged.passUnretained(problems).toOpaque()
        context.pointee.sax.pointee.serror = { userData, error in
            guard let error, let context = userData?.assumingMemoryBound(to: xmlParserCtxt.self),
                  let box = context.pointee._private else { return }
            let first = Unmanaged<ParseProblems>.fromOpaque(box).takeUnretainedValue()
            guard first.line == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            first.line = Int(error.pointee.line)
            first.code = error.pointee.code
            first.reason = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        // Entities are refused before any is used: with none, nothing can expand.
        context.pointee.sax.pointee.entityDecl = { userData, _, _, _, _, _ in
            guard let context = userData?.assumingMemoryBound(to: xmlParserCtxt.self), let box = context.pointee._private else { return }
            Unmanaged<ParseProblems>.fromOpaque(box).takeUnretainedValue().declaresEntities = true
            xmlStopParser(context)
        }
        // No XML_PARSE_HUGE: libxml2's guards against entity amplification and deep nesting stay on.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = data.withUnsafeBytes { bytes in
            xmlCtxtReadMemory(context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, nil, options)
        }
        guard !problems.declaresEntities else {
            if let document { xmlFreeDoc(document) }
            throw .declaresEntities
        }
        guard let document, context.pointee.wellFormed != 0 else {
            if let document { xmlFreeDoc(document) }
            // libxml2 reports the nesting limit as an internal error that names the depth.
            if problems.code == Int32(XML_ERR_INTERNAL_ERROR.rawValue), problems.reason?.contains("depth") == true { throw .tooDeep }
            let last = context.pointee.lastError
            let line = problems.line ?? Int(last.line)
            let reason = problems.reason ?? last.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            throw .malformed(line: max(1, line), reason: reason ?? "not XML")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), Self.name(of: root) == "opml" else {
            throw .notOPML(root: xmlDocGetRootElement(document).map(Self.name(of:)) ?? "")
        }
        var title: String?
        var subscriptions: [Subscription] = []
        for section in Self.children(of: root) {
            switch Self.name(of: section) {
            case "head":
                title = Self.children(of: section).first { Self.name(of: $0) == "title" }.flatMap(Self.text(of:))
            case "body":
                subscriptions += Self.subscriptions(in: section, allowingLocalFiles: allowingLocalFiles)
            default:
                break
            }
        }
        self.init(title: title, subscriptions: subscriptions)
    }

    /// What went wrong while libxml2 parsed: its first error, and whether entities were declared.
    private final class ParseProblems {
        var line: Int?
        var code: Int32?
        var reason: String?
        var declaresEntities = false
    }

    /// The subscriptions of the outlines in `body`, in document order. An outline without a name
    /// groups its outlines into the folder around it. Walked with a stack of its own, not by
    /// recursion: the nesting a file may have is libxml2's to bound, and the thread's stack is small.
    private static func subscriptions(in body: xmlNodePtr, allowingLocalFiles: Bool) -> [Subscription] {
        var subscriptions: [Subscription] = []
        // Each level's next sibling to read, and the folders it is in.
        var levels: [(next: xmlNodePtr?, path: [String])] = [(body.pointee.children, [])]
        while let level = levels.popLast() {
            guard let outline = level.next else { continue }
            levels.append((outline.pointee.next, level.path))
            guard outline.pointee.type == XML_ELEMENT_NODE, name(of: outline) == "outline" else { continue }
            let label = attribute("title", of: outline) ?? attribute("text", of: outline)
            if let address = attribute("xmlUrl", of: outline) ?? attribute("xmlurl", of: outline),
               let url = feedAddress(address, allowingLocalFiles: allowingLocalFiles) {
                let site = (attribute("htmlUrl", of: outline) ?? attribute("htmlurl", of: outline))
                    .flatMap { feedAddress($0, allowingLocalFiles: allowingLocalFiles) }
                subscriptions.append(Subscription(url: url, title: label, siteURL: site, folderPath: level.path))
            } else {
                let folder = level.path.count < maxFolderDepth ? label : nil
                levels.append((outline.pointee.children, folder.map { level.path + [$0] } ?? level.path))
            }
        }
        return subscriptions
    }

    /// A feed's absolute http(s) address, or a `file:` one when local files are allowed.
    private static func feedAddress(_ text: String, allowingLocalFiles: Bool) -> URL? {
        webAddress(text, schemes: allowingLocalFiles ? ["http", "https", "file"] : ["http", "https"])
    }

    /// An absolute address in one of `schemes`; other schemes and relative text are not feeds.
    private static func webAddress(_ text: String, schemes: Set<String>) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), schemes.contains(scheme) else {
            return nil
        }
        return url
    }

    private static func name(of node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    private static func children(of node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    private static func attribute(_ name: String, of node: xmlNodePtr) -> String? {
        var property = node.pointee.properties
        while let current = property {
            if current.pointee.name.map({ String(cString: $0) }) == name {
                return trimmed(textNodes(from: current.pointee.children))
            }
            property = current.pointee.next
        }
        return nil
    }

    private static func text(of node: xmlNodePtr) -> String? {
        trimmed(textNodes(from: node.pointee.children))
    }

    /// The text of a run of sibling nodes (an attribute's value or an element's text).
    private static func textNodes(from first: xmlNodePtr?) -> String {
        var text = ""
        var node = first
        while let current = node {
            if let content = current.pointee.content { text += String(cString: content) }
            node = current.pointee.next
        }
        return text
    }

    private static func trimmed(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The document as OPML 2.0: subscriptions outside folders first, then each folder in turn,
    /// written the same way inside, in the order the folders first appear.
    public func data(created: Date = Date()) -> Data {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<opml version="2.0">"#,
            "  <head>",
            "    <title>\(Self.escaped(title ?? "Subscriptions"))</title>",
            "    <dateCreated>\(Self.rfc822(created))</dateCreated>",
            "  </head>",
            "  <body>",
        ]
        lines += Self.outlines(subscriptions, depth: 0, indent: "    ")
        lines += ["  </body>", "</opml>", ""]
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// The outlines of `subscriptions`, which share their first `depth` folders.
    private static func outlines(_ subscriptions: [Subscription], depth: Int, indent: String) -> [String] {
        var lines: [String] = []
        var folders: [String] = []
        var inFolder: [String: [Subscription]] = [:]
        for subscription in subscriptions {
            guard depth < subscription.folderPath.count else {
                lines.append(indent + outline(subscription))
                continue
            }
            let folder = subscription.folderPath[depth]
            if inFolder[folder] == nil { folders.append(folder) }
            inFolder[folder, default: []].append(subscription)
        }
        for folder in folders {
            let name = escaped(folder)
            lines.append(indent + #"<outline text="\#(name)" title="\#(name)">"#)
            // Indented no deeper than files are read, so a deep tree's file stays linear in size.
            let inner = depth < maxFolderDepth ? indent + "  " : indent
            lines += outlines(inFolder[folder, default: []], depth: depth + 1, indent: inner)
            lines.append(indent + "</outline>")
        }
        return lines
    }

    private static func outline(_ subscription: Subscription) -> String {
        let title = escaped(subscription.title ?? subscription.url.absoluteString)
        var text = #"<outline type="rss" text="\#(title)" title="\#(title)" xmlUrl="\#(escaped(subscription.url.absoluteString))""#
        if let site = subscription.siteURL { text += #" htmlUrl="\#(escaped(site.absoluteString))""# }
        return text + "/>"
    }

    private static func escaped(_ text: String) -> String {
        // Control characters are not allowed in XML 1.0 at all, and a newline written as itself
        // would be read back as a space: the rest is escaped as all markup FeedCore writes is.
        let allowed = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" }))
        return MarkupEscaping.escaped(allowed).replacingOccurrences(of: "\n", with: "&#10;")
    }

    private static func rfc822(_ date: Date) -> String {
        if let text = UTCDateText.rfc1123(date) { return text }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

extension OPMLDocument.ReadError: ReasonedError {
    /// The error as a code and the values its sentence needs; libxml2's words are technical details.
    public var reason: ErrorReason {
        switch self {
        case let .malformed(line, reason): ErrorReason(.opmlMalformed, [.line: String(line), .technical: reason])
        case let .notOPML(root): ErrorReason(.notOPML, [.technical: "<\(root)>"])
        case .declaresEntities: ErrorReason(.opmlDeclaresEntities)
        case .tooDeep: ErrorReason(.opmlTooDeep)
        case let .tooLarge(bytes): ErrorReason(.opmlTooLarge, [.bytes: String(bytes)])
        }
    }
}
