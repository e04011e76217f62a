import Foundation

/// Makes an entry's published HTML safe to show: only an allow-list of elements, attributes and
/// URL schemes survives, and the result is well-formed, so it cannot close the page around it.
///
/// It reads its input once: the work grows linearly with the input, however hostile the input
/// is, as an element keeps at most `maxAttributes` attributes and at most `maxDepth` elements
/// stay open.
///
/// Scripts, styles, frames, plugins and forms go with their content; other unknown elements
/// lose their tags but keep their text. MathML formulas stay: their presentation elements with
/// attributes that only lay them out (never a link, a source or a style). Event handlers,
/// `style`, `class` and `id` attributes are dropped. Links keep only http, https and mailto; images also `data:` raster images. Relative
/// references are resolved against `base`.
public enum HTMLSanitizer {
    /// The sanitized form of `html`, with relative URLs resolved against `base`.
    public static func sanitize(_ html: String, base: URL?) -> String {
        var writer = SanitizingWriter(bytes: Array(html.utf8), base: base)
        return writer.run()
    }

    /// Elements kept with their allowed attributes.
    static let allowedElements = Set<String>([
        "a", "abbr", "acronym", "address", "article", "aside", "b", "bdi", "bdo", "big", "blockquote", "br",
        "caption", "center", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt",
        "em", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img",
        "ins", "kbd", "li", "main", "mark", "nav", "ol", "p", "pre", "q", "rp", "rt", "ruby", "s", "samp",
        "section", "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot",
        "th", "thead", "time", "tr", "tt", "u", "ul", "var", "wbr",
    ]).union(mathElements)

    /// MathML's presentation elements (MathML Core and the common ones beyond it). Not
    /// `annotation-xml`, which may hold HTML or SVG, nor `maction` and `mglyph`, which act or load.
    static let mathElements: Set<String> = [
        "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "mfrac", "msqrt",
        "mroot", "mstyle", "merror", "mpadded", "mphantom", "mfenced", "menclose", "msub", "msup", "msubsup",
        "munder", "mover", "munderover", "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mtd", "mlabeledtr",
    ]

    /// The attributes a MathML element keeps: how it is laid out, nothing that links or loads.
    static let mathAttributes: Set<String> = [
        "display", "displaystyle", "scriptlevel", "mathvariant", "mathsize", "form", "fence", "separator", "stretchy",
        "symmetric", "largeop", "movablelimits", "accent", "accentunder", "lspace", "rspace", "minsize", "maxsize",
        "linethickness", "numalign", "denomalign", "bevelled", "width", "height", "depth", "voffset", "notation",
        "open", "close", "separators", "columnalign", "rowalign", "columnspan", "rowspan", "columnlines", "rowlines",
        "frame", "columnspacing", "rowspacing", "encoding", "alttext",
    ]

    /// Elements dropped together with everything inside them.
    static let droppedWithContent: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "input", "button",
        "select", "textarea", "noscript", "template", "svg", "annotation-xml", "head", "title", "meta", "link", "base",
        "audio", "video", "canvas", "noembed", "noframes", "xmp", "plaintext",
    ]

    /// Elements whose content is raw text: no tags are recognised inside until their end tag.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp", "noembed", "noframes", "noscript", "plaintext"]

    /// Attributes allowed on every kept element.
    static let globalAttributes: Set<String> = ["title", "lang", "dir"]

    /// Attributes allowed on particular elements, beyond the global ones.
    static let elementAttributes: [String: Set<String>] = [
        "a": ["href"],
        "img": ["src", "alt", "width", "height"],
        "td": ["colspan", "rowspan", "headers"],
        "th": ["colspan", "rowspan", "headers", "scope", "abbr"],
        "col": ["span"], "colgroup": ["span"],
        "ol": ["start", "reversed", "type"], "li": ["value"],
        "blockquote": ["cite"], "q": ["cite"], "del": ["cite", "datetime"], "ins": ["cite", "datetime"],
        "time": ["datetime"], "bdo": ["dir"], "details": ["open"],
    ]

    /// How many attributes of one tag are read; later ones are dropped, as no allowed element
    /// needs more than a few.
    static let maxAttributes = 32

    /// How many elements may be open inside one another; deeper start tags are dropped, their
    /// text kept. WebKit's parser stops nesting at 512.
    static let maxDepth = 256

    /// Attributes holding a URL, checked against the allowed schemes.
    static let urlAttributes: Set<String> = ["href", "src", "cite"]

    /// The URL an attribute may keep after resolving it, or nil to drop the attribute.
    static func safeURL(_ value: String, attribute: String, base: URL?) -> String? {
        // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
        let compact = String(value.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        let lowered = compact.lowercased()
        if lowered.hasPrefix("data:") {
            let rasterImages = ["data:image/png", "data:image/jpeg", "data:image/gif", "data:image/webp", "data:image/avif"]
            guard attribute == "src", rasterImages.contains(where: { lowered.hasPrefix($0 + ";") || lowered.hasPrefix($0 + ",") }) else {
                return nil
            }
            return compact
        }
        guard let url = resolveURL(value, against: base), let scheme = url.scheme?.lowercased() else { return nil }
        let allowed: Set<String> = attribute == "href" ? ["http", "https", "mailto"] : ["http", "https"]
        return allowed.contains(scheme) ? url.absoluteString : nil
    }
}

/// One pass over the HTML's bytes, writing the allowed parts and keeping the open elements
/// balanced. Every delimiter is ASCII, so slicing the UTF-8 bytes never splits a character.
private struct SanitizingWriter {
    let bytes: [UInt8]
    let base: URL?
    var output: [UInt8] = []
    /// Allowed elements opened and not yet closed, innermost last.
    var open: [String] = []
    /// How many of `open` have each name, so an end tag with none open is dropped without a search.
    var openCounts: [String: Int] = [:]
    var index = 0

    init(bytes: [UInt8], base: URL?) {
        self.bytes = bytes
        self.base = base
        output.reserveCapacity(bytes.count)
    }

    mutating func run() -> String {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                markup()
            } else {
                text()
            }
        }
        for name in open.reversed() {
            write("</\(name)>")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Copies text up to the next `<`; `>` is escaped so nothing after it can read as markup.
    private mutating func text() {
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == UInt8(ascii: ">") {
                write("&gt;")
            } else {
                output.append(bytes[index])
            }
            index += 1
        }
    }

    private mutating func markup() {
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if startsWith("<!--", at: index) {
            index = find("-->", from: index + 4).map { $0 + 3 } ?? bytes.count
        } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
            // Doctypes, CDATA sections and processing instructions carry nothing to show.
            index = find(">", from: index).map { $0 + 1 } ?? bytes.count
        } else if next == UInt8(ascii: "/"), index + 2 < bytes.count, bytes[index + 2].isASCIILetter {
            let tag = readTag(from: index + 2)
            index = tag.end
            close(tag.name)
        } else if next.isASCIILetter {
            let tag = readTag(from: index + 1)
            index = tag.end
            // A tag the input cuts off is not markup a browser would act on either.
            if tag.isComplete { start(tag) }
        } else {
            write("&lt;")
            index += 1
        }
    }

    private mutating func start(_ tag: Tag) {
        let name = tag.name
        if HTMLSanitizer.droppedWithContent.contains(name) {
            if !tag.selfClosing, !MarkupEscaping.isVoidElement(name) { skipContent(of: name) }
            return
        }
        guard HTMLSanitizer.allowedElements.contains(name) else { return }
        let isVoid = MarkupEscaping.isVoidElement(name)
        guard isVoid || open.count < HTMLSanitizer.maxDepth else { return }
        var attributes = ""
        var hasSource = false
        let isMath = HTMLSanitizer.mathElements.contains(name)
        let allowed = isMath ? HTMLSanitizer.mathAttributes : HTMLSanitizer.elementAttributes[name] ?? []
        for (key, value) in tag.attributes where HTMLSanitizer.globalAttributes.contains(key) || allowed.contains(key) {
            var kept = value
            if HTMLSanitizer.urlAttributes.contains(key) {
                guard let url = HTMLSanitizer.safeURL(value, attribute: key, base: base) else { continue }
                kept = url
            }
            attributes += " \(key)=\"\(MarkupEscaping.escaped(kept))\""
            if key == "src" { hasSource = true }
        }
        if name == "img" && !hasSource { return }
        write("<\(name)\(attributes)>")
        // In MathML, as in all foreign content, `<mspace/>` is a whole element.
        if isMath, tag.selfClosing {
            write("</\(name)>")
        } else if !isVoid {
            open.append(name)
            openCounts[name, default: 0] += 1
        }
    }

    /// Closes `name` and anything opened inside it; an end tag with no open element is dropped.
    /// Each element closed is searched past once, so closing costs what opening did.
    private mutating func close(_ name: String) {
        guard openCounts[name, default: 0] > 0, let position = open.lastIndex(of: name) else { return }
        for inner in open[position...].reversed() {
            write("</\(inner)>")
            openCounts[inner, default: 0] -= 1
        }
        open.removeSubrange(position...)
    }

    /// Skips to after the element's end tag, counting nested elements of the same name unless
    /// its content is raw text.
    private mutating func skipContent(of name: String) {
        let closing = Array("</\(name)".utf8)
        if HTMLSanitizer.rawTextElements.contains(name) {
            index = findIgnoringCase(closing, from: index).map { find(">", from: $0).map { $0 + 1 } ?? bytes.count } ?? bytes.count
            return
        }
        var depth = 1
        while index < bytes.count {
            guard let lt = find("<", from: index) else { index = bytes.count; return }
            index = lt
            if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                let tag = readTag(from: index + 2)
                index = tag.end
                if tag.name == name { depth -= 1 }
                if depth == 0 { return }
            } else if index + 1 < bytes.count, bytes[index + 1].isASCIILetter {
                let tag = readTag(from: index + 1)
                index = tag.end
                if tag.name == name, !tag.selfClosing { depth += 1 }
            } else {
                index += 1
            }
        }
    }

    struct Tag {
        var name: String
        var attributes: [(String, String)] = []
        var selfClosing = false
        var isComplete = false
        var end: Int
    }

    /// Reads a tag's name and attributes from just after `<` or `</` up to and past its `>`.
    private func readTag(from start: Int) -> Tag {
        var position = start
        while position < bytes.count, !isTagBoundary(bytes[position]) { position += 1 }
        var tag = Tag(name: String(decoding: bytes[start..<position], as: UTF8.self).lowercased(), end: position)
        var names = Set<String>()
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") {
                tag.end = position + 1
                tag.isComplete = true
                return tag
            }
            if byte.isASCIIWhitespace || byte == UInt8(ascii: "/") {
                tag.selfClosing = byte == UInt8(ascii: "/")
                position += 1
                continue
            }
            tag.selfClosing = false
            let nameStart = position
            while position < bytes.count, !isTagBoundary(bytes[position]), bytes[position] != UInt8(ascii: "=") { position += 1 }
            let nameEnd = position
            while position < bytes.count, bytes[position].isASCIIWhitespace { position += 1 }
            var valueRange: Range<Int>?
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                while position < bytes.count, bytes[position].isASCIIWhitespace { position += 1 }
                let valueStart: Int, valueEnd: Int
                if position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                    let quote = bytes[position]
                    valueStart = position + 1
                    valueEnd = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
                    position = min(valueEnd + 1, bytes.count)
                } else {
                    valueStart = position
                    while position < bytes.count, !bytes[position].isASCIIWhitespace, bytes[position] != UInt8(ascii: ">") { position += 1 }
                    valueEnd = position
                }
                valueRange = valueStart..<valueEnd
            }
            // As in browsers, the first of attributes sharing a name counts.
            guard nameStart < nameEnd, tag.attributes.count < HTMLSanitizer.maxAttributes else { continue }
            let key = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self).lowercased()
            if names.insert(key).inserted {
                tag.attributes.append((key, valueRange.map { decodingEntities(String(decoding: bytes[$0], as: UTF8.self)) } ?? ""))
            }
        }
        tag.end = bytes.count
        return tag
    }

    private func isTagBoundary(_ byte: UInt8) -> Bool {
        byte.isASCIIWhitespace || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    /// Attribute values as the browser would read them, so checks see `&#106;avascript:` for what it is.
    private func decodingEntities(_ value: String) -> String {
        guard value.contains("&") else { return value }
        var result = ""
        var rest = Substring(value)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            let nameEnd = rest[afterAmp...].firstIndex(where: { !($0.isLetter || $0.isNumber || $0 == "#") }) ?? rest.endIndex
            let name = rest[afterAmp..<nameEnd]
            if !name.isEmpty, let scalar = HTMLText.decodeEntity(name) {
                result.unicodeScalars.append(scalar)
                rest = nameEnd < rest.endIndex && rest[nameEnd] == ";" ? rest[rest.index(after: nameEnd)...] : rest[nameEnd...]
            } else {
                result += "&"
                rest = rest[afterAmp...]
            }
        }
        return result + rest
    }

    private mutating func write(_ string: String) {
        output.append(contentsOf: string.utf8)
    }

    private func startsWith(_ literal: StaticString, at position: Int) -> Bool {
        bytes.withUnsafeBufferPointer { $0.matches(literal, at: position) }
    }

    private func find(_ literal: StaticString, from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { $0.find(literal, from: start) }
    }

    private func findIgnoringCase(_ needle: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var position = start
        while position + needle.count <= bytes.count {
            if zip(needle, bytes[position..<position + needle.count]).allSatisfy({ $0 == ($1 | ($1.isASCIILetter ? 0x20 : 0)) }) {
                return position
            }
            position += 1
        }
        return nil
    }
}
