import Foundation

/// The content of a reply with `status` 1.
struct TinyTinyRSSFailure: Decodable {
    var error: String
}

/// An id tt-rss sends as a JSON number in one place and a string in another.
struct TinyTinyRSSID: Decodable, Hashable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else {
            value = try container.decode(String.self)
        }
    }
}

struct TinyTinyRSSLogin: Decodable {
    var session_id: String
}

struct TinyTinyRSSCategory: Decodable {
    var id: TinyTinyRSSID
    var title: String
}

struct TinyTinyRSSFeed: Decodable {
    var id: TinyTinyRSSID
    var title: String?
    var feed_url: String
    var cat_id: TinyTinyRSSID?
}

/// A headline with only its id, for the unread and starred id lists.
struct TinyTinyRSSHeadlineID: Decodable {
    var id: TinyTinyRSSID
}

struct TinyTinyRSSHeadline: Decodable {
    var id: TinyTinyRSSID
    var feed_id: TinyTinyRSSID
    var title: String?
    var link: String?
    var author: String?
    var updated: Int64?
    var content: String?
    var unread: Bool
    var marked: Bool
    var attachments: [Attachment]?

    struct Attachment: Decodable {
        var content_url: String?
        var content_type: String?
    }
}

/// The `status` object of `subscribeToFeed`: code 0 already subscribed, 1 added, 2 to 6 refused.
struct TinyTinyRSSSubscription: Decodable {
    var status: Status

    struct Status: Decodable {
        var code: Int
        var message: String?
    }
}

/// Any content, when only the status matters.
struct TinyTinyRSSIgnored: Decodable {
    init(from decoder: any Decoder) throws {}
}
