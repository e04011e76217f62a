import Foundation
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
