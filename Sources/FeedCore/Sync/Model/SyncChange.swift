import Foundation

/// A change made here that the server is to make too: what the sync queue holds and a service sends.
public enum SyncChange: Sendable, Hashable {
    /// Marks articles read (true) or unread (false).
    case setRead(Bool, articleIDs: [RemoteID])
    /// Stars articles (true) or unstars them (false).
    case setStarred(Bool, articleIDs: [RemoteID])
    /// Puts the label named `name` on articles (true) or takes it off them (false).
    case setLabel(name: String, Bool, articleIDs: [RemoteID])
    /// Subscribes to the feed at `url`, in a category or outside any.
    case subscribe(url: URL, categoryID: RemoteID?)
    case unsubscribe(feedID: RemoteID)
    /// Moves a feed into a category, or out of any for nil.
    case move(feedID: RemoteID, categoryID: RemoteID?)
    /// Marks everything read on the server, as its "mark all as read" does, up to when it was done
    /// here: an article the server got after that was never seen, and stays unread where the API allows.
    case markAllRead(MarkAllReadScope, before: Date)
}

/// What a "mark all as read" covers.
public enum MarkAllReadScope: Sendable, Hashable {
    case feed(RemoteID)
    case category(RemoteID)
    case account
}
