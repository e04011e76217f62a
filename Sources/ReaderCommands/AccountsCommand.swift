import FeedCore
import Foundation

/// The sync accounts from the command line, without a window: `--add-account`, `--list-accounts`,
/// `--sync`, `--print-unread`, `--mark-read` and `--remove-account`. Results go to standard output,
/// reasons for failing to standard error in the user's language, with a non-zero exit status.
enum AccountsCommand {
    static var options: [CommandLineOption] {
        [
            CommandLineOption(name: "add-account",
                              summary: tr("Add a sync account (the password is read from standard input), print its ID and exit"),
                              // TRANSLATORS: the value of --add-account in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .qualified(placeholder: tr("URL"), qualifiers: ["service", "user", "allow-insecure"]) { server, values in
                                  await addAccount(server: server, service: values["service"], user: values["user"],
                                                   allowingInsecure: values["allow-insecure"] != nil)
                              }),
            CommandLineOption(name: "service", summary: tr("The service of the account to add: tt-rss, greader (Google Reader API) or fever"),
                              // TRANSLATORS: the value of --service in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .qualifier(placeholder: tr("SERVICE"))),
            CommandLineOption(name: "user", summary: tr("The user name of the account to add"),
                              // TRANSLATORS: the value of --user in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .qualifier(placeholder: tr("NAME"))),
            CommandLineOption(name: "allow-insecure",
                              summary: tr("Let --add-account send the password unencrypted, to an http:// address on another network"),
                              command: .switchQualifier),
            CommandLineOption(name: "list-accounts", summary: tr("List the sync accounts and exit"),
                              command: .plain { await listAccounts() }),
            CommandLineOption(name: "sync", summary: tr("Sync every account and exit"),
                              command: .plain { await syncAll() }),
            CommandLineOption(name: "print-unread", summary: tr("Print the number of unread articles and exit"),
                              command: .plain { await printUnread() }),
            CommandLineOption(name: "mark-read", summary: tr("Mark every article, or one feed’s, as read and exit"),
                              // TRANSLATORS: the value of --mark-read in `feed-reader --help`: "all" stays as it is.
                              command: .file(placeholder: tr("all|FEED-URL")) { await markRead($0) }),
            CommandLineOption(name: "remove-account", summary: tr("Forget a sync account on this computer and exit"),
                              // TRANSLATORS: the value of --remove-account in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .file(placeholder: tr("ID")) { await removeAccount($0) }),
        ]
    }

    @MainActor
    private static func addAccount(server text: String, service: String?, user: String?, allowingInsecure: Bool) async -> Int32 {
        guard let service, let user, !user.isEmpty else { return CommandOutput.fail(tr("--add-account needs --service and --user.")) }
        let kind = SyncServiceKind(rawValue: service)
        guard let server = URL(string: text), ["http", "https"].contains(server.scheme?.lowercased()), server.host != nil else {
            // TRANSLATORS: %@ is the address given to --add-account.
            return CommandOutput.fail(tr("%@ is not a web address.").filling(text))
        }
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            return CommandOutput.fail(tr("Type the password on standard input, on one line."))
        }
        guard let engine = await openEngine(changing: true) else { return 1 }
        if allowingInsecure, !ServerAddress.holdsCredentials(server), ServerAddress.sendsPasswordInClear(server) {
            // TRANSLATORS: %@ is the server's address given to --add-account.
            CommandOutput.say("feed-reader: " + tr("Warning: the password goes to %@ unencrypted.").filling(text), to: .standardError)
        }
        do {
            let account = try await engine.addAccount(kind: kind, server: server, user: user, password: password, allowingInsecure: allowingInsecure)
            CommandOutput.say(String(account.id))
            return 0
        } catch .insecureAddress {
            return CommandOutput.fail(tr("The account could not be added.") + " " + SyncFailure.insecureAddress.message(for: kind) + " "
                                      + tr("To add it anyway, give --allow-insecure."))
        } catch {
            return CommandOutput.fail(tr("The account could not be added.") + " " + error.message(for: kind))
        }
    }

    @MainActor
    private static func listAccounts() async -> Int32 {
        guard let engine = await openEngine(changing: false) else { return 1 }
        do {
            for account in try await engine.store.accounts() {
                CommandOutput.say([String(account.id), account.kind.rawValue, ServerAddress.shown(account.server), account.user].joined(separator: "\t"))
            }
            return 0
        } catch {
            return CommandOutput.fail(ErrorReason.readFailure(error))
        }
    }

    @MainActor
    private static func syncAll() async -> Int32 {
        guard let engine = await openEngine(changing: true) else { return 1 }
        let accounts: [SyncAccount]
        do {
            accounts = try await engine.store.accounts()
        } catch {
            return CommandOutput.fail(ErrorReason.readFailure(error))
        }
        var status: Int32 = 0
        for account in accounts {
            do {
                try await engine.sync(accountID: account.id)
            } catch {
                status = CommandOutput.fail(account.syncFailure(error))
            }
        }
        return status
    }

    @MainActor
    private static func printUnread() async -> Int32 {
        guard let engine = await openEngine(changing: false) else { return 1 }
        do {
            let count = try await engine.store.entryCount(unreadOnly: true)
            // TRANSLATORS: what --print-unread prints; %d is the number of unread articles.
            CommandOutput.say(trn("%d unread article", "%d unread articles", count).filling(count: count))
            return 0
        } catch {
            return CommandOutput.fail(ErrorReason.readFailure(error))
        }
    }

    @MainActor
    private static func markRead(_ target: String) async -> Int32 {
        guard let engine = await openEngine(changing: true) else { return 1 }
        do {
            if target == "all" {
                try await engine.store.markAllRead()
                return 0
            }
            let feeds = try await engine.store.feedsWithAddress(target)
            guard !feeds.isEmpty else {
                // TRANSLATORS: %@ is the feed address given to --mark-read, --pause, --resume or --set-feed-….
                return CommandOutput.fail(tr("No subscription has the address %@.").filling(target))
            }
            for feed in feeds {
                try await engine.store.markAllRead(feedID: feed)
            }
            return 0
        } catch {
            return CommandOutput.fail(ErrorReason.changeFailure(error))
        }
    }

    @MainActor
    private static func removeAccount(_ text: String) async -> Int32 {
        guard let engine = await openEngine(changing: true) else { return 1 }
        guard let id = Int64(text) else { return CommandOutput.fail(SyncFailure.notFound.message(for: TinyTinyRSSService.kind)) }
        do {
            try await engine.removeAccount(id: id)
            return 0
        } catch let failure {
            if case let .secrets(error) = failure {
                return CommandOutput.fail(tr("The account was removed, but its password could not be removed from the keyring.") + " " + error.message)
            }
            return CommandOutput.fail(failure.message(for: TinyTinyRSSService.kind))
        }
    }

    /// The user's library with the sync engine, or nil after saying why it could not be opened.
    /// A command `changing` it refuses a library that would keep nothing.
    @MainActor
    private static func openEngine(changing: Bool) async -> SyncEngine? {
        await CommandStore.open(changing: changing).map { SyncEngine(store: $0) }
    }

}

extension SyncAccount {
    /// The user and the server, as an account is named in messages.
    public var displayName: String { "\(user) — \(ServerAddress.shown(server))" }
}
