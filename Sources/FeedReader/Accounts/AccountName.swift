import FeedCore

/// How the window names a sync account to the user, the same in the sidebar, the Accounts page,
/// its questions and toasts, and the errors of a sync: the user and the server, and the service
/// too when another account has the same user on the same server (FreshRSS serves the Google
/// Reader and Fever APIs side by side).
struct AccountName {
    let user: String
    /// The server's host, with its port when one is given: the sidebar's short form.
    let server: String
    /// The server's whole address.
    let address: String
    /// The service, only when it is needed to tell this account from another.
    let service: String?

    init(_ account: SyncAccount, among accounts: [SyncAccount]) {
        let server = Self.server(of: account)
        user = account.user
        self.server = server
        address = ServerAddress.shown(account.server)
        let twin = accounts.contains { $0.id != account.id && $0.user == account.user && Self.server(of: $0) == server }
        service = twin ? account.kind.displayName : nil
    }

    /// "user — address", then "(service)" when needed.
    var text: String {
        let name = "\(user) — \(address)"
        return service.map { "\(name) (\($0))" } ?? name
    }

    private static func server(of account: SyncAccount) -> String {
        guard let host = account.server.host, !host.isEmpty else { return account.server.absoluteString }
        return account.server.port.map { "\(host):\($0)" } ?? host
    }
}

extension SyncAccount {
    /// The account's name among `accounts`.
    func name(among accounts: [SyncAccount]) -> AccountName {
        AccountName(self, among: accounts)
    }
}
