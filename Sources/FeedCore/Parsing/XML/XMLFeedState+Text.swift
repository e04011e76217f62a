import Foundation

extension XMLFeedState {
    /// Adds character data to the element being captured, escaping it inside inline XHTML.
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        guard capture != nil else { return }
        if capture?.type == .xhtml {
            MarkupEscaping.appendEscaped(text, to: &capturedText)
        } else {
            capturedText.append(text)
        }
    }

    /// Adds one ASCII character, as `appendText(_:)` does: a decoded reference, most often.
    mutating func appendText(ascii byte: UInt8) {
        guard let type = capture?.type else { return }
        if type == .xhtml {
            var byte = byte
            withUnsafePointer(to: &byte) { MarkupEscaping.appendEscaped(UnsafeBufferPointer(start: $0, count: 1), to: &capturedText) }
        } else {
            capturedText.append(byte)
        }
    }

    /// Serializes a start tag nested in captured HTML or XHTML.
    mutating func appendStartTag(_ name: String, attributes: XMLAttributes) {
        guard let type = capture?.type, type != .text else { return }
        capturedText.append(MarkupEscaping.startTag(name, attributes: attributes))
    }

    /// Serializes an end tag nested in captured HTML or XHTML.
    mutating func appendEndTag(_ name: String) {
        guard let type = capture?.type, type != .text, !MarkupEscaping.isVoidElement(name) else { return }
        capturedText.append("</\(name)>")
    }

    /// Stores a finished element's text in the field it stands for.
    mutating func finish(_ capture: Capture, base: URL?) {
        var text = capturedText
        if capture.isBase64 {
            guard let decoded = Data(base64Encoded: text.string, options: .ignoreUnknownCharacters) else { return }
            // Made a string first, so that what is not UTF-8 is repaired as any captured text is.
            text.removeAll()
            text.append(String(decoding: decoded, as: UTF8.self))
        }
        text.withUnsafeBufferPointer { store(CapturedText(bytes: $0, type: capture.type), in: capture.field, base: base) }
    }

    /// Each field made from the captured bytes directly, with one string for the value it keeps.
    private mutating func store(_ text: CapturedText, in field: Field, base: URL?) {
        switch field {
        case .feedTitle: feed.title = text.plain
        case .feedDescription: feed.description = text.plain
        case .feedLink: feed.link = resolveURL(text.trimmed, against: base) ?? feed.link
        case .feedID: feed.id = text.trimmed
        case .feedAuthor: feed.author = text.plain
        case .feedTTL: feed.ttlMinutes = text.trimmed.flatMap { Int($0) }
        case .feedUpdatePeriod: feed.updatePeriod = text.trimmed
        case .feedUpdateFrequency: feed.updateFrequency = text.trimmed.flatMap { Int($0) }
        case let .feedIcon(primary):
            if primary || feed.iconURL == nil { feed.iconURL = resolveURL(text.trimmed, against: base) ?? feed.iconURL }
        case let .title(primary): entry?.title.take(text.plain, primary: primary)
        case .link:
            // Resolve first: an optional-chained assignment holds `entry` while its right side runs.
            if let address = resolveAddress(text.trimmed, against: base) { entry?.link = address }
        case let .guid(isPermaLink):
            let id = text.trimmed
            entry?.id = id
            // The address's scheme is what comes before its first ':' exactly when it has one.
            if isPermaLink, let address = resolveAddress(id, against: base), address.hasPrefix("http"), hasScheme(address) {
                entry?.permalink = address
            }
        case .entryID: entry?.id = text.trimmed
        case let .author(primary, isRSSAddress):
            let name = text.plain.map { isRSSAddress ? PersonName.fromRSSAddress($0) : $0 }
            entry?.author.take(name, primary: primary)
        case let .published(primary): entry?.published.take(text.date, primary: primary)
        case let .updated(primary): entry?.updated.take(text.date, primary: primary)
        case let .summary(primary):
            entry?.summary.take(text.plain, primary: primary)
            entry?.summaryHTML.take(text.html, primary: primary)
        case .content:
            if let html = text.html { entry?.content = html }
        }
    }
}

/// A finished element's text as the UTF-8 it was captured in, read each way a field needs.
private struct CapturedText {
    let bytes: UnsafeBufferPointer<UInt8>
    let type: XMLFeedState.TextType

    /// The text without ASCII whitespace at either end; nil when nothing else is left.
    var trimmed: String? {
        let visible = visibleBytes
        return visible.isEmpty ? nil : String(decoding: visible, as: UTF8.self)
    }

    /// As plain text: markup removed and entities decoded unless it is plain text already, whitespace collapsed.
    var plain: String? {
        // Most titles and names are plain already, and are then taken as they are.
        if isPlainAlready { return String(decoding: bytes, as: UTF8.self) }
        return switch type {
        case .text: nonEmpty(HTMLText.collapsingWhitespace(bytes))
        case .html, .xhtml: nonEmpty(HTMLText.plainText(fromHTML: bytes))
        }
    }

    /// As HTML: plain text escaped.
    var html: String? { type == .text ? trimmed.map(MarkupEscaping.escaped) : trimmed }

    var date: Date? {
        let visible = visibleBytes
        return visible.isEmpty ? nil : FeedDate.parse(visible)
    }

    /// Whether `plain` would give the bytes back as they are: no whitespace at either end, no
    /// whitespace but single spaces, no possible no-break space, and in HTML no markup or reference.
    private var isPlainAlready: Bool {
        guard let first = bytes.first, let last = bytes.last, !first.isASCIIWhitespace, !last.isASCIIWhitespace else { return false }
        let isHTML = type != .text
        var afterSpace = false
        for byte in bytes {
            if byte == 0x20 {
                if afterSpace { return false }
                afterSpace = true
                continue
            }
            afterSpace = false
            if byte.isASCIIWhitespace || byte == 0xC2 { return false }
            if isHTML, byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { return false }
        }
        return true
    }

    private var visibleBytes: UnsafeBufferPointer<UInt8> {
        guard let first = bytes.firstIndex(where: { !$0.isASCIIWhitespace }),
              let last = bytes.lastIndex(where: { !$0.isASCIIWhitespace }) else {
            return UnsafeBufferPointer(start: bytes.baseAddress, count: 0)
        }
        return UnsafeBufferPointer(rebasing: bytes[first...last])
    }
}

private extension Optional {
    /// Takes `value` when it comes from a primary source, which replaces an earlier value, or
    /// when it fills a gap, as a fallback only may.
    mutating func take(_ value: Wrapped?, primary: Bool) {
        guard let value, primary || self == nil else { return }
        self = value
    }
}
