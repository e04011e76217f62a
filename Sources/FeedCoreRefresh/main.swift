import FeedCore
import Foundation

/// `feedcore-refresh DATA_HOME URL_FILE`: FeedCore's side of refresh-bench's refresh comparison.
///
/// Subscribes to every URL in the file when the store under `DATA_HOME` is empty (in one
/// transaction, as an OPML import does: newsboat reads its URL file for free), refreshes every
/// feed and prints `new=N failures=N postponed=N`. A program of its own so that the process holds FeedCore
/// and what it links, as newsboat's holds newsboat, and not refresh-bench's GTK.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: feedcore-refresh DATA_HOME URL_FILE\n".utf8))
    exit(2)
}
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var outcome: Result<FeedLibrary.RefreshReport, any Error>?
Task.detached {
    do {
        let store = try FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": arguments[1]])
        let urls = try String(contentsOfFile: arguments[2], encoding: .utf8)
            .split(separator: "\n").compactMap { URL(string: String($0)) }
        if try await store.feeds().isEmpty {
            _ = try await store.addSubscriptions(urls.map { OPMLDocument.Subscription(url: $0) })
        }
        outcome = .success(await FeedLibrary(store: store).refresh())
    } catch {
        outcome = .failure(error)
    }
    done.signal()
}
done.wait()
switch outcome {
case let .success(report):
    print("new=\(report.newEntries) failures=\(report.failures.count) postponed=\(report.postponed)")
case let .failure(error):
    FileHandle.standardError.write(Data("feedcore-refresh: \(error)\n".utf8))
    exit(1)
case nil:
    exit(1)
}
