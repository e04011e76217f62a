/// What the sidebar can select: every feed, the starred entries, a saved search, a folder of
/// feeds, one feed, every feed of a sync account, or the entries carrying a label.
enum FeedSelection: Hashable {
    case all
    case starred
    case savedSearch(Int64)
    case folder(Int64)
    case feed(Int64)
    case account(Int64)
    case label(Int64)
    /// The heading above the labels, as libadwaita's sidebars head a section: a row never selected.
    case labelsHeading

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

    /// The saved search selected, or nil.
    var savedSearchID: Int64? {
        if case let .savedSearch(id) = self { return id }
        return nil
    }

    /// The label selected, or nil.
    var labelID: Int64? {
        if case let .label(id) = self { return id }
        return nil
    }

    /// The account selected, or nil.
    var accountID: Int64? {
        if case let .account(id) = self { return id }
        return nil
    }
}
