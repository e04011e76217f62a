import Foundation

/// The reader's subscriptions as one service: refreshing a selection, subscribing, first runs.
///
/// It joins the fetcher and the store so the app only wires results to widgets. Every method is
/// `async` and safe to call from the GTK main thread's tasks: nothing here blocks it.
public final class FeedLibrary: Sendable {
    public let store: FeedStore
    public let fetcher: FeedFetcher

    public init(store: FeedStore, fetcher: FeedFetcher = FeedFetcher()) {
        self.store = store
        self.fetcher = fetcher
    }

    /// What a refresh did.
    public struct RefreshReport: Sendable, Equatable {
        /// Entries that were not stored before.
        public var newEntries = 0
        /// The feeds that failed, with why, worded for people.
        public var failures: [Failure] = []

        public struct Failure: Sendable, Equatable {
            public var feedID: Int64
            public var title: String
            public var message: String
            /// For a failure to save rather than to fetch: the store's error, for technical details only.
            public var details: String?
        }
    }

    /// Fetches `feedIDs` (every feed when nil) in parallel and stores what came back.
    ///
    /// A failing feed records its error and never stops the others; stored entries are kept.
    public func refresh(feedIDs: [Int64]? = nil) async -> RefreshReport {
        var report = RefreshReport()
        let feeds: [StoredFeed]
        do {
            feeds = try await store.feeds().filter { feed in feedIDs.map { $0.contains(feed.id) } ?? true }
        } catch {
            report.failures.append(.init(feedID: 0, title: "", message: "the subscriptions could not be read", details: "\(error)"))
            return report
        }
        let results = await fetcher.fetchAll(feeds.map(\.request))
        for (feed, result) in zip(feeds, results) {
            do {
                let summary = try await store.apply(result, toFeed: feed.id)
                report.newEntries += summary.newEntries
                if let error = result.error {
                    report.failures.append(.init(feedID: feed.id, title: feed.title ?? feed.url.absoluteString,
                                                 message: error.description))
                }
            } catch {
                report.failures.append(.init(feedID: feed.id, title: feed.title ?? feed.url.absoluteString,
                                             message: "the entries could not be saved", details: "\(error)"))
            }
        }
        // Titles and site addresses arrive with fetches: the copy keeps them for a recovery.
        await store.saveSubscriptionsCopy()
        return report
    }

    /// Why a subscription could not be added, worded for the add-feed dialog.
    public enum SubscribeError: Error, Equatable, CustomStringConvertible {
        case invalidAddress(String)
        case alreadySubscribed
        case fetchFailed(String)
        /// The address is a web page that neither links to a feed nor has one at the usual paths.
        case noFeedFound
        case storage(String)

        public var description: String {
            switch self {
            case let .invalidAddress(text): "“\(text)” is not a web address"
            case .alreadySubscribed: "You are already subscribed to this feed"
            case let .fetchFailed(reason): reason
            case .noFeedFound: "No feed was found at this address"
            case let .storage(reason): "Could not save the subscription: \(reason)"
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
            throw .storage("\(error)")
        }
        let result = await fetcher.fetch(FeedRequest(url: url))
        if let error = result.error { throw .fetchFailed(error.description) }
        do {
            let feed = try await store.addFeed(url: url)
            try await store.apply(result, toFeed: feed.id)
            await store.saveSubscriptionsCopy()
            return try await store.feed(id: feed.id) ?? feed
        } catch {
            throw .storage("\(error)")
        }
    }

    /// On a first run with no subscriptions, subscribes to the bundled sample feeds in `directory`.
    /// Returns how many were added; 0 when there were subscriptions already.
    @discardableResult
    public func subscribeToSamplesIfEmpty(in directory: URL) async -> Int {
        guard let existing = try? await store.feeds(), existing.isEmpty else { return 0 }
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        var added = 0
        for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent })
        where ["xml", "rss", "atom", "json"].contains(file.pathExtension.lowercased()) {
            if (try? await subscribe(to: file.absoluteString)) != nil { added += 1 }
        }
        return added
    }
}
