import FeedCore

/// A sync account as its section of the sidebar shows it: the account with its last sync's
/// error, its categories as folders and its feeds, with their unread counts.
struct SidebarAccount {
    var account: SyncAccount
    var feeds: [StoredFeed]
    var folders: [StoredFolder]
    /// How the account is named, told from the others.
    var name: AccountName

    /// Every account in the store, in their order, with what each holds.
    static func all(in store: FeedStore) async throws -> [SidebarAccount] {
        let accounts = try await store.accounts()
        var loaded: [SidebarAccount] = []
        for account in accounts {
            loaded.append(SidebarAccount(account: account, feeds: try await store.feeds(accountID: account.id),
                                         folders: try await store.folders(accountID: account.id), name: account.name(among: accounts)))
        }
        return loaded
    }

    /// How many of the account's entries are unread.
    var unreadCount: Int { feeds.reduce(0) { $0 + $1.unreadCount } }

}
