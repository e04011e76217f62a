import Foundation

/// The reader's subscriptions as one service: refreshing a selection, subscribing, first runs.
///
/// It joins the fetcher and the store so the app only wires results to widgets. Every method is
/// `async` and safe to call from the GTK main thread's tasks: nothing here blocks it.
public final class FeedLibrary: Sendable {
    public let store: FeedStore
    public let fetcher: FeedFetcher
    /// When feeds may be fetched again, from what their servers said.
    public let policy: PollingPolicy
    /// The time now; tests pass a clock they move by hand.
    public let now: @Sendable () -> Date
    /// Where the passwords of feeds behind HTTP authentication are kept.
    public let secrets: any SecretStore

    public init(store: FeedStore, fetcher: FeedFetcher = FeedFetcher(), policy: PollingPolicy = PollingPolicy(),
                secrets: any SecretStore = LibsecretStore(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.fetcher = fetcher
        self.policy = policy
        self.secrets = secrets
        self.now = now
    }

    /// What a refresh did.
    public struct RefreshReport: Sendable, Equatable {
        /// Entries that were not stored before.
        public var newEntries = 0
        /// The feeds that brought new entries.
        public var feedsWithNewEntries = 0
        /// The new entries the notification tells of (`ApplySummary.announcedEntries`): of feeds
        /// whose new entries are announced, or a rule's "notify"; never one a rule hid.
        public var announcedEntries = 0
        /// The feeds that brought them.
        public var announcedFeeds = 0
        /// Feeds left alone because their server asked not to be asked again yet.
        public var postponed = 0
        /// Feeds left alone because a person paused them.
        public var paused = 0
        /// The feeds that failed, with why.
        public var failures: [Failure] = []

        /// A feed that could not be refreshed, or the subscriptions that could not be read (feed 0).
        public struct Failure: Sendable, Equatable {
            public var feedID: Int64
            public var title: String
            /// What failed: fetching the feed, saving its entries or reading the subscriptions.
            public var stage: Stage
            public var reason: ErrorReason
        }

        /// The step of a refresh that failed.
        public enum Stage: Sendable, Equatable {
            case readingSubscriptions
            case fetching
            case saving
        }
    }

    /// Fetches `feedIDs` (every feed when nil) in parallel and stores each feed as soon as it came back.
    ///
    /// A feed whose server asked not to be asked again yet (max-age, Retry-After, a paused host)
    /// is left alone and counted as postponed, and so are a host's remaining feeds once it answers
    /// 429 or 503: each host is asked for one feed first, and for more at once (up to the
    /// fetcher's `maxFetchesPerHost`) only after it answered that one well. A failing feed records its error and never stops the others;
    /// stored entries are kept. Storing overlaps fetching, and only a few fetched feeds wait to be
    /// stored at any time, so memory does not grow with the number of feeds.
    public func refresh(feedIDs: [Int64]? = nil) async -> RefreshReport {
        var report = RefreshReport()
        let start = now()
        let feeds: [StoredFeed]
        let pausedHosts: [String: HostBackoff]
        do {
            feeds = try await store.feeds().filter { feed in feedIDs.map { $0.contains(feed.id) } ?? true }
            pausedHosts = try await store.hostBackoffs(at: start)
        } catch {
            report.failures.append(.init(feedID: 0, title: "", stage: .readingSubscriptions, reason: ErrorReason(error)))
            return report
        }
        let unpaused = feeds.filter { !$0.settings.isPaused }
        let allowed = unpaused.filter { feed in
            let host = PollingPolicy.hostKey(for: feed.url)
            return (feed.nextFetch.map { $0 <= start } ?? true) && host.flatMap { pausedHosts[$0] } == nil
        }
        let (heldBack, subscriptionsMayHaveChanged) = await fetchAndStore(allowed, into: &report)
        report.paused = feeds.count - unpaused.count
        report.postponed = unpaused.count - allowed.count + heldBack
        let order = Dictionary(feeds.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        report.failures.sort { order[$0.feedID, default: 0] < order[$1.feedID, default: 0] }
        // Titles and site addresses arrive with fetched feeds, addresses move with permanent
        // redirects: the copy keeps them for a recovery. A refresh of 304s and failures changes
        // none, and reading every subscription again to compare was most of such a refresh's
        // own work at 5,000 feeds (docs/performance.md, Refresh from many hosts).
        if subscriptionsMayHaveChanged { await store.saveSubscriptionsCopy() }
        return report
    }

    /// What a child task of `fetchAndStore` finished.
    private enum Step: Sendable {
        case fetched(host: Int, feed: StoredFeed, result: FetchResult)
        case stored([(feed: StoredFeed, result: FetchResult, saved: Result<ApplySummary, any Error>)])
    }

    /// Fetches `feeds` up to the fetcher's limits at once, in all and per host, and stores them while others are still
    /// on the network: whatever arrived while the store was busy goes in its next transaction.
    /// New fetches wait while that many fetched feeds wait to be stored, which bounds memory.
    /// Returns how many feeds were left alone because their host answered 429 or 503, and
    /// whether a feed came with its own content or a permanent redirect, which may change a
    /// subscription's title, site or address.
    private func fetchAndStore(_ feeds: [StoredFeed], into report: inout RefreshReport) async -> (heldBack: Int, changes: Bool) {
        var hosts = HostQueues(feeds, perHost: fetcher.configuration.maxFetchesPerHost)
        let limit = max(1, fetcher.configuration.maxConcurrentFetches)
        return await withTaskGroup(of: Step.self) { group in
            var fetching = 0
            var waiting: [(feed: StoredFeed, result: FetchResult)] = []
            var storing = false
            var changes = false
            func startFetches() {
                while fetching < limit, waiting.count < limit, let (host, feed) = hosts.next() {
                    fetching += 1
                    group.addTask { .fetched(host: host, feed: feed, result: await self.fetcher.fetch(await self.request(for: feed))) }
                }
            }
            func startStoring() {
                guard !storing, !waiting.isEmpty else { return }
                storing = true
                let batch = waiting
                waiting = []
                group.addTask { .stored(await self.save(batch)) }
            }
            startFetches()
            while let step = await group.next() {
                switch step {
                case let .fetched(host, feed, result):
                    fetching -= 1
                    hosts.answered(host, by: result)
                    waiting.append((feed, result))
                case let .stored(saved):
                    storing = false
                    for (feed, result, outcome) in saved {
                        record(outcome, of: result, for: feed, in: &report)
                        if case .fetched = result.outcome { changes = true }
                        if result.permanentRedirect != nil { changes = true }
                    }
                }
                startStoring()
                startFetches()
            }
            return (hosts.heldBack, changes)
        }
    }

    /// The request for `feed`, with its password from the Secret Service when it has a user name.
    /// A password that cannot be read (no keyring, a locked one) is not sent: the server's 401
    /// then says the feed needs one.
    func request(for feed: StoredFeed) async -> FeedRequest {
        var request = feed.request
        if let user = feed.settings.authUser, let password = try? await secrets.secret(for: .feed(feed.url, user: user)) {
            request.credentials = HTTPCredentials(user: user, password: password)
        }
        return request
    }

    /// Stores `batch` in one transaction, each feed on its own.
    private func save(_ batch: [(feed: StoredFeed, result: FetchResult)]) async
        -> [(feed: StoredFeed, result: FetchResult, saved: Result<ApplySummary, any Error>)] {
        do {
            let saved = try await store.apply(batch.map { ($0.result, $0.feed.id) }, at: now(), policy: policy)
            return zip(batch, saved).map { ($0.feed, $0.result, $1) }
        } catch {
            return batch.map { ($0.feed, $0.result, .failure(error)) }
        }
    }

    private func record(_ saved: Result<ApplySummary, any Error>, of result: FetchResult, for feed: StoredFeed,
                        in report: inout RefreshReport) {
        let title = feed.title ?? feed.url.absoluteString
        switch saved {
        case let .success(summary):
            report.newEntries += summary.newEntries
            if summary.newEntries > 0 { report.feedsWithNewEntries += 1 }
            if summary.announcedEntries > 0 {
                report.announcedEntries += summary.announcedEntries
                report.announcedFeeds += 1
            }
            if let error = result.error {
                report.failures.append(.init(feedID: feed.id, title: title, stage: .fetching, reason: error.reason))
            }
        case let .failure(error):
            report.failures.append(.init(feedID: feed.id, title: title, stage: .saving, reason: ErrorReason(error)))
        }
    }

    /// The feeds whose background-refresh turn has come by now; empty when the subscriptions cannot be read.
    public func dueFeeds(_ schedule: BackgroundSchedule) async -> [StoredFeed] {
        let now = now()
        guard let feeds = try? await store.feeds(), let paused = try? await store.hostBackoffs(at: now) else { return [] }
        return schedule.dueFeeds(feeds, pausedHosts: paused, at: now)
    }

    /// When background refresh should wake next for `schedule`.
    public func nextWake(_ schedule: BackgroundSchedule) async -> Date {
        let now = now()
        let feeds = (try? await store.feeds()) ?? []
        let paused = (try? await store.hostBackoffs(at: now)) ?? [:]
        return schedule.nextWake(feeds, pausedHosts: paused, after: now)
    }

    /// Removes the entries `retention` lets go and gives their space back; returns how many went.
    @discardableResult
    public func cleanUp(_ retention: Retention) async throws -> Int {
        let removed = try await store.expireEntries(retention, at: now())
        try await store.compact(mergingSearchIndex: removed > 0)
        return removed
    }

    /// Why a subscription could not be added, for the add-feed dialog.
    public enum SubscribeError: Error, Equatable, CustomStringConvertible, ReasonedError {
        case invalidAddress(String)
        case alreadySubscribed
        /// The address could not be fetched, or what came back is not a feed.
        case fetchFailed(FetchError)
        /// The address is a web page that neither links to a feed nor has one at the usual paths.
        case noFeedFound
        case storage(ErrorReason)

        public var description: String {
            switch self {
            case let .invalidAddress(text): "“\(text)” is not a web address"
            case .alreadySubscribed: "You are already subscribed to this feed"
            case let .fetchFailed(error): error.description
            case .noFeedFound: "No feed was found at this address"
            case let .storage(reason): "Could not save the subscription: \(reason.technicalSummary)"
            }
        }

        /// The error as a code and the values its sentence needs.
        public var reason: ErrorReason {
            switch self {
            case let .invalidAddress(text): ErrorReason(.invalidAddress, [.text: text])
            case .alreadySubscribed: ErrorReason(.alreadySubscribed)
            case let .fetchFailed(error): error.reason
            case .noFeedFound: ErrorReason(.noFeedFound)
            case let .storage(reason): reason
            }
        }
    }

    /// The feed address a person typed: http(s) or file, with https assumed when no scheme is given.
    public static func feedURL(from text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return nil }
        let candidate = trimmed.contains("://") ? trimmed : "https://\(trimmed)"
        guard let url = URL(string: candidate), let scheme = url.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https": return url.host?.isEmpty == false ? url : nil
        case "file": return url.path.isEmpty ? nil : url
        default: return nil
        }
    }

    /// Subscribes to the feed at `text` after fetching it once: nothing is added when it fails.
    public func subscribe(to text: String) async throws(SubscribeError) -> StoredFeed {
        guard let url = Self.feedURL(from: text) else { throw .invalidAddress(text) }
        do {
            if try await store.feeds().contains(where: { $0.url == url }) { throw SubscribeError.alreadySubscribed }
        } catch let error as SubscribeError {
            throw error
        } catch {
            throw .storage(ErrorReason(error))
        }
        let result = await fetcher.fetch(FeedRequest(url: url))
        if let error = result.error { throw .fetchFailed(error) }
        do {
            let feed = try await store.addFeed(url: url)
            try await store.apply(result, toFeed: feed.id, at: now(), policy: policy)
            await store.saveSubscriptionsCopy()
            return try await store.feed(id: feed.id) ?? feed
        } catch {
            throw .storage(ErrorReason(error))
        }
    }

    /// On a first run with no subscriptions, subscribes to the bundled sample feeds in `directory`.
    /// Returns how many were added; 0 when there were subscriptions already.
    @discardableResult
    public func subscribeToSamplesIfEmpty(in directory: URL) async -> Int {
        guard (try? await store.hasFeeds()) == false else { return 0 }
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        var added = 0
        for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent })
        where ["xml", "rss", "atom", "json"].contains(file.pathExtension.lowercased()) {
            if (try? await subscribe(to: file.absoluteString)) != nil { added += 1 }
        }
        return added
    }

    /// Points the samples subscribed from another copy of the app's data (a build tree moved or
    /// removed, the app installed under another prefix) at their copies in `directory`, so that
    /// they refresh from the files the app ships instead of failing. A sample is a local file,
    /// gone now, in a folder of `directory`'s name, whose file `directory` holds. Returns how
    /// many were moved.
    @discardableResult
    public func followSamples(to directory: URL) async -> Int {
        guard let feeds = try? await store.fileFeeds() else { return 0 }
        var moved = 0
        for feed in feeds where feed.url.isFileURL && !FileManager.default.fileExists(atPath: feed.url.path)
            && feed.url.deletingLastPathComponent().lastPathComponent == directory.lastPathComponent {
            let bundled = directory.appendingPathComponent(feed.url.lastPathComponent)
            guard FileManager.default.fileExists(atPath: bundled.path) else { continue }
            if (try? await store.changeAddress(ofFeed: feed.id, to: bundled)) != nil { moved += 1 }
        }
        return moved
    }
}
