import Foundation

/// A feed found for an address a person typed: the feed itself, one a web page links to, or
/// one at a path sites conventionally use.
public struct FeedCandidate: Sendable, Hashable {
    public var url: URL
    /// The feed's title from the page's link or from the feed itself, when known.
    public var title: String?

    public init(url: URL, title: String? = nil) {
        self.url = url
        self.title = title
    }
}

/// Finding a site's feeds from one of its web pages.
public enum FeedDiscovery {
    /// The `<link>` types that name a feed.
    static let feedTypes: Set<String> = [
        "application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+json", "application/json",
    ]

    /// Where sites without alternate links usually keep their feed, tried in this order.
    public static let conventionalPaths = ["/feed", "/rss", "/atom.xml", "/index.xml"]

    /// The most feeds a page may offer: a real site links a handful, and a page is not allowed
    /// to fill the Add Feed dialog with thousands.
    public static let maxCandidates = 50

    /// The feeds `html` links to with `<link rel="alternate">` (RSS, Atom, JSON Feed), in page
    /// order without repeats, resolved against the page's `<base href>` or else `pageURL`; the
    /// first `maxCandidates` of them.
    public static func alternateLinks(inHTML html: Data, pageURL: URL) -> [FeedCandidate] {
        let text = String(decoding: html.prefix(1 << 20), as: UTF8.self)
        var base = pageURL
        var candidates: [FeedCandidate] = []
        var seen: Set<URL> = []
        for tag in tags(in: text) {
            guard candidates.count < maxCandidates else { break }
            switch tag.name {
            case "base":
                if let href = tag.attributes["href"], let url = URL(string: href, relativeTo: pageURL)?.absoluteURL { base = url }
            case "link":
                let rel = Set((tag.attributes["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
                let type = (tag.attributes["type"] ?? "").lowercased().split(separator: ";").first.map {
                    $0.trimmingCharacters(in: .whitespaces)
                } ?? ""
                guard rel.contains("alternate"), feedTypes.contains(type), let href = tag.attributes["href"],
                      let url = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL,
                      ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                      seen.insert(url).inserted
                else { continue }
                candidates.append(FeedCandidate(url: url, title: tag.attributes["title"].flatMap { $0.isEmpty ? nil : $0 }))
            default:
                continue
            }
        }
        return candidates
    }

    private struct Tag {
        var name: String
        var attributes: [String: String]
    }

    /// The `<base>` and `<link>` start tags of an HTML document with their attributes, entities
    /// in values decoded. A lenient scan: pages are rarely valid XML.
    private static func tags(in text: String) -> [Tag] {
        var tags: [Tag] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            let name = String(rest.prefix { $0.isLetter }).lowercased()
            guard name == "link" || name == "base" else {
                if name == "body" { break }
                continue
            }
            rest = rest.dropFirst(name.count)
            var attributes: [String: String] = [:]
            while true {
                rest = rest.drop { $0.isWhitespace || $0 == "/" }
                guard let first = rest.first, first != ">" else { break }
                let attribute = String(rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != ">" && $0 != "/" }).lowercased()
                rest = rest.dropFirst(max(1, attribute.count))
                rest = rest.drop(while: \.isWhitespace)
                var value = ""
                if rest.first == "=" {
                    rest = rest.dropFirst().drop(while: \.isWhitespace)
                    if let quote = rest.first, quote == "\"" || quote == "'" {
                        rest = rest.dropFirst()
                        value = String(rest.prefix { $0 != quote })
                        rest = rest.dropFirst(value.count + 1)
                    } else {
                        value = String(rest.prefix { !$0.isWhitespace && $0 != ">" })
                        rest = rest.dropFirst(value.count)
                    }
                }
                if !attribute.isEmpty, attributes[attribute] == nil { attributes[attribute] = decodeEntities(value) }
            }
            tags.append(Tag(name: name, attributes: attributes))
        }
        return tags
    }

    /// `&amp;`-style and numeric character references in an attribute value.
    private static func decodeEntities(_ value: String) -> String {
        guard value.contains("&") else { return value }
        var result = ""
        var rest = Substring(value)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            if let scalar = HTMLText.decodeEntity(rest[rest.index(after: rest.startIndex)..<semicolon]) {
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }
}

extension FeedLibrary {
    /// The feeds for an address a person typed: the address itself when it is a feed, else the
    /// feeds its page links to, else those at the conventional paths of its site.
    ///
    /// - Throws: `.invalidAddress` for text that is no address, `.fetchFailed` when the address
    ///   cannot be fetched, `.noFeedFound` when its page leads to no feed.
    public func findFeeds(for text: String) async throws(SubscribeError) -> [FeedCandidate] {
        guard let url = Self.feedURL(from: text) else { throw .invalidAddress(text) }
        let direct = await fetcher.fetch(FeedRequest(url: url))
        if case let .fetched(feed, _) = direct.outcome { return [FeedCandidate(url: url, title: feed.feed.title)] }
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? ""), case .failed(.invalidFeed) = direct.outcome,
              let page = await page(at: url) else {
            throw direct.error.map { .fetchFailed($0) } ?? .noFeedFound
        }
        let linked = FeedDiscovery.alternateLinks(inHTML: page.body, pageURL: page.url)
        if !linked.isEmpty { return linked }
        var origin = URLComponents(url: page.url, resolvingAgainstBaseURL: false) ?? URLComponents()
        origin.query = nil
        origin.fragment = nil
        let tries = FeedDiscovery.conventionalPaths.compactMap { path -> URL? in
            origin.path = path
            return origin.url
        }
        let found = zip(tries, await fetcher.fetchAll(tries.map { FeedRequest(url: $0) })).compactMap { url, result -> FeedCandidate? in
            guard case let .fetched(feed, _) = result.outcome else { return nil }
            return FeedCandidate(url: url, title: feed.feed.title)
        }
        guard !found.isEmpty else { throw .noFeedFound }
        return found
    }

    /// The body of the web page at `url` after redirects, and where it ended up; nil on failure.
    private func page(at url: URL) async -> (body: Data, url: URL)? {
        let configuration = fetcher.configuration
        var current = url
        for _ in 0...configuration.maxRedirects {
            let hop = await HTTPTransfer(url: current, headers: [("Accept", "text/html, application/xhtml+xml;q=0.9, */*;q=0.5")],
                                         userAgent: configuration.userAgent, limit: configuration.maxBodySize,
                                         timeout: configuration.timeout).perform()
            guard case let .success(response) = hop else { return nil }
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["location"], let next = URL(string: location, relativeTo: current)?.absoluteURL,
                      ["http", "https"].contains(next.scheme?.lowercased() ?? "") else { return nil }
                current = next
            case 200..<300:
                return (response.body, current)
            default:
                return nil
            }
        }
        return nil
    }
}
