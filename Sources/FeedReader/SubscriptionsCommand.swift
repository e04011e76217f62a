import FeedCore
import Foundation

/// `feed-reader --import FILE` and `feed-reader --export FILE`: the subscription list in and out
/// of the user's library as OPML, without opening a window.
enum SubscriptionsCommand {
    case importing(URL)
    case exporting(URL)

    /// Does the work, printing what it did on standard output and problems on standard error;
    /// returns the exit status.
    func run() async -> Int32 {
        let library: FeedLibrary
        do {
            let (store, notice) = try await FeedStore.openHealing(at: FeedStore.databaseURL())
            if let notice { Self.say("feed-reader: \(notice.details)", to: .standardError) }
            library = FeedLibrary(store: store)
        } catch {
            return Self.fail("the feed database could not be opened: \(error)")
        }
        switch self {
        case let .importing(file):
            return await Self.importSubscriptions(from: file, into: library)
        case let .exporting(file):
            do {
                try await library.exportSubscriptions().write(to: file, options: .atomic)
                Self.say("\(try await library.store.feeds().count) subscriptions exported to \(file.path)")
                return 0
            } catch {
                return Self.fail("could not export to \(file.path): \(error)")
            }
        }
    }

    private static func importSubscriptions(from file: URL, into library: FeedLibrary) async -> Int32 {
        do {
            let report = try await library.importSubscriptions(from: Data(contentsOf: file)) { done, total in
                if total > 0 { say("fetched \(done) of \(total) new feeds", to: .standardError) }
            }
            say("\(report.added) subscriptions imported, \(report.duplicates) duplicates skipped, \(report.failedFetches) could not be fetched")
            return 0
        } catch let error as OPMLDocument.ReadError {
            return fail("\(file.path): \(error); nothing was imported")
        } catch {
            return fail("could not import \(file.path): \(error)")
        }
    }

    private static func say(_ text: String, to handle: FileHandle = .standardOutput) {
        handle.write(Data((text + "\n").utf8))
    }

    private static func fail(_ message: String) -> Int32 {
        say("feed-reader: \(message)", to: .standardError)
        return 1
    }
}
