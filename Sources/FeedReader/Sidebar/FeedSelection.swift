/// What the sidebar can select: every feed, the starred entries, a folder of feeds, one feed, or
/// every feed of a sync account.
enum FeedSelection: Hashable {
    case all
    case starred
    case folder(Int64)
    case feed(Int64)
    case account(Int64)

    /// The feed selected, or nil for the lists that span several feeds.
    var feedID: Int64? {
        if case let .feed(id) = self { return id }
        return nil
    }

    /// The folder selected, or nil.
    var folderID: Int64? {
        if case let .folder(id) = self { return id }
        return nil
    }

    /// The account selected, or nil.
    var accountID: Int64? {
        if case let .account(id) = self { return id }
        return nil
    }

    /// The text an item of the sidebar's model holds for this row: "all", "starred", "feed:ID",
    /// "folder:ID" or "account:ID"; a dragged row carries it too.
    var key: String {
        switch self {
        case .all: "all"
        case .starred: "starred"
        case let .feed(id): "feed:\(id)"
        case let .folder(id): "folder:\(id)"
        case let .account(id): "account:\(id)"
        }
    }

    /// The row `key` names, or nil when it names none.
    init?(key: String) {
        switch key {
        case "all": self = .all
        case "starred": self = .starred
        default:
            let parts = key.split(separator: ":")
            guard parts.count == 2, let id = Int64(parts[1]) else { return nil }
            switch parts[0] {
            case "feed": self = .feed(id)
            case "folder": self = .folder(id)
            case "account": self = .account(id)
            default: return nil
            }
        }
    }
}
