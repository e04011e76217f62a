import FeedCore
import Foundation

/// `feed-reader --parse FILE-OR-URL`: fetches and parses one feed and prints it as JSON.
enum ParseCommand {
    /// Prints the feed's JSON summary on standard output and returns 0, or prints
    /// `feed-reader: <reason>` on standard error and returns 1.
    static func run(_ target: String) async -> Int32 {
        let result = await FeedFetcher().fetch(FeedRequest(location: target))
        switch result.outcome {
        case let .fetched(feed, _):
            do {
                var json = try feed.jsonSummary()
                json.append(0x0A)
                FileHandle.standardOutput.write(json)
                return 0
            } catch {
                return fail("could not encode the feed as JSON: \(error)")
            }
        case .notModified:
            return fail("the server answered 304 Not Modified to an unconditional request")
        case let .failed(error):
            return fail(error.description)
        }
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("feed-reader: \(message)\n".utf8))
        return 1
    }
}
