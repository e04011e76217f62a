import CGtk
import FeedCore
import RefreshGtk

/// One row of the entry list as a GObject its list model holds and the row's widgets bind to:
/// what the row shows of the entry at its position, in the current language, marked up with the
/// words searched for.
///
/// The list's model (``EntryListModel``) makes an item for a position only while a row shows it,
/// and refills the items whose entries change, as a new page or a mark does: the rows bound to
/// them follow their properties without being rebound.
@MainActor
struct EntryItem {
    static let type = ObjectType(name: "FeedReaderEntryItem", properties: [
        .init("id", .int64), .init("title-markup", .string), .init("meta", .string), .init("summary-markup", .string),
        .init("is-read", .boolean), .init("is-starred", .boolean), .init("is-hidden", .boolean), .init("accessible-name", .string),
        .init("media-icon", .string),
    ])

    let object: UnsafeMutablePointer<GObject>

    /// The item `object` (a FeedReaderEntryItem) is.
    init(_ object: gpointer) { self.object = object.assumingMemoryBound(to: GObject.self) }

    /// The entry shown.
    var id: Int64 { ObjectProperty.get(object, "id") }
    /// The title, as Pango markup.
    var titleMarkup: String { ObjectProperty.get(object, "title-markup") }
    /// The feed, the author and the date.
    var meta: String { ObjectProperty.get(object, "meta") }
    /// The summary's one line, as Pango markup; empty when the entry has none.
    var summaryMarkup: String { ObjectProperty.get(object, "summary-markup") }
    var isRead: Bool { ObjectProperty.get(object, "is-read") }
    var isStarred: Bool { ObjectProperty.get(object, "is-starred") }
    /// Whether a rule hid the entry: listed only while hidden entries are shown.
    var isHidden: Bool { ObjectProperty.get(object, "is-hidden") }
    /// The icon of the episode or video the entry carries; empty for none.
    var mediaIcon: String { ObjectProperty.get(object, "media-icon") }
    /// "Title, feed, date, unread, starred": the whole row in words.
    var accessibleName: String { ObjectProperty.get(object, "accessible-name") }

    /// Shows `entry` of the feed `feed` (its title), with the words of `terms` marked.
    func show(_ entry: StoredEntry, feed: String?, terms: [String]) {
        let title = entry.title?.isEmpty == false ? entry.title! : tr("Untitled")
        let summary = EntryListView.summaryLine(entry.summary ?? "")
        ObjectProperty.set(object, "id", entry.id)
        ObjectProperty.set(object, "title-markup", Self.markup(title, terms: terms))
        ObjectProperty.set(object, "summary-markup", summary.isEmpty ? "" : Self.markup(summary, terms: terms))
        ObjectProperty.set(object, "meta", EntryListView.subtitle([feed, entry.author, EntryDateText.text(for: entry.sortDate)]))
        ObjectProperty.set(object, "is-read", entry.isRead)
        ObjectProperty.set(object, "is-starred", entry.isStarred)
        ObjectProperty.set(object, "is-hidden", entry.hiddenByRule != nil)
        ObjectProperty.set(object, "accessible-name", EntryListView.accessibleName(of: entry, title: title, feed: feed))
        let mediaIcon = switch entry.playableMedia {
        case .video: "video-x-generic-symbolic"
        case .audio: "audio-x-generic-symbolic"
        default: ""
        }
        ObjectProperty.set(object, "media-icon", mediaIcon)
    }

    private static func markup(_ text: String, terms: [String]) -> String {
        guard terms.isEmpty else { return SearchHighlight.markup(text, terms: terms) }
        let escaped = g_markup_escape_text(text, -1)!
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    /// Data a row hangs on the item while it shows it: how the row is found through the model.
    static let rowKey = "feed-reader-row"
}
