import Foundation

extension XMLFeedState {
    /// Adds character data to the element being captured, escaping it inside inline XHTML.
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        guard capture != nil else { return }
        if capture?.type == .xhtml {
            MarkupEscaping.appendEscaped(text, to: &capturedText)
        } else {
            capturedText.append(contentsOf: text)
        }
    }

    /// Serializes a start tag nested in captured HTML or XHTML.
    mutating func appendStartTag(_ name: String, attributes: XMLAttributes) {
        guard let type = capture?.type, type != .text else { return }
        capturedText.append(contentsOf: MarkupEscaping.startTag(name, attributes: attributes).utf8)
    }

    /// Serializes an end tag nested in captured HTML or XHTML.
    mutating func appendEndTag(_ name: String) {
        guard let type = capture?.type, type != .text, !MarkupEscaping.isVoidElement(name) else { return }
        capturedText.append(contentsOf: "</\(name)>".utf8)
    }

    /// Stores a finished element's text in the field it stands for.
    mutating func finish(_ capture: Capture, base: URL?) {
        var raw = String(decoding: capturedText, as: UTF8.self)
        if capture.isBase64 {
            guard let decoded = Data(base64Encoded: raw, options: .ignoreUnknownCharacters) else { return }
            raw = String(decoding: decoded, as: UTF8.self)
        }
        let plain: () -> String? = {
            switch capture.type {
            case .text: nonEmpty(HTMLText.collapsingWhitespace(raw))
            case .html, .xhtml: nonEmpty(HTMLText.plainText(fromHTML: raw))
            }
        }
        let trimmed = { nonEmpty(raw.trimmingWhitespace) }
        let html = { capture.type == .text ? trimmed().map(MarkupEscaping.escaped) : trimmed() }
        switch capture.field {
        case .feedTitle: feed.title = plain()
        case .feedDescription: feed.description = plain()
        case .feedLink: feed.link = resolveURL(raw, against: base) ?? feed.link
        case .feedID: feed.id = trimmed()
        case .feedAuthor: feed.author = plain()
        case .feedTTL: feed.ttlMinutes = trimmed().flatMap { Int($0) }
        case .feedUpdatePeriod: feed.updatePeriod = trimmed()
        case .feedUpdateFrequency: feed.updateFrequency = trimmed().flatMap { Int($0) }
        case let .feedIcon(primary):
            if primary || feed.iconURL == nil { feed.iconURL = resolveURL(raw, against: base) ?? feed.iconURL }
        case let .title(primary): entry?.title.take(plain(), primary: primary)
        case .link:
            // Resolve first: an optional-chained assignment holds `entry` while its right side runs.
            if let url = resolveURL(raw, against: base) { entry?.link = url }
        case let .guid(isPermaLink):
            entry?.id = trimmed()
            if isPermaLink, let url = resolveURL(raw, against: base), url.scheme?.hasPrefix("http") == true {
                entry?.permalink = url
            }
        case .entryID: entry?.id = trimmed()
        case let .author(primary, isRSSAddress):
            let name = plain().map { isRSSAddress ? PersonName.fromRSSAddress($0) : $0 }
            entry?.author.take(name, primary: primary)
        case let .published(primary): entry?.published.take(trimmed().flatMap(FeedDate.parse), primary: primary)
        case let .updated(primary): entry?.updated.take(trimmed().flatMap(FeedDate.parse), primary: primary)
        case let .summary(primary):
            entry?.summary.take(plain(), primary: primary)
            entry?.summaryHTML.take(html(), primary: primary)
        case .content:
            if let html = html() { entry?.content = html }
        }
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
