/// One row of the sidebar: what it stands for and how many folders in it is.
struct SidebarRow: Hashable {
    var item: FeedSelection
    var depth: Int
}

/// The sidebar's rows top to bottom, as a flattened tree: "All Feeds", "Starred", the feeds
/// outside folders, then each folder followed by its feeds and the folders inside it, a level
/// deeper; a collapsed folder's row shows and nothing below it. Decided without GTK, so the
/// list view only shows what this says.
enum SidebarOutline {
    /// The rows for `feeds` in `folders` (in order, parents before children; a nil folder is the
    /// top level) with `collapsed` closed. A feed or folder whose folder is not listed shows at the top.
    static func rows(feeds: [(id: Int64, folderID: Int64?)], folders: [(id: Int64, parentID: Int64?)],
                     collapsed: Set<Int64>) -> [SidebarRow] {
        let known = Set(folders.map(\.id))
        let inKnownFolder = { (id: Int64?) in id.flatMap { known.contains($0) ? $0 : nil } }
        let subfolders = Dictionary(grouping: folders) { inKnownFolder($0.parentID) }
        let feedsIn = Dictionary(grouping: feeds) { inKnownFolder($0.folderID) }
        var rows = [SidebarRow(item: .all, depth: 0), SidebarRow(item: .starred, depth: 0)]
        var visited: Set<Int64> = []
        func addContents(of folderID: Int64?, depth: Int) {
            rows += (feedsIn[folderID] ?? []).map { SidebarRow(item: .feed($0.id), depth: depth) }
            // A folder inside itself (a damaged list) shows once instead of forever.
            for folder in subfolders[folderID] ?? [] where visited.insert(folder.id).inserted {
                rows.append(SidebarRow(item: .folder(folder.id), depth: depth))
                if !collapsed.contains(folder.id) { addContents(of: folder.id, depth: depth + 1) }
            }
        }
        addContents(of: nil, depth: 0)
        return rows
    }

    /// The one run of rows to replace to turn `old` into `new`: the rows the two share at their
    /// start and at their end stay (with their row widgets and the selection on them).
    struct Splice: Equatable {
        var position: Int
        var removed: Int
        var added: Int
    }

    /// The splice turning `old` into `new`, or nil when they are the same.
    static func splice(from old: [SidebarRow], to new: [SidebarRow]) -> Splice? {
        guard old != new else { return nil }
        let common = min(old.count, new.count)
        var start = 0
        while start < common, old[start] == new[start] { start += 1 }
        var end = 0
        while end < common - start, old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        return Splice(position: start, removed: old.count - start - end, added: new.count - start - end)
    }
}
