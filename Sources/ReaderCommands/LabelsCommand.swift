import FeedCore
import Foundation

/// Labels and entries from the command line, without a window: `--list-labels`, `--label
/// ENTRY-ID NAME`, `--unlabel ENTRY-ID NAME` and `--list-entries`, whose first column is the
/// ENTRY-ID the others take. A synced entry's label reaches its server at the next `--sync`.
enum LabelsCommand {
    static var options: [CommandLineOption] {
        [
            CommandLineOption(name: "list-labels", summary: tr("List the labels with their unread and total entries and exit"),
                              command: .plain { await listLabels() }),
            CommandLineOption(name: "list-entries",
                              summary: tr("List entries, newest first, one a line: ID, feed, date, title; and exit"),
                              command: .plainQualified(qualifiers: ["feed", "unread", "label", "search"]) { values in
                                  await listEntries(feed: values["feed"], unreadOnly: values["unread"] != nil, label: values["label"],
                                                    search: values["search"])
                              }),
            CommandLineOption(name: "feed", summary: tr("With --list-entries, only the entries of the feed at this address"),
                              // TRANSLATORS: the value of --pause and --resume in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .qualifier(placeholder: tr("FEED-URL"))),
            CommandLineOption(name: "unread", summary: tr("With --list-entries, only the unread entries"), command: .switchQualifier),
            CommandLineOption(name: "search", summary: tr("With --list-entries, only the entries matching a search"),
                              // TRANSLATORS: the value of --search in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .qualifier(placeholder: tr("QUERY"))),
            CommandLineOption(name: "label",
                              summary: tr("Put a label on an entry and exit; with --list-entries, only the entries with this label"),
                              // TRANSLATORS: the values of --label and --unlabel in `feed-reader --help`; translate them, in capitals where your script has them.
                              command: .qualified(placeholder: tr("ENTRY-ID NAME"), qualifiers: [CommandLineOption.remainingArguments]) {
                                  await setLabel(true, entry: $0, name: $1[CommandLineOption.remainingArguments])
                              }),
            CommandLineOption(name: "unlabel", summary: tr("Take a label off an entry and exit"),
                              command: .qualified(placeholder: tr("ENTRY-ID NAME"), qualifiers: [CommandLineOption.remainingArguments]) {
                                  await setLabel(false, entry: $0, name: $1[CommandLineOption.remainingArguments])
                              }),
        ]
    }

    @MainActor
    private static func listLabels() async -> Int32 {
        guard let store = await CommandStore.open(changing: false) else { return 1 }
        do {
            for label in try await store.labels() {
                CommandOutput.say("\(oneLine(label.name))\t\(label.unreadCount)\t\(label.entryCount)")
            }
            return 0
        } catch {
            return CommandOutput.fail(tr("The feed database could not be read."))
        }
    }

    @MainActor
    private static func setLabel(_ isOn: Bool, entry text: String, name: String?) async -> Int32 {
        guard let name else { return CommandOutput.fail(tr("--label and --unlabel need an entry’s ID and a label’s name.")) }
        guard let entryID = Int64(text) else {
            // TRANSLATORS: %@ is what was given as an entry's ID to --label or --unlabel.
            return CommandOutput.fail(tr("There is no entry with the ID %@: --list-entries shows them.").filling(text))
        }
        guard let store = await CommandStore.open(changing: true) else { return 1 }
        do {
            guard try await store.entry(id: entryID) != nil else {
                return CommandOutput.fail(tr("There is no entry with the ID %@: --list-entries shows them.").filling(text))
            }
            try await store.setLabel(name, on: [entryID], isOn)
            return 0
        } catch let error as LabelError {
            return CommandOutput.fail(error.reason.sentence)
        } catch {
            return CommandOutput.fail(tr("The feed database could not be changed.") + " " + ErrorReason(error).sentence)
        }
    }

    /// One entry a line, tab-separated: its ID, its feed's address, its date (UTC, ISO 8601) and title.
    @MainActor
    private static func listEntries(feed address: String?, unreadOnly: Bool, label name: String?, search: String?) async -> Int32 {
        guard let store = await CommandStore.open(changing: false) else { return 1 }
        do {
            var feeds = try await store.feeds()
            for account in try await store.accounts() { feeds += try await store.feeds(accountID: account.id) }
            let addresses = Dictionary(feeds.map { ($0.id, $0.url.absoluteString) }, uniquingKeysWith: { first, _ in first })
            var feedIDs: Set<Int64>?
            if let address {
                feedIDs = Set(feeds.filter { $0.url.absoluteString == address }.map(\.id))
                guard feedIDs?.isEmpty == false else {
                    return CommandOutput.fail(tr("No subscription has the address %@.").filling(address))
                }
            }
            var labelID: Int64?
            if let name {
                let cleaned = (try? LabelName.cleaned(name)) ?? name
                guard let label = try await store.labels().first(where: { $0.name == cleaned }) else {
                    return CommandOutput.fail(LabelError.notFound(name: name).reason.sentence)
                }
                labelID = label.id
            }
            var labelled: Set<Int64>?
            if let labelID, search != nil {
                labelled = Set(try await store.entries(EntryQuery(labelID: labelID, limit: .max, fields: .listing)).map(\.id))
            }
            let keep = { (entry: StoredEntry) in
                (feedIDs?.contains(entry.feedID) ?? true) && (!unreadOnly || !entry.isRead) && (labelled?.contains(entry.id) ?? true)
            }
            let print = { (entry: StoredEntry) in
                CommandOutput.say([String(entry.id), addresses[entry.feedID] ?? "", entry.sortDate.formatted(.iso8601),
                                   oneLine(entry.title ?? "")].joined(separator: "\t"))
            }
            if let search {
                // In the search's order, best first.
                for entry in try await store.search(search, limit: searchLimit, candidates: searchLimit, fields: .listing) where keep(entry) {
                    print(entry)
                }
                return 0
            }
            // A page at a time, so a library of a million entries is never in memory at once.
            var query = EntryQuery(feedID: feedIDs?.count == 1 ? feedIDs?.first : nil, labelID: labelID, unreadOnly: unreadOnly,
                                   limit: 1_000, fields: .listing)
            while true {
                let page = try await store.entries(query)
                page.filter(keep).forEach(print)
                guard page.count == query.limit, let last = page.last else { return 0 }
                query.olderThan = last.cursor
            }
        } catch {
            return CommandOutput.fail(tr("The feed database could not be read."))
        }
    }

    /// The most entries `--list-entries --search` lists, best first.
    private static let searchLimit = 10_000

    /// `text` on one line: tabs and line breaks would split a row of the listing.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
