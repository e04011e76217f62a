import Foundation

/// Feed metadata being assembled.
struct FeedDraft {
    var id: String?
    var title: String?
    var link: URL?
    var description: String?
    var iconURL: URL?
    /// Atom's feed-level author, which entries without their own inherit.
    var author: String?

    func feed(documentURL: URL?) -> Feed {
        let id = id ?? link?.absoluteString ?? documentURL?.absoluteString
            ?? EntryDraft.stableID(title: title, date: nil, fallback: description)
        return Feed(id: id, title: title, link: link, description: description, iconURL: iconURL)
    }
}
