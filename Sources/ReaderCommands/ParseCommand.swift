import FeedCore
import Foundation

/// `feed-reader --parse FILE-OR-URL`: fetches and parses one feed and prints it as JSON.
enum ParseCommand {
    /// Prints the feed's JSON summary on standard output and returns 0, or prints
    /// `feed-reader: <reason>` on standard error, in the user's language, and returns 1.
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
                return CommandOutput.fail(tr("The feed could not be written as JSON."))
            }
        case .notModified:
            // TRANSLATORS: the server answered "304 Not Modified" though the whole feed was asked for.
            return CommandOutput.fail(tr("The server answered that the feed had not changed, though the whole feed was asked for."))
        case let .failed(error):
            return CommandOutput.fail(ErrorReason(error).sentence)
        }
    }
}
