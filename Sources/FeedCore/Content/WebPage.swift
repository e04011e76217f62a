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

    /// The body with `loadNothingPolicy` placed first in the document: after the doctype, which
    /// must stay first so the page is laid out in standards mode, else at the very start.
    public var lockedDownBody: Data {
        let bytes = [UInt8](body)
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
        return locked
    }
}

extension FeedFetcher {
    /// Reads the web page at `url`, a file or an http(s) address whose redirects are followed,
    /// within the fetcher's time and size limits.
    public func fetchPage(_ url: URL) async throws(FetchError) -> WebPage {
        switch url.scheme?.lowercased() {
        case "file":
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
                guard ["http", "https"].contains(next.scheme?.lowercased() ?? "") else {
                    throw .badRedirect("refusing to follow a redirect to \(next.absoluteString)")
                }
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
