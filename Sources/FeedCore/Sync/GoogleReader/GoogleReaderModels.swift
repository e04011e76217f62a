import Foundation

/// A stream id of the Google Reader API: a feed (`feed/…`), a label (`user/…/label/…`) or a state.
enum GoogleReaderStream {
    /// Every item of every subscription.
    static let readingList = "user/-/state/com.google/reading-list"
    static let read = "user/-/state/com.google/read"
    static let starred = "user/-/state/com.google/starred"

    /// The label stream of `name`; categories (folders) and item labels share this namespace.
    static func label(_ name: String) -> String {
        "user/-/label/\(name)"
    }

    /// The label's name in a label stream id, whatever its user part (`-` or Inoreader's numeric
    /// user id); nil for any other stream.
    static func labelName(_ streamID: String) -> String? {
        userStreamSuffix(streamID.utf8, kind: "label").map { String(streamID[$0...]) }
    }

    /// Whether `streamID` is the state `state` (`read`, `starred`) of any user part.
    static func isState(_ streamID: String, _ state: String) -> Bool {
        isState(utf8: streamID.utf8, state)
    }

    /// Whether the stream id spelled by the UTF-8 bytes `streamID` is the state `state`: an
    /// item's categories are compared where the answer holds them, no String made for them.
    static func isState(utf8 streamID: some Collection<UInt8>, _ state: String) -> Bool {
        guard let start = userStreamSuffix(streamID, kind: "state") else { return false }
        let suffix = streamID[start...]
        guard suffix.starts(with: "com.google/".utf8) else { return false }
        return suffix.dropFirst("com.google/".utf8.count).elementsEqual(state.utf8)
    }

    /// Where what follows `user/<any user part>/<kind>/` starts in `bytes`, when something does.
    /// Read byte by byte: every category of every item of a sync goes through here, and reading
    /// them by characters was 3% of a sync's CPU (docs/performance.md, Sync).
    private static func userStreamSuffix<Bytes: Collection<UInt8>>(_ bytes: Bytes, kind: String) -> Bytes.Index? {
        let slash = UInt8(ascii: "/")
        guard bytes.starts(with: "user/".utf8) else { return nil }
        let afterUser = bytes.index(bytes.startIndex, offsetBy: "user/".utf8.count)
        guard let userEnd = bytes[afterUser...].firstIndex(of: slash) else { return nil }
        let rest = bytes[bytes.index(after: userEnd)...]
        guard rest.starts(with: kind.utf8) else { return nil }
        let kindEnd = bytes.index(rest.startIndex, offsetBy: kind.utf8.count)
        guard kindEnd < bytes.endIndex, bytes[kindEnd] == slash else { return nil }
        let start = bytes.index(after: kindEnd)
        return start == bytes.endIndex ? nil : start
    }
}

/// A folder: a label subscriptions are filed under, or one the server marks as a folder.
struct GoogleReaderFolder: Hashable, Sendable {
    /// The label's stream id as the server spells it.
    var id: String
    var name: String
}

/// One subscription of `subscription/list`.
struct GoogleReaderSubscription: Hashable, Sendable {
    /// The feed's stream id (`feed/3` on FreshRSS, `feed/http://…` on Google and Inoreader).
    var id: String
    var title: String
    /// The feed's own address; some services give only the stream id, which then holds it.
    var url: URL?
    var siteURL: URL?
    /// The folders it is filed under; FreshRSS files every feed under exactly one.
    var folders: [GoogleReaderFolder]
}

/// One item of `stream/items/contents`.
struct GoogleReaderItem: Hashable, Sendable {
    var id: GoogleReaderItemID
    /// The stream id of the subscription it came from.
    var feedID: String
    var title: String
    var url: URL?
    var author: String?
    var published: Date?
    /// When the server first saw the item, which is what `ot` and `mark-all-as-read`'s `ts` compare with.
    var crawled: Date?
    var html: String
    var isRead: Bool
    var isStarred: Bool
}

// MARK: - Wire forms

struct GoogleReaderSubscriptionListWire: Decodable {
    struct Category: Decodable {
        var id: String
        var label: String?
    }

    struct Subscription: Decodable {
        var id: String
        var title: String?
        var categories: [Category]?
        var url: String?
        var htmlUrl: String?
    }

    var subscriptions: [Subscription]
}

struct GoogleReaderTagListWire: Decodable {
    struct Tag: Decodable {
        var id: String
        /// "folder" for a category, "tag" for an item's label; missing on services that do not tell.
        var type: String?
    }

    var tags: [Tag]
}

struct GoogleReaderQuickAddWire: Decodable {
    var numResults: Int?
    var streamId: String?
    var error: String?
}
