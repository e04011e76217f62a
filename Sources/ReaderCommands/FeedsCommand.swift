import FeedCore
import Foundation

/// A feed's settings from the command line: `--pause FEED-URL` and `--resume FEED-URL`.
enum FeedsCommand {
    static var options: [CommandLineOption] {
        [
            CommandLineOption(name: "pause", summary: tr("Stop refreshing a feed, keeping it and its articles, and exit"),
                              // TRANSLATORS: the value of --pause and --resume in `feed-reader --help`; keep it in capitals.
                              command: .file(placeholder: tr("FEED-URL")) { await setPaused(true, $0) }),
            CommandLineOption(name: "resume", summary: tr("Refresh a paused feed again and exit"),
                              command: .file(placeholder: tr("FEED-URL")) { await setPaused(false, $0) }),
        ]
    }

    @MainActor
    private static func setPaused(_ paused: Bool, _ address: String) async -> Int32 {
        guard let store = await CommandStore.open(changing: true) else { return 1 }
        do {
            let feeds = try await store.feeds().filter { $0.url.absoluteString == address && $0.accountID == nil }
            guard !feeds.isEmpty else {
                // TRANSLATORS: %@ is the feed address given to --mark-read, --pause or --resume.
                return CommandOutput.fail(tr("No subscription has the address %@.").filling(address))
            }
            for feed in feeds {
                var settings = feed.settings
                settings.isPaused = paused
                try await store.setSettings(settings, forFeed: feed.id)
            }
            return 0
        } catch {
            return CommandOutput.fail(ErrorReason.changeFailure(error))
        }
    }
}
