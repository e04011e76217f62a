import Foundation

/// Everything `XMLFeedReader` knows while a document streams past, as one value.
///
/// Keeping the state in a struct lets each parser callback make a single exclusive access
/// instead of one per property, which measurably speeds up large feeds.
struct XMLFeedState {
    /// What an open element stands for.
    enum Role {
        case document
        case channel
        case item
        case image
        case person(ofEntry: Bool)
        /// A Media RSS `media:group` or `media:content`, whose media and thumbnails are the entry's.
        case media
        case field(Field)
        case ignored
    }

    /// The values text-bearing elements feed into; `primary` sources override fallbacks seen earlier.
    enum Field {
        case feedTitle, feedLink, feedDescription, feedID, feedAuthor
        case feedTTL, feedUpdatePeriod, feedUpdateFrequency
        case feedIcon(primary: Bool)
        case title(primary: Bool)
        case link
        case guid(isPermaLink: Bool)
        case entryID
        case author(primary: Bool, isRSSAddress: Bool)
        case published(primary: Bool)
        case updated(primary: Bool)
        case summary(primary: Bool)
        case content
    }

    /// How a text element's content is written, after Atom's `type` (and Atom 0.3's `mode`).
    enum TextType {
        case text, html, xhtml
    }

    private struct Frame {
        var role: Role
        var base: URL?
    }

    /// The element whose text is being collected into `capturedText`, nested markup serialized.
    struct Capture {
        var field: Field
        var depth: Int
        var type: TextType
        var isBase64: Bool
    }

    let documentURL: URL?
    private(set) var format: FeedFormat?
    /// The namespace of a `feed` root that is not Atom's own (none, or an Atom 0.3 draft's):
    /// the document is read as Atom in it.
    private var atomNamespaceAlias: String?
    /// Set when the document turns out to be malformed or not a feed; the reader then stops the parser.
    private(set) var failure: FeedParseError? { didSet { isStopped = true } }
    /// Where and why a feed's document broke off before its end, read up to there.
    private var malformation: FeedParseError? { didSet { isStopped = true } }
    /// Whether reading is over before the document's end: it failed, or broke off in a feed.
    /// Stored, not computed: the reader asks after every element.
    private(set) var isStopped = false
    private var stack: [Frame] = []
    var capture: Capture?
    /// The captured element's text so far as UTF-8, made a string once when the element ends:
    /// one buffer for every capture, so its capacity is allocated once per document.
    var capturedText = ReusableBytes()
    var feed = FeedDraft()
    var entry: EntryDraft?
    private var entries: [Entry] = []

    init(documentURL: URL?) {
        self.documentURL = documentURL
    }

    /// The parsed feed, once the document has been read without failure. A document that broke
    /// off keeps the entries before the fault, with a warning; with none, nothing is worth
    /// showing and the fault is the answer.
    var result: Result<ParsedFeed, FeedParseError>? {
        guard let format else { return nil }
        var parsed = ParsedFeed(format: format, feed: feed.feed(documentURL: documentURL), entries: entries)
        if case let .malformedXML(line, column, reason)? = malformation {
            guard !entries.isEmpty else { return .failure(.malformedXML(line: line, column: column, reason: reason)) }
            parsed.warnings = [ErrorReason(.malformedXML, [.line: String(line), .column: String(column), .technical: reason])]
        }
        return .success(parsed)
    }

    // MARK: - Events

    mutating func startElement(_ name: XMLName, namespace: XMLNamespace, qualifiedName: String, attributes: XMLAttributes) {
        let parentBase = stack.last?.base ?? documentURL
        let base = attributes.xmlBase.flatMap { resolveURL($0, against: parentBase) } ?? parentBase
        if capture != nil {
            appendStartTag(name.local, attributes: attributes)
            stack.append(Frame(role: .ignored, base: base))
            return
        }
        let role: Role
        if let parent = stack.last {
            role = childRole(of: parent.role, namespace: namespace, name: name, attributes: attributes, base: base)
        } else {
            guard let root = rootRole(namespace: namespace, name: name) else {
                failure = .unsupportedFormat(found: name.local.lowercased() == "html"
                    ? "the document is an HTML page"
                    : "the XML document's root element is <\(qualifiedName)>")
                return
            }
            role = root
        }
        stack.append(Frame(role: role, base: base))
        switch role {
        case .item:
            entry = EntryDraft()
            entry?.id = nonEmpty(attributes["rdf:about"])
        case let .field(field):
            capturedText.removeAll()
            capture = Capture(
                field: field,
                depth: stack.count,
                type: textType(namespace: namespace, attributes: attributes),
                isBase64: !attributes.isEmpty && attributes.value(of: "mode", is: "base64")
            )
        default:
            break
        }
    }

    mutating func endElement(_ name: String) {
        if let current = capture {
            if stack.count == current.depth {
                capture = nil
                finish(current, base: stack.last?.base)
            } else {
                appendEndTag(name)
            }
        }
        guard let frame = stack.popLast() else { return }
        // Taken, not copied: the draft's strings move into the entry with no retain and release each.
        if case .item = frame.role, let draft = entry.take() {
            entries.append(draft.entry(defaultAuthor: feed.author))
        }
    }

    /// Records a libxml2 error unless it is harmless. Inside a feed, reading stops there and
    /// keeps what came before with a warning, as feedparser's "bozo" mode does; before the
    /// feed's root element, the document fails.
    mutating func recordError(code: Int, line: Int, column: Int) {
        guard !isStopped, !XMLErrorReason.isTolerated(code) else { return }
        let reason: String
        if code == XMLErrorReason.documentEnd || code == XMLErrorReason.documentEmpty {
            reason = format == nil ? "the document has no root element"
                : stack.isEmpty ? "extra content after the root element" : "document ends before its elements are closed"
        } else {
            reason = XMLErrorReason.text(forCode: code)
        }
        guard format != nil else {
            failure = .malformedXML(line: line, column: column, reason: reason)
            return
        }
        malformation = .malformedXML(line: line, column: column, reason: reason)
        closeOpenElements()
    }

    /// Ends every open element as the document should have, keeping the entry being read.
    private mutating func closeOpenElements() {
        while !stack.isEmpty {
            // Markup inside a text being captured stays as it was cut: the sanitizer closes it.
            if let current = capture, stack.count > current.depth {
                stack.removeLast()
            } else {
                endElement("")
            }
        }
    }

    // MARK: - Structure

    private mutating func rootRole(namespace: XMLNamespace, name: XMLName) -> Role? {
        switch (namespace.known, name.known) {
        case (nil, .rss) where namespace.isNone, (.userlandRSS, .rss):
            format = .rss
            return .document
        case (.rdf, .RDF):
            format = .rdf
            return .document
        case (.atom, .feed):
            format = .atom
            return .channel
        case (.atom03, .feed):
            format = .atom03
            return .channel
        case (_, .feed):
            format = .atom
            atomNamespaceAlias = namespace.uri
            return .channel
        case (_, .entry) where namespace.known?.isAtom == true || namespace.isNone:
            // A lone Atom entry document: a feed of one entry.
            format = .atom
            if namespace.isNone { atomNamespaceAlias = namespace.uri }
            return .item
        default:
            return nil
        }
    }

    /// Whether `namespace` is Atom's in this document.
    private func isAtom(_ namespace: XMLNamespace) -> Bool {
        if namespace.known?.isAtom == true { return true }
        guard let atomNamespaceAlias else { return false }
        return namespace.uri == atomNamespaceAlias
    }

    /// Whether `namespace` is the one the document's own RSS elements use.
    private func isRSSCore(_ namespace: XMLNamespace) -> Bool {
        switch namespace.known {
        case .rss10?, .rss090?, .userlandRSS?: true
        case nil: namespace.isNone
        default: false
        }
    }

    private mutating func childRole(of parent: Role, namespace: XMLNamespace, name: XMLName, attributes: XMLAttributes, base: URL?) -> Role {
        switch parent {
        case .document:
            guard isRSSCore(namespace) else { return .ignored }
            switch name.known {
            case .channel: return .channel
            case .item: return .item
            case .image: return .image
            default: return .ignored
            }
        case .channel:
            return channelChildRole(namespace: namespace, name: name, attributes: attributes, base: base)
        case .item:
            return itemChildRole(namespace: namespace, name: name, attributes: attributes, base: base)
        case .image:
            return isRSSCore(namespace) && name.known == .url ? .field(.feedIcon(primary: true)) : .ignored
        case let .person(ofEntry):
            guard isAtom(namespace), name.known == .name else { return .ignored }
            return .field(ofEntry ? .author(primary: true, isRSSAddress: false) : .feedAuthor)
        case .media:
            return namespace.known == .media ? mediaRole(name: name, attributes: attributes, base: base) : .ignored
        case .field, .ignored:
            return .ignored
        }
    }

    /// Media RSS inside an item, a `media:group` or a `media:content`: the files it offers and their thumbnails.
    private mutating func mediaRole(name: XMLName, attributes: XMLAttributes, base: URL?) -> Role {
        switch name.known {
        case .group:
            return .media
        case .content:
            addEnclosure(url: attributes["url"], type: attributes["type"], length: attributes["fileSize"], base: base,
                         medium: attributes["medium"].flatMap { Enclosure.Kind(rawValue: $0.trimmingWhitespace.lowercased()) })
            return .media
        case .thumbnail:
            addEnclosure(url: attributes["url"], type: nil, length: nil, base: base, isThumbnail: true)
            return .ignored
        default:
            return .ignored
        }
    }

    private mutating func channelChildRole(namespace: XMLNamespace, name: XMLName, attributes: XMLAttributes, base: URL?) -> Role {
        if isRSSCore(namespace), atomNamespaceAlias == nil {
            switch name.known {
            case .title: return .field(.feedTitle)
            case .link: return .field(.feedLink)
            case .description: return .field(.feedDescription)
            case .ttl: return .field(.feedTTL)
            case .item: return .item
            case .image:
                if feed.iconURL == nil { feed.iconURL = resolveURL(attributes["rdf:resource"], against: base) }
                return .image
            default: return .ignored
            }
        }
        if isAtom(namespace) {
            switch name.known {
            case .title: return .field(.feedTitle)
            case .subtitle, .tagline: return .field(.feedDescription)
            case .id: return .field(.feedID)
            case .icon: return .field(.feedIcon(primary: true))
            case .logo: return .field(.feedIcon(primary: false))
            case .author: return .person(ofEntry: false)
            case .entry: return .item
            case .link:
                if feed.link == nil, isAlternate(attributes) {
                    feed.link = resolveURL(attributes["href"], against: base)
                }
                return .ignored
            default: return .ignored
            }
        }
        if namespace.known == .dublinCore, name.known == .title, feed.title == nil {
            return .field(.feedTitle)
        }
        if namespace.known == .itunes, name.known == .image, feed.iconURL == nil {
            feed.iconURL = resolveURL(attributes["href"], against: base)
        }
        if namespace.known == .syndication {
            switch name.known {
            case .updatePeriod: return .field(.feedUpdatePeriod)
            case .updateFrequency: return .field(.feedUpdateFrequency)
            default: return .ignored
            }
        }
        return .ignored
    }

    private mutating func itemChildRole(namespace: XMLNamespace, name: XMLName, attributes: XMLAttributes, base: URL?) -> Role {
        if isRSSCore(namespace), atomNamespaceAlias == nil {
            switch name.known {
            case .title: return .field(.title(primary: true))
            case .link: return .field(.link)
            case .description: return .field(.summary(primary: true))
            case .guid: return .field(.guid(isPermaLink: !attributes.value(of: "isPermaLink", matchesLowercase: "false")))
            case .pubDate: return .field(.published(primary: true))
            case .author: return .field(.author(primary: true, isRSSAddress: true))
            case .enclosure:
                addEnclosure(url: attributes["url"], type: attributes["type"], length: attributes["length"], base: base)
                return .ignored
            default: return .ignored
            }
        }
        if isAtom(namespace) {
            switch name.known {
            case .id: return .field(.entryID)
            case .title: return .field(.title(primary: true))
            case .summary: return .field(.summary(primary: true))
            case .content: return attributes.contains("src") ? .ignored : .field(.content)
            case .published, .issued: return .field(.published(primary: true))
            case .created: return .field(.published(primary: false))
            case .updated, .modified: return .field(.updated(primary: true))
            case .author: return .person(ofEntry: true)
            case .link:
                addAtomLink(attributes, base: base)
                return .ignored
            default: return .ignored
            }
        }
        switch namespace.known {
        case .dublinCore:
            switch name.known {
            case .creator: return .field(.author(primary: true, isRSSAddress: false))
            case .date: return .field(.published(primary: false))
            case .title: return .field(.title(primary: false))
            case .description: return .field(.summary(primary: false))
            default: return .ignored
            }
        case .dcTerms:
            switch name.known {
            case .created, .issued: return .field(.published(primary: false))
            case .modified: return .field(.updated(primary: false))
            default: return .ignored
            }
        case .content:
            return name.known == .encoded ? .field(.content) : .ignored
        case .itunes:
            switch name.known {
            case .author: return .field(.author(primary: false, isRSSAddress: false))
            case .summary: return .field(.summary(primary: false))
            default: return .ignored
            }
        case .media:
            return mediaRole(name: name, attributes: attributes, base: base)
        default:
            return .ignored
        }
    }

    /// Atom's default relation is `alternate`.
    private func isAlternate(_ attributes: XMLAttributes) -> Bool {
        guard let relation = attributes.index(of: "rel") else { return true }
        return attributes.value(at: relation, matchesLowercase: "alternate", trimmed: true)
            || attributes.value(at: relation, matchesLowercase: "http://www.iana.org/assignments/relation/alternate", trimmed: true)
    }

    private mutating func addAtomLink(_ attributes: XMLAttributes, base: URL?) {
        if isAlternate(attributes) {
            if entry?.link == nil {
                entry?.link = resolveAddress(attributes["href"], against: base)
            }
        } else if attributes.value(of: "rel", matchesLowercase: "enclosure") {
            addEnclosure(url: attributes["href"], type: attributes["type"], length: attributes["length"], base: base)
        }
    }

    private mutating func addEnclosure(url: String?, type: String?, length: String?, base: URL?,
                                       medium: Enclosure.Kind? = nil, isThumbnail: Bool = false) {
        guard let url = resolveURL(url, against: base) else { return }
        let size = length.flatMap { Int64($0.trimmingWhitespace) }.flatMap { $0 > 0 ? $0 : nil }
        entry?.addEnclosure(Enclosure(url: url, type: nonEmpty(type), length: size, medium: medium, isThumbnail: isThumbnail))
    }

    private func textType(namespace: XMLNamespace, attributes: XMLAttributes) -> TextType {
        guard isAtom(namespace) else { return .html }
        // Most fields carry neither attribute.
        guard !attributes.isEmpty else { return .text }
        if attributes.value(of: "mode", is: "xml") { return .xhtml }
        guard let type = attributes.index(of: "type") else { return attributes.value(of: "mode", is: "escaped") ? .html : .text }
        func typeIs(_ lowercase: StaticString) -> Bool { attributes.value(at: type, matchesLowercase: lowercase) }
        if typeIs("html") || typeIs("text/html") { return .html }
        if typeIs("xhtml") || typeIs("application/xhtml+xml") { return .xhtml }
        if typeIs("text") || typeIs("text/plain") { return attributes.value(of: "mode", is: "escaped") ? .html : .text }
        return .text
    }
}
