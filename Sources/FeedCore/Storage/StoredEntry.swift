import Foundation
import GRDB

/// An entry as the store keeps it, with its read state.
public struct StoredEntry: Sendable, Hashable, Identifiable {
    /// The store's identifier for the entry.
    public var id: Int64
    /// The feed it belongs to.
    public var feedID: Int64
    /// The entry's identifier within its feed (`Entry.id`).
    public var entryID: String
    /// The title as plain text.
    public var title: String?
    /// The entry's web page, parsed when asked for.
    public var link: URL? {
        get { linkText.flatMap { URL(string: $0) } }
        set { linkText = newValue?.absoluteString }
    }
    /// `link` as stored: a listing holds thousands of entries and shows none of their addresses,
    /// and a parsed `URL` costs about 270 bytes of memory and a parse each.
    private var linkText: String?
    /// The author's name.
    public var author: String?
    /// When the entry was published.
    public var published: Date?
    /// When the entry was last changed.
    public var updated: Date?
    /// A short summary as plain text.
    public var summary: String?
    /// The summary as published, HTML.
    public var summaryHTML: String?
    /// The full body as HTML.
    public var content: String?
    /// Attached media; none in a listing (`EntryFields.listing`), which reads only `playableMedia`.
    public var enclosures: [Enclosure]
    /// Whether the reader has read it.
    public var isRead: Bool
    /// Whether the reader starred it to keep.
    public var isStarred: Bool
    /// The rule that hid it from lists and unread counts, or nil.
    public var hiddenByRule: Int64?
    /// When the store first saw the entry.
    public var insertedAt: Date
    /// The date lists are ordered by: published, else updated, else `insertedAt`.
    public var sortDate: Date

    /// What the entry's player would play (`Enclosure.playableMedia(among:)`): video, audio or nil.
    public var playableMedia: Enclosure.Kind? {
        listedMedia ?? Enclosure.playableMedia(among: enclosures)
    }

    /// `playableMedia` as a listing read it, without keeping the enclosures it read it from.
    var listedMedia: Enclosure.Kind?

    /// The position just after this entry, for asking for the page of older entries.
    public var cursor: EntryCursor {
        EntryCursor(sortDate: sortDate, id: id)
    }
}

extension StoredEntry: FetchableRecord {
    /// Reads an `entries` row.
    public init(row: Row) throws {
        id = row["id"]
        feedID = row["feedId"]
        entryID = row["entryId"]
        title = row["title"]
        linkText = row["link"]
        author = row["author"]
        published = row.utcDate("published")
        updated = row.utcDate("updated")
        summaryHTML = row["summaryHTML"]
        summary = FeedStore.summary(stored: row["summary"], html: summaryHTML)
        content = row["content"]
        enclosures = try Self.enclosures(row["enclosures"])
        if row.hasColumn(FeedStore.listedEnclosuresColumn) {
            listedMedia = Enclosure.playableMedia(among: try Self.enclosures(row[FeedStore.listedEnclosuresColumn]))
        }
        isRead = row["isRead"]
        isStarred = row["isStarred"]
        hiddenByRule = row["hiddenByRule"]
        insertedAt = row.utcDate("insertedAt") ?? row["insertedAt"]
        sortDate = row.utcDate("sortDate") ?? row["sortDate"]
    }

    /// The enclosures stored as `json`; none when NULL, as an entry without any stores them.
    private static func enclosures(_ json: Data?) throws -> [Enclosure] {
        try json.map { try JSONDecoder().decode([Enclosure].self, from: $0) } ?? []
    }
}

/// A position in the newest-first entry list, used to page without offsets.
public struct EntryCursor: Sendable, Hashable {
    /// The sort date of the last entry already shown.
    public var sortDate: Date
    /// Its store identifier, which breaks ties between equal dates.
    public var id: Int64

    /// Creates a cursor.
    public init(sortDate: Date, id: Int64) {
        self.sortDate = sortDate
        self.id = id
    }
}

/// Which entries to list, newest first.
public struct EntryQuery: Sendable, Hashable {
    /// Only this feed's entries, or all feeds' when nil.
    public var feedID: Int64?
    /// Only the entries of the feeds in this folder and the folders below it.
    public var folderID: Int64?
    /// Only the entries of this sync account's feeds.
    public var accountID: Int64?
    /// Only the entries carrying this label.
    public var labelID: Int64?
    /// Only unread entries.
    public var unreadOnly: Bool
    /// Only starred entries.
    public var starredOnly: Bool
    /// Entries a rule hid too.
    public var includesHidden: Bool
    /// The most entries to return.
    public var limit: Int
    /// Entries to skip, for offset paging.
    public var offset: Int
    /// Only entries older than this one, for keyset paging ("load 50 older").
    public var olderThan: EntryCursor?
    /// Whether the entries come with their bodies, or only with what a list row shows.
    public var fields: EntryFields
    /// Only the entries a search for this text finds (`SearchQuery`), newest first as any list.
    public var search: String?
    /// An entry listed in its place even once it is read or unstarred (`unreadOnly`,
    /// `starredOnly`): the one being read, which stays in the Unread view until the reader moves
    /// on. Every other condition still applies to it: muted, it goes.
    public var keeping: Int64?

    /// Creates a query; the default is the newest 50 entries of all feeds.
    public init(feedID: Int64? = nil, folderID: Int64? = nil, accountID: Int64? = nil, labelID: Int64? = nil, unreadOnly: Bool = false,
                starredOnly: Bool = false, includesHidden: Bool = false, limit: Int = 50, offset: Int = 0, olderThan: EntryCursor? = nil,
                fields: EntryFields = .all, keeping: Int64? = nil) {
        self.keeping = keeping
        self.feedID = feedID
        self.labelID = labelID
        self.folderID = folderID
        self.accountID = accountID
        self.unreadOnly = unreadOnly
        self.starredOnly = starredOnly
        self.includesHidden = includesHidden
        self.limit = limit
        self.offset = offset
        self.olderThan = olderThan
        self.fields = fields
    }
}

/// How much of each entry a query reads.
public enum EntryFields: Sendable, Hashable {
    /// Everything stored.
    case all
    /// What a list row shows: no content or HTML summary, only the first
    /// `listingSummaryLength` characters of the summary, and no enclosures, only whether the
    /// entry carries audio or video (`StoredEntry.playableMedia`, found among the first
    /// `listingEnclosures` that are no thumbnails). A list that keeps every page it scrolled
    /// through then holds a few hundred bytes an entry, not whole articles or a podcast's
    /// episodes; the body and the enclosures are read by id (`FeedStore.entry(id:)`) when the
    /// entry is opened.
    case listing

    /// The most characters of a summary a listing keeps: more than one line of a list shows.
    public static let listingSummaryLength = 300
    /// The most enclosures a listing reads: enough to tell audio and video among a few files.
    public static let listingEnclosures = 8
}

/// What applying a fetch changed.
public struct ApplySummary: Sendable, Hashable {
    /// Entries the store had not seen before.
    public var newEntries: Int
    /// Known entries whose content changed.
    public var updatedEntries: Int
    /// The new entries the new-entries notification tells of: none a rule hid, and only those a
    /// rule said to announce when the feed's own announcements are off.
    public var announcedEntries = 0
    /// The store's ids of the new entries, to count what is announced once the rules ran.
    var newEntryIDs: [Int64] = []

    /// Creates a summary.
    public init(newEntries: Int = 0, updatedEntries: Int = 0, announcedEntries: Int = 0) {
        self.newEntries = newEntries
        self.updatedEntries = updatedEntries
        self.announcedEntries = announcedEntries
    }

    /// Summaries are equal by their counts; the ids are a step of the store's work.
    public static func == (lhs: ApplySummary, rhs: ApplySummary) -> Bool {
        (lhs.newEntries, lhs.updatedEntries, lhs.announcedEntries) == (rhs.newEntries, rhs.updatedEntries, rhs.announcedEntries)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(newEntries)
        hasher.combine(updatedEntries)
        hasher.combine(announcedEntries)
    }
}
