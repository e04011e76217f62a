import Foundation

/// A refresh's feeds by host, handing out the next one to fetch politely: a host is asked for
/// one feed until it has answered, then for up to `perHost` at once, and for none once it
/// answered 429 or 503.
struct HostQueues {
    private struct Host {
        var feeds: [StoredFeed]
        var next = 0
        var inFlight = 0
        /// It answered a request with something other than 429 or 503.
        var answered = false
    }

    private var hosts: [Host] = []
    /// The most requests one host is sent at once.
    private let perHost: Int
    /// Feeds left alone because their host answered 429 or 503.
    private(set) var heldBack = 0

    init(_ feeds: [StoredFeed], perHost: Int) {
        self.perHost = max(1, perHost)
        var indexOfHost: [String: Int] = [:]
        for feed in feeds {
            // Files have no host to spare: each is a queue of its own.
            let key = PollingPolicy.hostKey(for: feed.url) ?? feed.url.absoluteString
            if let index = indexOfHost[key] {
                hosts[index].feeds.append(feed)
            } else {
                indexOfHost[key] = hosts.count
                hosts.append(Host(feeds: [feed]))
            }
        }
    }

    /// The next feed to fetch and its host's number, from the host with the fewest requests under
    /// way (the earliest on ties, so hosts share the fetcher's slots); nil when none may be asked now.
    mutating func next() -> (host: Int, feed: StoredFeed)? {
        var chosen: Int?
        for index in hosts.indices {
            let host = hosts[index]
            guard host.next < host.feeds.count, host.inFlight < (host.answered ? perHost : 1) else { continue }
            if chosen.map({ host.inFlight < hosts[$0].inFlight }) ?? true { chosen = index }
            if host.inFlight == 0 { break }
        }
        guard let index = chosen else { return nil }
        defer { hosts[index].next += 1 }
        hosts[index].inFlight += 1
        return (index, hosts[index].feeds[hosts[index].next])
    }

    /// Notes the answer to a request `next` handed out for `host`.
    mutating func answered(_ host: Int, by result: FetchResult) {
        hosts[host].inFlight -= 1
        if case .failed(.httpStatus(let status)) = result.outcome, status == 429 || status == 503 {
            heldBack += hosts[host].feeds.count - hosts[host].next
            hosts[host].next = hosts[host].feeds.count
        } else {
            hosts[host].answered = true
        }
    }
}
