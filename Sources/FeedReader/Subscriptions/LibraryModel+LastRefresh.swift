import FeedCore
import Foundation

extension LibraryModel {
    /// When the newest of `selection`'s feeds was last fetched, or its accounts last synced: the
    /// time the list's pull header shows, true also after a refresh it did not show (a feed just
    /// added, a background refresh, a sync at start). Nil when none ever was.
    func lastRefresh(of selection: FeedSelection) -> Date? {
        let feeds: [StoredFeed]
        let synced: [SidebarAccount]
        switch selection {
        case let .account(id):
            synced = accounts.filter { $0.account.id == id }
            feeds = synced.flatMap(\.feeds)
        default:
            let ids = feedIDs(of: selection).map(Set.init)
            synced = ids == nil ? accounts : []
            feeds = ids.map { ids in self.feeds.filter { ids.contains($0.id) } } ?? self.feeds + accounts.flatMap(\.feeds)
        }
        return (feeds.compactMap(\.lastFetched) + synced.compactMap(\.account.lastSync)).max()
    }
}
