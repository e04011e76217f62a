/// The sidebar's tree, decided without GTK: "All Feeds", "Starred", the saved searches, the local
/// feeds outside folders and the local folders at the top, then one row for each sync account,
/// then, under a heading, one for each label; inside a folder its feeds then the folders inside it, inside an
/// account its feeds outside categories then its categories as folders. The tree list model shows
/// what this says, one list per level.
struct SidebarOutline: Equatable {
    /// A sync account's feeds and folders, as the outline needs them.
    struct Account {
        var id: Int64
        var feeds: [Feed]
        var folders: [Folder]
    }

    typealias Feed = (id: Int64, folderID: Int64?)
    typealias Folder = (id: Int64, parentID: Int64?)

    /// The rows at the top, in order.
    private(set) var top: [FeedSelection] = []
    /// The rows inside each folder and account, in order; every folder and account has an entry,
    /// empty ones too (they can be opened).
    private(set) var children: [FeedSelection: [FeedSelection]] = [:]
    /// The row each row is inside; none for the rows at the top.
    private(set) var parents: [FeedSelection: FeedSelection] = [:]

    init() {}

    /// The tree of the local `feeds` in `folders` (in order, parents before children; a nil folder
    /// is the top), of `accounts`, of the saved searches of `savedSearches` and of the `labels` (in
    /// order). A feed or folder whose folder is not listed shows at the top of its section.
    init(feeds: [Feed], folders: [Folder], accounts: [Account] = [], savedSearches: [Int64] = [], labels: [Int64] = []) {
        top = [.all, .starred] + savedSearches.map(FeedSelection.savedSearch) + contents(feeds: feeds, folders: folders)
        for account in accounts {
            let item = FeedSelection.account(account.id)
            top.append(item)
            adopt(contents(feeds: account.feeds, folders: account.folders), into: item)
        }
        if !labels.isEmpty { top += [.labelsHeading] + labels.map(FeedSelection.label) }
    }

    /// Whether `item` can be opened to show what it holds: a folder or an account.
    func isExpandable(_ item: FeedSelection) -> Bool { children[item] != nil }

    /// The rows `item` is inside, nearest first.
    func ancestors(of item: FeedSelection) -> [FeedSelection] {
        var found: [FeedSelection] = []
        var next = parents[item]
        while let parent = next, !found.contains(parent) {
            found.append(parent)
            next = parents[parent]
        }
        return found
    }

    /// The account whose section holds `item`, or nil for a local row.
    func account(of item: FeedSelection) -> Int64? {
        if case let .account(id) = item { return id }
        return ancestors(of: item).last?.accountID
    }

    /// Fills `children` and `parents` below a section's top and returns the top's rows.
    private mutating func contents(feeds: [Feed], folders: [Folder]) -> [FeedSelection] {
        let known = Set(folders.map(\.id))
        let inKnownFolder = { (id: Int64?) in id.flatMap { known.contains($0) ? $0 : nil } }
        let subfolders = Dictionary(grouping: folders) { inKnownFolder($0.parentID) }
        let feedsIn = Dictionary(grouping: feeds) { inKnownFolder($0.folderID) }
        var visited: Set<Int64> = []
        func rows(in folderID: Int64?) -> [FeedSelection] {
            var rows = (feedsIn[folderID] ?? []).map { FeedSelection.feed($0.id) }
            // A folder inside itself (a damaged list) shows once instead of forever.
            for folder in subfolders[folderID] ?? [] where visited.insert(folder.id).inserted {
                rows.append(.folder(folder.id))
            }
            return rows
        }
        let topRows = rows(in: nil)
        var open = topRows.filter { $0.folderID != nil }
        while let folder = open.popLast() {
            let inside = rows(in: folder.folderID)
            adopt(inside, into: folder)
            open += inside.filter { $0.folderID != nil }
        }
        return topRows
    }

    private mutating func adopt(_ rows: [FeedSelection], into parent: FeedSelection) {
        children[parent] = rows
        for row in rows { parents[row] = parent }
    }

    static func == (lhs: SidebarOutline, rhs: SidebarOutline) -> Bool {
        lhs.top == rhs.top && lhs.children == rhs.children
    }

    /// The one run of rows to replace to turn a list `old` into `new`: the rows the two share at
    /// their start and at their end stay (with their row widgets and the selection on them).
    struct Splice: Equatable {
        var position: Int
        var removed: Int
        var added: Int
    }

    /// The splice turning `old` into `new`, or nil when they are the same.
    static func splice(from old: [FeedSelection], to new: [FeedSelection]) -> Splice? {
        guard old != new else { return nil }
        let common = min(old.count, new.count)
        var start = 0
        while start < common, old[start] == new[start] { start += 1 }
        var end = 0
        while end < common - start, old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        return Splice(position: start, removed: old.count - start - end, added: new.count - start - end)
    }
}
