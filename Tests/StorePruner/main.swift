import FeedCore
import Foundation

/// `store-pruner DATA_HOME DAYS`: removes from the store under DATA_HOME what a retention of DAYS
/// lets go and gives the space back, as the window's daily clean-up does (`FeedLibrary.cleanUp`),
/// then prints `removed=N`. It says `pruning` first, once the store is open. The child process
/// RetentionCrashSafetyTests kills while it works; not part of the reader.
let arguments = CommandLine.arguments
guard arguments.count == 3, let days = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: store-pruner DATA_HOME DAYS\n".utf8))
    exit(2)
}
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var outcome: Result<Int, any Error>?
Task.detached {
    do {
        let store = try FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": arguments[1]])
        // Unbuffered, so the parent reads it before the pruning starts.
        FileHandle.standardOutput.write(Data("pruning\n".utf8))
        outcome = .success(try await FeedLibrary(store: store).cleanUp(Retention(days: days)))
    } catch {
        outcome = .failure(error)
    }
    done.signal()
}
done.wait()
switch outcome {
case let .success(removed):
    print("removed=\(removed)")
case let .failure(error):
    FileHandle.standardError.write(Data("store-pruner: \(error)\n".utf8))
    exit(1)
case nil:
    exit(1)
}
