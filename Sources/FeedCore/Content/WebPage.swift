import Foundation

/// A web page as served, to extract its readable article from.
public struct WebPage: Sendable {
    /// The body's bytes, in the page's own encoding.
    public var body: Data
    /// Where the page was read from, after redirects: relative links resolve against it.
    public var url: URL
    /// The `charset` of the page's Content-Type header, when it named one.
    public var charset: String?

    /// Creates a page.
    public init(body: Data, url: URL, charset: String? = nil) {
        self.body = body
        self.url = url
        self.charset = charset
    }

    /// The policy that keeps a page from loading anything: no script, style sheet, image, font or
    /// frame. Extraction reads only the markup, so nothing leaves the app for the page's parts.
    public static let loadNothingPolicy = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">"

    /// The page as WebKit is given it: in an encoding whose ASCII characters are ASCII bytes,
    /// with `loadNothingPolicy` placed first in the document and its `<link>` elements inert.
    ///
    /// The policy goes after the doctype, which must stay first so the page is laid out in
    /// standards mode, else at the very start. `<link>` elements become `<meta>` ones, which have
    /// the same length and load nothing: WebKit opens a connection for `<link rel="preconnect">`
    /// (and looks up a name for `dns-prefetch`) whatever the policy says, which would tell a host
    /// of the page's choosing that it is read. The tags are found in the bytes, so a page in
    /// UTF-16, UTF-32 or ISO-2022, where a tag is not its ASCII bytes, is first made UTF-8.
    public var lockedDown: WebPage {
        var page = inASCIICompatibleEncoding
        var bytes = [UInt8](page.body)
        Self.neutralizeLinks(&bytes)
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, bytes[start].isASCIIWhitespace { start += 1 }
        var insertion = 0
        let doctype = Array("<!doctype".utf8)
        if bytes.count >= start + doctype.count,
           zip(doctype, bytes[start..<start + doctype.count]).allSatisfy({ $0 == ($1 | ($1.isASCIILetter ? 0x20 : 0)) }),
           let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")) {
            insertion = end + 1
        }
        var locked = Data(bytes[..<insertion])
        locked.append(contentsOf: Self.loadNothingPolicy.utf8)
        locked.append(contentsOf: bytes[insertion...])
        page.body = locked
        return page
    }

    /// The page itself when a browser reads its tags as ASCII bytes, else the page made UTF-8
    /// (and said to be, which outranks any charset its markup names).
    ///
    /// The encoding is the one a browser takes: a byte order mark, else the Content-Type's
    /// charset, else a `charset=` in the first 1,024 bytes. Such a declaration can name
    /// ISO-2022, not UTF-16 or UTF-32, which browsers read there as UTF-8.
    var inASCIICompatibleEncoding: WebPage {
        let encoding: String
        if body.starts(with: [0xFE, 0xFF]) {
            encoding = "UTF-16BE"
        } else if body.starts(with: [0xFF, 0xFE]) {
            encoding = "UTF-16LE"
        } else if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            return self
        } else if let charset, let wide = Self.asciiIncompatibleEncoding(forLabel: charset, declaredInMarkup: false) {
            encoding = wide
        } else if charset == nil, let label = Self.charsetInMarkup(body.prefix(1024)),
                  let stateful = Self.asciiIncompatibleEncoding(forLabel: label, declaredInMarkup: true) {
            encoding = stateful
        } else {
            return self
        }
        guard let utf8 = TextDecoding.utf8(body, from: encoding) else { return self }
        return WebPage(body: utf8, url: url, charset: "utf-8")
    }

    /// The iconv name of the encoding `label` names when ASCII characters are not their ASCII
    /// bytes in it, else nil. Browsers read a bare "utf-16" as little-endian.
    private static func asciiIncompatibleEncoding(forLabel label: String, declaredInMarkup: Bool) -> String? {
        let key = label.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\"'"))).lowercased()
        if key.hasPrefix("iso-2022") || key.hasPrefix("csiso2022") {
            return TextDecoding.iconvName(forLabel: key)
        }
        guard !declaredInMarkup else { return nil }
        switch key {
        case "utf-16", "utf-16le", "unicode", "ucs-2", "csunicode", "unicodefeff", "iso-10646-ucs-2": return "UTF-16LE"
        case "utf-16be", "unicodefffe": return "UTF-16BE"
        case "utf-32", "utf-32le": return "UTF-32LE"
        case "utf-32be": return "UTF-32BE"
        default: return nil
        }
    }

    /// The label after the first `charset=` in `bytes`, as a `<meta>` declares it.
    private static func charsetInMarkup(_ bytes: Data) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: "charset=", options: .caseInsensitive) else { return nil }
        let label = text[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0.isWhitespace }
            .prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return label.isEmpty ? nil : String(label)
    }

    /// Turns every `<link` tag in `bytes` into `<meta`, in place.
    private static func neutralizeLinks(_ bytes: inout [UInt8]) {
        let link = Array("link".utf8)
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let name = open + 1
            index = name
            guard bytes.count >= name + link.count,
                  zip(link, bytes[name..<name + link.count]).allSatisfy({ $0 == ($1 | ($1.isASCIILetter ? 0x20 : 0)) }) else { continue }
            let after = name + link.count
            guard after == bytes.count || bytes[after].isASCIIWhitespace || bytes[after] == UInt8(ascii: "/")
                    || bytes[after] == UInt8(ascii: ">") else { continue }
            bytes.replaceSubrange(name..<after, with: "meta".utf8)
            index = after
        }
    }
}

extension FeedFetcher {
    /// Reads the web page at `url`, an http(s) address whose redirects are followed, within the
    /// fetcher's time and size limits.
    ///
    /// A `file:` address is read only when `readsFiles`: for an address the user gave, or a link
    /// in a feed that is a local file itself. A link from a web feed or a sync server is refused
    /// before the path is looked at, so it learns nothing about the disk, not even what exists.
    public func fetchPage(_ url: URL, readsFiles: Bool = false) async throws(FetchError) -> WebPage {
        switch url.scheme?.lowercased() {
        case "file":
            guard readsFiles else { throw .localFileRefused }
            return WebPage(body: try readFileBytes(url).get(), url: url)
        case "http", "https":
            return try await fetchHTTPPage(url)
        case let scheme:
            throw .unsupportedScheme(scheme ?? url.absoluteString)
        }
    }

    private func fetchHTTPPage(_ url: URL) async throws(FetchError) -> WebPage {
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.timeout
        var current = url
        for _ in 0...configuration.maxRedirects {
            let remaining = deadline - clock.now
            guard remaining > .zero else { throw .timedOut(after: configuration.timeout) }
            let hop = await HTTPTransfer(url: current, headers: [("Accept", "text/html, application/xhtml+xml;q=0.9, */*;q=0.5")],
                                         userAgent: configuration.userAgent, limit: configuration.maxBodySize,
                                         timeout: remaining).perform()
            let response: HTTPHop
            switch hop {
            case let .success(success): response = success
            case let .failure(failure): throw fetchError(for: failure, url: current)
            }
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["location"], let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw .badRedirect("\(response.status) without a Location")
                }
                if let refused = Self.refusedRedirect(to: next) { throw refused }
                current = next
            case 200..<300:
                return WebPage(body: response.body, url: current, charset: Self.charset(inContentType: response.headers["content-type"]))
            default:
                throw .httpStatus(response.status)
            }
        }
        throw .tooManyRedirects(limit: configuration.maxRedirects)
    }
}
