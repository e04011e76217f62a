import FeedCore

/// What the list pane says when it has no entry to show, and what it offers to do: never the
/// refresh footer's "No more data".
struct ListEmptyState: Equatable {
    enum Kind: Equatable {
        /// Nothing subscribed yet: Add a Feed, Import Subscriptions or Add Account, the window's one empty state.
        case noFeeds
        /// A search that matched nothing.
        case noResults
        /// Starred selected, with no entry starred.
        case noStarred
        /// The Unread filter, with everything read.
        case noUnread
        /// Offline, with nothing stored for the selection yet.
        case offline
        /// A feed or folder with no entry stored yet: Refresh.
        case noEntries
    }

    var kind: Kind
    var iconName: String
    var title: String
    var description: String
    /// The button's label (with a mnemonic), when the state offers one.
    var button: String?

    /// The state for an empty list, in the current language; the first reason that applies wins.
    @MainActor
    static func of(hasFeeds: Bool, selection: FeedSelection, filter: EntryFilter, searching: Bool, online: Bool) -> ListEmptyState {
        if !hasFeeds {
            return ListEmptyState(kind: .noFeeds, iconName: "application-rss+xml-symbolic", title: tr("No Feeds Yet"),
                                  description: tr("Add the feeds you read, bring your subscriptions from another reader, or sync with your server."),
                                  button: tr("_Add a Feed"))
        }
        if searching {
            return ListEmptyState(kind: .noResults, iconName: "system-search-symbolic", title: tr("No Results Found"),
                                  description: tr("Try a different search."), button: nil)
        }
        if selection == .starred {
            return ListEmptyState(kind: .noStarred, iconName: "starred-symbolic", title: tr("No Starred Entries"),
                                  description: tr("Star an entry to keep it here."), button: nil)
        }
        if filter == .unread {
            return ListEmptyState(kind: .noUnread, iconName: "object-select-symbolic", title: tr("No Unread Entries"),
                                  description: tr("You have read everything here."), button: nil)
        }
        if !online {
            return ListEmptyState(kind: .offline, iconName: "network-offline-symbolic", title: tr("Offline"),
                                  description: tr("The entries will be fetched once the computer is online."), button: tr("_Try Again"))
        }
        return ListEmptyState(kind: .noEntries, iconName: "application-rss+xml-symbolic", title: tr("No Entries"),
                              description: tr("Nothing has been fetched here yet."), button: tr("_Refresh"))
    }
}
