import Foundation

/// The parts of a JSON Feed (https://jsonfeed.org, versions 1.0 and 1.1) a reader uses.
///
/// Every field is decoded leniently: a value of the wrong type is dropped on its own rather than
/// failing the whole feed, since real feeds put numbers in `id` or a single object in `authors`.
struct JSONFeedDocument: Decodable {
    var version: String?
    var title: String?
    var homePageURL: String?
    var feedURL: String?
    var description: String?
    var icon: String?
    var favicon: String?
    var authors: [JSONFeedAuthor]
    var items: [JSONFeedItem]?

    enum CodingKeys: String, CodingKey {
        case version, title, description, icon, favicon, author, authors, items
        case homePageURL = "home_page_url"
        case feedURL = "feed_url"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = container.lenientString(.version)
        title = container.lenientString(.title)
        homePageURL = container.lenientString(.homePageURL)
        feedURL = container.lenientString(.feedURL)
        description = container.lenientString(.description)
        icon = container.lenientString(.icon)
        favicon = container.lenientString(.favicon)
        authors = container.authors(.authors, legacyKey: .author)
        items = try? container.decodeIfPresent([Lenient<JSONFeedItem>].self, forKey: .items)?.compactMap(\.value)
    }
}

/// One item of a JSON Feed.
struct JSONFeedItem: Decodable {
    var id: String?
    var url: String?
    var externalURL: String?
    var title: String?
    var contentHTML: String?
    var contentText: String?
    var summary: String?
    var datePublished: String?
    var dateModified: String?
    var authors: [JSONFeedAuthor]
    var attachments: [JSONFeedAttachment]
    /// The item's main picture, JSON Feed's counterpart of `media:thumbnail`.
    var image: String?

    enum CodingKeys: String, CodingKey {
        case id, url, title, summary, author, authors, attachments, image
        case externalURL = "external_url"
        case contentHTML = "content_html"
        case contentText = "content_text"
        case datePublished = "date_published"
        case dateModified = "date_modified"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.lenientString(.id)
        url = container.lenientString(.url)
        externalURL = container.lenientString(.externalURL)
        title = container.lenientString(.title)
        contentHTML = container.lenientString(.contentHTML)
        contentText = container.lenientString(.contentText)
        summary = container.lenientString(.summary)
        datePublished = container.lenientString(.datePublished)
        dateModified = container.lenientString(.dateModified)
        image = container.lenientString(.image)
        authors = container.authors(.authors, legacyKey: .author)
        attachments = (try? container.decodeIfPresent([Lenient<JSONFeedAttachment>].self, forKey: .attachments))?
            .flatMap { $0.compactMap(\.value) } ?? []
    }
}

/// An author object; only the name is shown.
struct JSONFeedAuthor: Decodable {
    var name: String?

    enum CodingKeys: String, CodingKey {
        case name
    }

    init(from decoder: Decoder) throws {
        name = try decoder.container(keyedBy: CodingKeys.self).lenientString(.name)
    }
}

/// A file attached to an item, such as a podcast episode.
struct JSONFeedAttachment: Decodable {
    var url: String
    var mimeType: String?
    var sizeInBytes: Int64?

    enum CodingKeys: String, CodingKey {
        case url
        case mimeType = "mime_type"
        case sizeInBytes = "size_in_bytes"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        mimeType = container.lenientString(.mimeType)
        sizeInBytes = try? container.decodeIfPresent(Int64.self, forKey: .sizeInBytes)
    }
}

/// Decodes a value if it can, and nil otherwise, so one bad array element does not sink its siblings.
private struct Lenient<Value: Decodable>: Decodable {
    var value: Value?

    init(from decoder: Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// A string, or a number written as one (`"id": 42`), or nil for anything else.
    fileprivate func lenientString(_ key: Key) -> String? {
        if let string = try? decodeIfPresent(String.self, forKey: key) {
            return string
        }
        if let integer = try? decodeIfPresent(Int64.self, forKey: key) {
            return String(integer)
        }
        return nil
    }

    /// JSON Feed 1.1's `authors` array, falling back to 1.0's single `author` object.
    fileprivate func authors(_ key: Key, legacyKey: Key) -> [JSONFeedAuthor] {
        if let authors = try? decodeIfPresent([Lenient<JSONFeedAuthor>].self, forKey: key) {
            return authors.compactMap(\.value)
        }
        if let author = try? decodeIfPresent(JSONFeedAuthor.self, forKey: legacyKey) {
            return [author]
        }
        return []
    }
}
