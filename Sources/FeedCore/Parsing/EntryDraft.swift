import Foundation

/// An entry being assembled while its document is read; fields fill in as elements arrive.
struct EntryDraft {
    var id: String?
    /// An RSS `guid` that is a web address, the link when there is no other; as text, like `link`.
    var permalink: String?
    var title: String?
    /// The text of an absolute URL, as `resolveAddress` gives it.
    var link: String?
    var author: String?
    var published: Date?
    var updated: Date?
    var summary: String?
    var summaryHTML: String?
    var content: String?
    var enclosures: [Enclosure] = []
    /// The enclosures' addresses, so that a repeated one is found at once however many there are.
    private var enclosureURLs: Set<URL> = []

    mutating func addEnclosure(_ enclosure: Enclosure) {
        if enclosureURLs.insert(enclosure.url).inserted {
            enclosures.append(enclosure)
        }
    }

    /// The finished entry, with an id even when the feed gave none.
    consuming func entry(defaultAuthor: String?) -> Entry {
        let link = link ?? permalink
        let id = nonEmpty(id) ?? link ?? EntryDraft.stableID(title: title, date: published ?? updated, fallback: summary ?? content)
        return Entry(
            id: id,
            title: title,
            linkString: link,
            author: author ?? defaultAuthor,
            published: published,
            updated: updated,
            summary: summary,
            summaryHTML: summaryHTML,
            content: content,
            enclosures: enclosures
        )
    }

    /// A hash of title and date that stays the same across runs and machines (unlike `Hasher`),
    /// so the store recognises the entry on the next fetch. The body is used only when both are missing.
    static func stableID(title: String?, date: Date?, fallback: String?) -> String {
        var text = (title ?? "") + "\u{1F}" + (date.map(FeedDate.iso8601String(from:)) ?? "")
        if title == nil, date == nil {
            text += fallback ?? ""
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "hash:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
