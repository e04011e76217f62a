import Foundation
import GRDB
@testable import FeedCore

/// Builds UTC dates from RFC 3339 text, using Foundation's formatter as an independent check.
func utc(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("bad test date \(text)") }
    return date
}

/// Parses a corpus file, resolving links against a made-up address for it.
func parseCorpus(_ name: String, parser: FeedParser = FeedParser()) throws -> ParsedFeed {
    try parser.parse(Corpus.data(name), url: URL(string: "https://feeds.example.test/\(name)"))
}

/// The error a throwing expression raised, or nil.
func parseError(_ body: () throws -> ParsedFeed) -> FeedParseError? {
    do {
        _ = try body()
        return nil
    } catch let error as FeedParseError {
        return error
    } catch {
        return nil
    }
}

/// A fetched feed made from entries, for store tests.
func fetched(_ entries: [Entry], title: String = "Feed", validators: CacheValidators = CacheValidators(),
             warnings: [ErrorReason] = []) -> FetchResult {
    let feed = ParsedFeed(format: .rss, feed: Feed(id: "feed", title: title, link: URL(string: "https://site.example/")),
                          entries: entries, warnings: warnings)
    return FetchResult(request: FeedRequest(url: URL(string: "https://site.example/feed")!), outcome: .fetched(feed, validators: validators))
}

/// A failed fetch result, for store tests.
func failed(_ error: FetchError) -> FetchResult {
    FetchResult(request: FeedRequest(url: URL(string: "https://site.example/feed")!), outcome: .failed(error))
}

/// A fresh, empty directory under the system's temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedcore-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The path of a store migrated up to `migration` alone, as an older release left it, holding a
/// garden feed, its two entries and a full article of the first; `adding` writes a test's own
/// rows in the same transaction. Opening it with `FeedStore(path:)` migrates it the rest of the way.
func olderGardenStore(upTo migration: String, adding: @escaping @Sendable (Database) throws -> Void = { _ in }) async throws -> String {
    let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
    let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
    try FeedStore.migrator.migrate(old, upTo: migration)
    try await old.write { db in
        try db.execute(sql: """
            INSERT INTO feeds (id, url, position) VALUES (1, 'https://garden.example/feed', 0);
            INSERT INTO entries (id, feedId, entryId, title, author, summary, content, insertedAt, sortDate) VALUES
                (1, 1, 'a', 'Winter beds', 'Tomás Ortega', 'Straw', '<p>We cover the <b>beds</b> with cardboard.</p>',
                 '2024-01-01 00:00:00.000', '2024-01-01 00:00:00.000'),
                (2, 1, 'b', 'Seed swap', 'Ada', 'Bring your tomato seeds', NULL,
                 '2024-01-02 00:00:00.000', '2024-01-02 00:00:00.000');
            INSERT INTO fullArticles (entryId, title, html, pageURL, extractedAt)
                VALUES (1, 'Winter beds', '<p>Mulch keeps the <i>earthworms</i> busy.</p>', 'https://garden.example/beds',
                        '2024-01-01 00:00:00.000');
            """)
        try adding(db)
    }
    return path
}

/// Searches of the garden store's two entries (`olderGardenStore`) and the entry ids each finds,
/// sorted: what an upgraded store's search must still find.
let gardenSearches: [(query: String, found: [String], what: String)] = [
    ("cardboard", ["a"], "the entry's text"),
    ("earthworms", ["a"], "its full article's"),
    ("tomas", ["a"], "the author, without accents"),
    ("\"cover the beds\"", ["a"], "a phrase"),
    ("title:seed", ["b"], "a column"),
    ("be*", ["a"], "two letters"),
    ("toma", ["a", "b"], "Tomás and tomato"),
    ("-swap toma", ["a"], "a word left out"),
]
