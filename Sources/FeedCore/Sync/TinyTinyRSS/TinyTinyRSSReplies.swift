import Foundation

/// The content of a reply with `status` 1.
struct TinyTinyRSSFailure: Decodable {
    var error: String
}

struct TinyTinyRSSLogin: Decodable {
    var session_id: String
}

struct TinyTinyRSSCategory: Decodable {
    var id: LenientNumber
    var title: String
}

struct TinyTinyRSSFeed: Decodable {
    var id: LenientNumber
    var title: String?
    var feed_url: String
    var cat_id: LenientNumber?
}

/// A headline with only its id, for the unread and starred id lists.
struct TinyTinyRSSHeadlineID: Decodable {
    var id: LenientNumber
}

struct TinyTinyRSSHeadline: Decodable {
    var id: LenientNumber
    var feed_id: LenientNumber
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
