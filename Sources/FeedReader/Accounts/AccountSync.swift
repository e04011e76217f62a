import FeedCore
import Foundation

/// The window's side of sync: the accounts as the Preferences page lists them, adding and
/// removing them, and syncing several at once off the main thread. What a sync changed reaches
/// the sidebar and the list through the window's reload; this only runs the engine and tells.
@MainActor
final class AccountSync {
    let engine: SyncEngine
    /// The accounts in their order, as last read from the store.
    private(set) var accounts: [SyncAccount] = []
    /// The accounts syncing now.
    private(set) var syncing: Set<Int64> = []
    /// Those who show the accounts (the Preferences page while it is open), told of every change.
    private var observers: [ObjectIdentifier: @MainActor () -> Void] = [:]

    /// How one sync of several accounts ended.
    struct Outcome {
        /// How many accounts synced completely.
        var synced = 0
        var newEntries = 0
        /// The new entries still unread, and how many feeds they are in.
        var newUnreadEntries = 0
        var feedsWithNewUnreadEntries = 0
        /// The addresses the servers refused to subscribe to.
        var refusedSubscriptions: [String] = []
        var failures: [(account: SyncAccount, failure: SyncFailure)] = []
    }

    init(engine: SyncEngine) {
        self.engine = engine
    }

    /// Calls `changed` whenever the accounts or their state change, until `observer` stops.
    func observe(by observer: AnyObject, _ changed: @escaping @MainActor () -> Void) {
        observers[ObjectIdentifier(observer)] = changed
    }

    func stopObserving(by observer: AnyObject) {
        observers[ObjectIdentifier(observer)] = nil
    }

    private func tellObservers() {
        for changed in observers.values { changed() }
    }

    /// Reads the accounts again from the store; an unreadable store keeps the last list.
    func reload() async {
        guard let read = try? await engine.store.accounts() else { return }
        accounts = read
        tellObservers()
    }

    /// Logs in once through the engine and adds the account; nothing is added on any failure.
    /// An http:// address on another network is taken: the dialog has warned of it.
    func add(kind: SyncServiceKind, server: URL, user: String, password: String) async throws(SyncFailure) -> SyncAccount {
        let account = try await engine.addAccount(kind: kind, server: server, user: user, password: password, allowingInsecure: true)
        await reload()
        return account
    }

    /// Forgets the account here (the server is not told); a password left in the keyring throws
    /// `.secrets` after the account is gone.
    func remove(_ accountID: Int64) async throws(SyncFailure) {
        do {
            try await engine.removeAccount(id: accountID)
        } catch {
            await reload()
            throw error
        }
        await reload()
    }

    /// Syncs `accountIDs` (every account for nil) side by side, each off the main thread; returns
    /// when the last is done, with what each failed of. `synced` runs as each account's sync
    /// completes, so its articles show while a slow server keeps another account syncing.
    func sync(_ accountIDs: [Int64]? = nil, synced: (@MainActor () async -> Void)? = nil) async -> Outcome {
        if accountIDs == nil || accounts.isEmpty { await reload() }
        let chosen = accounts.filter { account in accountIDs.map { $0.contains(account.id) } ?? true }
        guard !chosen.isEmpty else { return Outcome() }
        syncing.formUnion(chosen.map(\.id))
        tellObservers()
        let engine = engine
        let results = await withTaskGroup(of: (SyncAccount, Result<SyncReport, SyncFailure>).self) { group in
            for account in chosen {
                group.addTask {
                    do throws(SyncFailure) {
                        return (account, .success(try await engine.sync(accountID: account.id)))
                    } catch {
                        return (account, .failure(error))
                    }
                }
            }
            var results: [(SyncAccount, Result<SyncReport, SyncFailure>)] = []
            for await result in group {
                results.append(result)
                if case .success = result.1 { await synced?() }
            }
            return results
        }
        syncing.subtract(chosen.map(\.id))
        // What the syncs stored enters the search index now, so that a search need not wait for it.
        Task.detached(priority: .utility) { try? await engine.store.indexSearchBacklog() }
        var outcome = Outcome()
        for (account, result) in results {
            switch result {
            case let .success(report):
                outcome.synced += 1
                outcome.newEntries += report.newEntries
                outcome.newUnreadEntries += report.newUnreadEntries
                outcome.feedsWithNewUnreadEntries += report.feedsWithNewUnreadEntries
                outcome.refusedSubscriptions += report.refusedSubscriptions.map(\.url)
            case let .failure(failure): outcome.failures.append((account, failure))
            }
        }
        let order = Dictionary(uniqueKeysWithValues: chosen.enumerated().map { ($1.id, $0) })
        outcome.failures.sort { order[$0.account.id, default: 0] < order[$1.account.id, default: 0] }
        await reload()
        return outcome
    }

    /// Why something asked of an account failed, in the user's language.
    func message(_ failure: SyncFailure, accountID: Int64) -> String {
        failure.message(for: accounts.first { $0.id == accountID }?.kind ?? SyncServiceKind(rawValue: ""))
    }

    /// The accounts a feed or folder of the sidebar belongs to: every account for all feeds or
    /// the starred ones, the account itself or the one owning a synced feed or folder, none for a local one.
    func accountIDs(of selection: FeedSelection) async -> [Int64] {
        if accounts.isEmpty { await reload() }
        switch selection {
        case .all, .starred, .savedSearch, .label, .labelsHeading:
            return accounts.map(\.id)
        case let .account(id):
            return [id]
        case let .feed(id):
            return (try? await engine.store.remoteFeed(id: id)).flatMap { $0 }.map { [$0.accountID] } ?? []
        case let .folder(id):
            for account in accounts {
                if let folders = try? await engine.store.folders(accountID: account.id), folders.contains(where: { $0.id == id }) {
                    return [account.id]
                }
            }
            return []
        }
    }
}
