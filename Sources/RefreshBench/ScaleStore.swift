import FeedCore
import Foundation

/// The scale section's store: a million generated entries (fewer when quick) in 5,000 feeds,
/// made as ``LargeStore`` makes its 100,000: ``FeedGenerator``'s RSS parsed by FeedCore and saved
/// as fetches save it. One document of a million items would be half a gigabyte of text, so
/// a block of generated items is parsed once and numbered again for each block of the store.
@MainActor
enum ScaleStore {
    /// Items generated and parsed at a time; every block of the store repeats their words.
    nonisolated static let blockSize = 10_000
    /// Feeds saved in one transaction.
    nonisolated static let feedsPerTransaction = 50

    /// Makes a store of `entries` unread entries in `feeds` feeds (`entries` a multiple of
    /// `feeds`) in the data folder `dataHome` (its XDG_DATA_HOME), replacing whatever is there.
    /// The entries, numbered from the newest (`entries`) down to 1 a minute apart, are dealt to
    /// the feeds in turn, so every feed's entries span the store's whole time, as a real reader's do.
    static func make(entries: Int, feeds: Int, at dataHome: URL) throws -> FeedStore {
        guard feeds > 0, entries % feeds == 0 else { throw BenchError("\(entries) entries do not fill \(feeds) feeds evenly") }
        try? FileManager.default.removeItem(at: dataHome)
        let block = min(entries, blockSize)
        let template = try FeedParser(maxDocumentSize: block * 600)
            .parse(FeedGenerator(items: block, targetBytes: block * 500).rss())
        guard template.entries.count == block, let newest = template.entries.first?.published else {
            throw BenchError("the generated block holds \(template.entries.count) dated entries, not \(block)")
        }
        let store = try FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": dataHome.path])
        let subscriptions = (0..<feeds).map { index in
            OPMLDocument.Subscription(url: URL(string: "https://scale.example.org/\(index)/feed.xml")!)
        }
        let perFeed = entries / feeds
        let stored = blocking {
            let added = try await store.addSubscriptions(subscriptions).added
            guard added.count == feeds else { throw BenchError("\(added.count) of \(feeds) feeds were added") }
            for first in stride(from: 0, to: feeds, by: feedsPerTransaction) {
                let batch = (first..<min(first + feedsPerTransaction, feeds)).map { feedIndex in
                    let feed = added[feedIndex]
                    // Newest first, as a feed lists them: the newest entry is the highest number.
                    let numbers = (0..<perFeed).map { entries - feedIndex - $0 * feeds }
                    let chunk = ParsedFeed(format: .rss, feed: template.feed,
                                           entries: numbers.map { entry(numbered: $0, of: entries, from: template.entries, newest: newest) })
                    return (result: FetchResult(request: feed.request, outcome: .fetched(chunk, validators: CacheValidators())),
                            feedID: feed.id)
                }
                for result in try await store.apply(batch) { _ = try result.get() }
            }
            return try await store.entryCount()
        }
        guard case let .success(count) = stored, count == entries else {
            throw BenchError("the scale store holds \(stored) entries, not \(entries)")
        }
        return store
    }

    /// Entry `number` of a store of `total`: the generated item at its place in its block, with
    /// its own number, address and date.
    nonisolated private static func entry(numbered number: Int, of total: Int, from block: [Entry], newest: Date) -> Entry {
        let index = total - number
        var entry = block[index % block.count]
        entry.id = "urn:refresh-bench:\(number)"
        if let title = entry.title, let colon = title.firstIndex(of: ":") {
            entry.title = "Entry \(number)" + title[colon...]
        }
        entry.link = URL(string: "https://scale.example.org/posts/\(number)")
        entry.published = newest.addingTimeInterval(-60 * Double(index))
        entry.updated = nil
        return entry
    }
}
