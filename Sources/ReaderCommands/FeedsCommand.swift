import FeedCore
import Foundation

/// A feed's settings from the command line: `--pause FEED-URL`, `--resume FEED-URL`,
/// `--set-feed-interval FEED-URL --minutes N|default` and
/// `--set-feed-retention FEED-URL [--keep-days N | --keep-newest N]`. A password is never taken
/// here: the window's Feed Properties keep it in the keyring.
enum FeedsCommand {
    static var options: [CommandLineOption] {
        [
            CommandLineOption(name: "pause", summary: tr("Stop refreshing a feed, keeping it and its articles, and exit"),
                              // TRANSLATORS: the value of --pause and --resume in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .file(placeholder: tr("FEED-URL")) { await setPaused(true, $0) }),
            CommandLineOption(name: "resume", summary: tr("Refresh a paused feed again and exit"),
                              command: .file(placeholder: tr("FEED-URL")) { await setPaused(false, $0) }),
            CommandLineOption(name: "set-feed-interval",
                              summary: tr("Set how often a feed is refreshed, with --minutes, and exit"),
                              command: .qualified(placeholder: tr("FEED-URL"), qualifiers: ["minutes"]) { address, values in
                                  await setInterval(address, minutes: values["minutes"])
                              }),
            CommandLineOption(name: "minutes",
                              summary: tr("The minutes between two refreshes of the feed, at least 5, or “default” for the app’s"),
                              // TRANSLATORS: the value of --minutes in `feed-reader --help`: "default" stays as it is; translate the rest, in capitals where your script has them.
                              command: .qualifier(placeholder: tr("default|MINUTES"))),
            CommandLineOption(name: "set-feed-retention",
                              summary: tr("Set how long a feed’s articles are kept, with --keep-days or --keep-newest (neither: the app’s setting), and exit"),
                              command: .qualified(placeholder: tr("FEED-URL"), qualifiers: ["keep-days", "keep-newest"]) { address, values in
                                  await setRetention(address, days: values["keep-days"], newest: values["keep-newest"])
                              }),
            CommandLineOption(name: "keep-days", summary: tr("Keep the feed’s articles this many days (starred ones always)"),
                              // TRANSLATORS: the value of --keep-days and --keep-newest in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .qualifier(placeholder: tr("NUMBER"))),
            CommandLineOption(name: "keep-newest", summary: tr("Keep only the feed’s newest articles, this many (starred ones always)"),
                              command: .qualifier(placeholder: tr("NUMBER"))),
        ]
    }

    @MainActor
    private static func setPaused(_ paused: Bool, _ address: String) async -> Int32 {
        await change(address) { $0.isPaused = paused }
    }

    @MainActor
    private static func setInterval(_ address: String, minutes text: String?) async -> Int32 {
        guard let text else { return CommandOutput.fail(tr("Say how often with --minutes.")) }
        if text == "default" { return await change(address) { $0.refreshInterval = nil } }
        guard let minutes = Int(text) else {
            // TRANSLATORS: %@ is what was given to --minutes, --keep-days or --keep-newest.
            return CommandOutput.fail(tr("“%@” is not a whole number.").filling(text))
        }
        return await change(address) { $0.refreshInterval = TimeInterval(minutes) * 60 }
    }

    @MainActor
    private static func setRetention(_ address: String, days: String?, newest: String?) async -> Int32 {
        guard days == nil || newest == nil else { return CommandOutput.fail(tr("Give --keep-days or --keep-newest, not both.")) }
        let count = days ?? newest
        let number = count.flatMap { Int($0) }
        if let count, number == nil {
            return CommandOutput.fail(tr("“%@” is not a whole number.").filling(count))
        }
        return await change(address) { settings in
            settings.keepDays = days == nil ? nil : number
            settings.keepNewest = newest == nil ? nil : number
        }
    }

    /// Changes the settings of the feeds of this reader's own at `address`; a value that makes no
    /// sense is refused in the user's language and nothing changes.
    @MainActor
    private static func change(_ address: String, _ change: (inout FeedSettings) -> Void) async -> Int32 {
        guard let store = await CommandStore.open(changing: true) else { return 1 }
        do {
            let feeds = try await store.feeds().filter { $0.url.absoluteString == address && $0.accountID == nil }
            guard !feeds.isEmpty else {
                // TRANSLATORS: %@ is the feed address given to --mark-read, --pause, --resume or --set-feed-….
                return CommandOutput.fail(tr("No subscription has the address %@.").filling(address))
            }
            for feed in feeds {
                var settings = feed.settings
                change(&settings)
                try await store.setSettings(settings, forFeed: feed.id)
            }
            return 0
        } catch let error as FeedSettingsError {
            return CommandOutput.fail(error.reason.sentence)
        } catch {
            return CommandOutput.fail(ErrorReason.changeFailure(error))
        }
    }
}
