import Foundation

/// A change made here that the server is to make too: what the sync queue holds and a service sends.
public enum SyncChange: Sendable, Hashable {
    /// Marks articles read (true) or unread (false).
    case setRead(Bool, articleIDs: [RemoteID])
    /// Stars articles (true) or unstars them (false).
    case setStarred(Bool, articleIDs: [RemoteID])
    /// Subscribes to the feed at `url`, in a category or outside any.
    case subscribe(url: URL, categoryID: RemoteID?)
    case unsubscribe(feedID: RemoteID)
    /// Moves a feed into a category, or out of any for nil.
    case move(feedID: RemoteID, categoryID: RemoteID?)
    /// Marks everything read on the server, as its "mark all as read" does.
    case markAllRead(MarkAllReadScope)
}

/// What a "mark all as read" covers.
public enum MarkAllReadScope: Sendable, Hashable {
    case feed(RemoteID)
    case category(RemoteID)
    case account
}
