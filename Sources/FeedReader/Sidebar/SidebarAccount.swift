import FeedCore

/// A sync account as its section of the sidebar shows it: the account with its last sync's
/// error, its categories as folders and its feeds, with their unread counts.
struct SidebarAccount {
    var account: SyncAccount
    var feeds: [StoredFeed]
    var folders: [StoredFolder]

    /// Every account in the store, in their order, with what each holds.
    static func all(in store: FeedStore) async throws -> [SidebarAccount] {
        var loaded: [SidebarAccount] = []
        for account in try await store.accounts() {
            loaded.append(SidebarAccount(account: account, feeds: try await store.feeds(accountID: account.id),
                                         folders: try await store.folders(accountID: account.id)))
        }
        return loaded
    }

    /// How many of the account's entries are unread.
    var unreadCount: Int { feeds.reduce(0) { $0 + $1.unreadCount } }

    /// The server as the row names it: its host, with the port when one is given.
    var serverName: String {
        guard let host = account.server.host, !host.isEmpty else { return account.server.absoluteString }
        return account.server.port.map { "\(host):\($0)" } ?? host
    }
}
