import Foundation

/// Downloads and parses feeds over http(s) or from files, with timeouts, size caps,
/// conditional GET and bounded parallelism.
///
/// Each fetch returns a `FetchResult` rather than throwing, so a batch always completes.
/// The fetcher is `Sendable` and all its work is asynchronous: call it from any task.
public final class FeedFetcher: Sendable {
    /// Limits and identity for a fetcher.
    public struct Configuration: Sendable {
        /// The longest a single fetch may take, redirects included.
        public var timeout: Duration
        /// The largest body accepted, as received and after decompression alike.
        public var maxBodySize: Int
        /// How many feeds are downloaded at once, from all hosts together.
        public var maxConcurrentFetches: Int
        /// How many of them one host is sent at once, so that many feeds of one site never crowd it.
        public var maxFetchesPerHost: Int
        /// How many redirects are followed before giving up.
        public var maxRedirects: Int
        /// The `User-Agent` header.
        public var userAgent: String

        /// Creates a configuration; the defaults suit a desktop reader.
        public init(
            timeout: Duration = .seconds(15),
            maxBodySize: Int = FeedParser.defaultMaxDocumentSize,
            maxConcurrentFetches: Int = 16,
            maxFetchesPerHost: Int = 4,
            maxRedirects: Int = 10,
            userAgent: String = "feed-reader/1.0 (FeedCore)"
        ) {
            self.timeout = timeout
            self.maxBodySize = maxBodySize
            self.maxConcurrentFetches = maxConcurrentFetches
            self.maxFetchesPerHost = maxFetchesPerHost
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
        }

        /// How many fetches run at once where they are not queued by host: no more than one host
        /// may be sent, as they may all go to one.
        public var maxFetchesOfAnyHost: Int { max(1, min(maxConcurrentFetches, maxFetchesPerHost)) }
    }

    /// The limits this fetcher applies.
    public let configuration: Configuration

    /// Creates a fetcher.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Fetches and parses one feed.
    public func fetch(_ request: FeedRequest) async -> FetchResult {
        switch request.url.scheme?.lowercased() {
        case "http", "https":
            return await fetchHTTP(request)
        case "file":
            return FetchResult(request: request, outcome: readFile(request.url))
        case let scheme:
            return FetchResult(request: request, outcome: .failed(.unsupportedScheme(scheme ?? request.url.absoluteString)))
        }
    }

    /// Fetches many feeds, at most `configuration.maxFetchesOfAnyHost` at a time,
    /// returning their results in the order of `requests`.
    public func fetchAll(_ requests: [FeedRequest]) async -> [FetchResult] {
        await withTaskGroup(of: (Int, FetchResult).self) { group in
            var results: [FetchResult?] = Array(repeating: nil, count: requests.count)
            var next = 0
            func startNext() {
                guard next < requests.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await self.fetch(requests[index])) }
            }
            for _ in 0..<configuration.maxFetchesOfAnyHost {
                startNext()
            }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
            return results.compactMap { $0 }
        }
    }

    // MARK: - HTTP

    private func fetchHTTP(_ request: FeedRequest) async -> FetchResult {
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.timeout
        var url = request.url
        var permanentRedirect: URL?
        var movesArePermanent = true
        for _ in 0...configuration.maxRedirects {
            let remaining = deadline - clock.now
            guard remaining > .zero else {
                return FetchResult(request: request, outcome: .failed(.timedOut(after: configuration.timeout)), permanentRedirect: permanentRedirect)
            }
            let hop = await HTTPTransfer(
                url: url,
                headers: requestHeaders(validators: request.validators) + (request.authorization(for: url).map { [("Authorization", $0)] } ?? []),
                userAgent: request.userAgent ?? configuration.userAgent,
                limit: configuration.maxBodySize,
                timeout: remaining
            ).perform()
            let response: HTTPHop
            switch hop {
            case let .success(success):
                response = success
            case let .failure(failure):
                return FetchResult(request: request, outcome: .failed(fetchError(for: failure, url: url)), permanentRedirect: permanentRedirect)
            }
            let status = response.status
            let directives = ServerDirectives(headers: response.headers, receivedAt: Date())
            switch status {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["location"],
                      let next = URL(string: location, relativeTo: url)?.absoluteURL
                else {
                    return FetchResult(request: request, outcome: .failed(.badRedirect("\(status) without a Location")), permanentRedirect: permanentRedirect)
                }
                if let refused = Self.refusedRedirect(to: next) {
                    return FetchResult(request: request, outcome: .failed(refused), permanentRedirect: permanentRedirect)
                }
                // Only a chain of permanent moves from the stored address changes it.
                movesArePermanent = movesArePermanent && (status == 301 || status == 308)
                if movesArePermanent {
                    permanentRedirect = next
                }
                url = next
            case 304:
                return FetchResult(request: request, outcome: .notModified, permanentRedirect: permanentRedirect, directives: directives)
            case 200..<300:
                let validators = CacheValidators(etag: response.headers["etag"], lastModified: response.headers["last-modified"])
                let charset = Self.charset(inContentType: response.headers["content-type"])
                return FetchResult(request: request, outcome: parse(response.body, url: url, charset: charset, validators: validators),
                                   permanentRedirect: permanentRedirect, directives: directives)
            default:
                return FetchResult(request: request, outcome: .failed(.httpStatus(status)), permanentRedirect: permanentRedirect,
                                   directives: directives)
            }
        }
        return FetchResult(request: request, outcome: .failed(.tooManyRedirects(limit: configuration.maxRedirects)), permanentRedirect: permanentRedirect)
    }

    private func requestHeaders(validators: CacheValidators) -> [(String, String)] {
        var headers = [("Accept", "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8")]
        if let etag = validators.etag {
            headers.append(("If-None-Match", etag))
        }
        if let lastModified = validators.lastModified {
            headers.append(("If-Modified-Since", lastModified))
        }
        return headers
    }

    /// Why a redirect to `target` is not followed, or nil when it may be: only http and https
    /// are, and a local file is named as such, as a hostile server's way to reach the disk.
    static func refusedRedirect(to target: URL) -> FetchError? {
        switch target.scheme?.lowercased() {
        case "http", "https": nil
        case "file": .redirectToLocalFile(target.absoluteString)
        default: .badRedirect("refusing to follow a redirect to \(target.absoluteString)")
        }
    }

    func fetchError(for failure: HTTPHopFailure, url: URL) -> FetchError {
        switch failure {
        case .tooLarge: .tooLarge(limit: configuration.maxBodySize)
        case .timedOut: .timedOut(after: configuration.timeout)
        case .cancelled: .cancelled
        case let .unsupportedEncoding(encoding): .unsupportedEncoding(encoding)
        case let .corruptEncoding(encoding): .corruptEncoding(encoding)
        case let .network(failure): .network(failure, host: url.host ?? url.absoluteString)
        }
    }

    // MARK: - Parsing

    /// The `charset` parameter of a Content-Type header, which outranks the document's own
    /// declaration (RFC 7303); nil when the header names none.
    static func charset(inContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "charset" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    private func parse(_ body: Data, url: URL, charset: String?, validators: CacheValidators) -> FetchOutcome {
        do {
            let feed = try FeedParser(maxDocumentSize: configuration.maxBodySize).parse(body, url: url, charset: charset)
            return .fetched(feed, validators: validators)
        } catch {
            return .failed(.invalidFeed(error))
        }
    }
}

extension Duration {
    /// The duration in seconds, for Foundation APIs.
    var timeInterval: TimeInterval {
        let components = components
        return TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
