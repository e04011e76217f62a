import Foundation

/// How soon a feed may be fetched again, from what its server said: never before its answer
/// stops being fresh or the time it asked to be left alone, and with a pause that doubles while
/// its host keeps answering 429 Too Many Requests or 503 Service Unavailable.
public struct PollingPolicy: Sendable, Hashable {
    /// The longest a `max-age` postpones a feed, so a year-long lifetime still lets it be read daily.
    public var longestFreshness: TimeInterval
    /// A host's pause after its first 429 or 503 without `Retry-After`; each further one doubles it.
    public var firstBackoff: TimeInterval
    /// The longest pause for a host, `Retry-After` included, so a wrong header cannot stop a feed for good.
    public var longestBackoff: TimeInterval

    /// Creates a policy; the defaults suit a desktop reader.
    public init(longestFreshness: TimeInterval = 24 * 3600, firstBackoff: TimeInterval = 15 * 60,
                longestBackoff: TimeInterval = 24 * 3600) {
        self.longestFreshness = longestFreshness
        self.firstBackoff = firstBackoff
        self.longestBackoff = longestBackoff
    }

    /// The earliest the feed may be fetched again after `result` arrived at `now`; nil for any time.
    public func nextFetch(after result: FetchResult, at now: Date) -> Date? {
        switch result.outcome {
        case .fetched, .notModified:
            guard let maxAge = result.directives.maxAge, maxAge > 0 else { return nil }
            return now + min(maxAge, longestFreshness)
        case .failed:
            return result.directives.retryAfter.map { now + min($0, longestBackoff) }
        }
    }

    /// The feed's host's pause after `result` arrived at `now`, given its pause before; nil when it has none.
    ///
    /// A pause runs to its end: answers to requests sent before it began (feeds of one host are
    /// fetched together) neither cut it short nor count as further strikes. Once it is over, any
    /// other answer from the server ends it; a failure to reach the server leaves it as it was.
    public func hostBackoff(after result: FetchResult, previous: HostBackoff?, at now: Date) -> HostBackoff? {
        let running = previous.flatMap { $0.until > now ? $0 : nil }
        switch result.outcome {
        case .failed(.httpStatus(429)), .failed(.httpStatus(503)):
            let strikes = running?.strikes ?? (previous?.strikes ?? 0) + 1
            let doubled = firstBackoff * pow(2, Double(min(strikes - 1, 30)))
            let until = now + min(result.directives.retryAfter ?? doubled, longestBackoff)
            return HostBackoff(until: max(until, running?.until ?? until), strikes: strikes)
        case .fetched, .notModified, .failed(.httpStatus):
            return running
        case .failed:
            return previous
        }
    }

    /// The name a feed's host is paused under: its lowercased host and port, if any.
    public static func hostKey(for url: URL) -> String? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}

/// A host asked to be left alone: no feed of it is fetched before `until`.
public struct HostBackoff: Sendable, Hashable {
    /// When its feeds may be fetched again.
    public var until: Date
    /// How many 429 or 503 answers in a row led here.
    public var strikes: Int

    /// Creates a pause.
    public init(until: Date, strikes: Int) {
        self.until = until
        self.strikes = strikes
    }
}
