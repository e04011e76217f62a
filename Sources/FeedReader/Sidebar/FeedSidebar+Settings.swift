import AppSupport
import RefreshGtk

extension FeedSidebar {
    /// Where the closed accounts are remembered, beside the closed folders.
    static let collapsedAccountsKey = "collapsed-accounts"
    /// Where a selected account is remembered, beside selected-feed (which holds no account).
    static let selectedAccountKey = "selected-account"

    /// Opens and closes the folders and accounts as the person left them, and remembers each
    /// change in `settings`.
    func rememberOpenRows(in settings: SettingsStore) {
        let group = WindowKey.group
        let ids = { (key: String) in Set((settings.string(forKey: key, in: group) ?? "").split(separator: ",").compactMap { Int64($0) }) }
        let save = { [weak settings] (ids: Set<Int64>, key: String) in
            settings?.setString(ids.sorted().map(String.init).joined(separator: ","), forKey: key, in: group)
        }
        collapsed = ids(WindowKey.collapsedFolders)
        collapsedAccounts = ids(Self.collapsedAccountsKey)
        onCollapse = { closed in save(closed, WindowKey.collapsedFolders) }
        onCollapseAccounts = { closed in save(closed, Self.collapsedAccountsKey) }
    }
}
