import Foundation

/// The answers a sync reads by the thousand, read with `JSONReader`: `stream/items/ids` and
/// `stream/items/contents`. Keys these do not name are skipped, as servers add their own.
extension GoogleReaderClient {
    /// The ids of a `stream/items/ids` answer and its continuation, if any.
    static func itemRefs(in answer: Data) throws(WebAPIError) -> (ids: [GoogleReaderItemID], continuation: String?) {
        try JSONReader.read(answer) { reader throws(WebAPIError) in
            var ids: [GoogleReaderItemID] = []
            var continuation: String?
            try reader.readObject { reader, key throws(WebAPIError) in
                switch key {
                case "itemRefs":
                    ids = []
                    guard try !reader.readNull() else { return }
                    try reader.readArray { reader throws(WebAPIError) in
                        ids.append(try itemRef(&reader))
                    }
                case "continuation":
                    continuation = try reader.readOptionalLenientNumber()?.text
                default:
                    try reader.skipValue()
                }
            }
            return (ids, continuation)
        }
    }

    /// One of `itemRefs`: an object whose `id` is the item's decimal id, as a string or a number.
    private static func itemRef(_ reader: inout JSONReader) throws(WebAPIError) -> GoogleReaderItemID {
        var id: LenientNumber?
        try reader.readObject { reader, key throws(WebAPIError) in
            switch key {
            case "id":
                id = try reader.readLenientNumber()
            default:
                try reader.skipValue()
            }
        }
        guard let id, let itemID = GoogleReaderItemID(id.text) else { throw .malformedAnswer }
        return itemID
    }

    /// The items of a `stream/items/contents` answer, appended to `items`.
    static func items(in answer: Data, into items: inout [GoogleReaderItem]) throws(WebAPIError) {
        try JSONReader.read(answer) { reader throws(WebAPIError) in
            var hasItems = false
            let start = items.count
            try reader.readObject { reader, key throws(WebAPIError) in
                switch key {
                case "items":
                    hasItems = true
                    items.removeSubrange(start...)
                    try reader.readArray { reader throws(WebAPIError) in
                        items.append(try item(&reader))
                    }
                case "continuation":
                    _ = try reader.readOptionalLenientNumber()
                default:
                    try reader.skipValue()
                }
            }
            guard hasItems else { throw .malformedAnswer }
        }
    }

    /// One item of `stream/items/contents`. Its id and its subscription's stream id are required;
    /// the other fields may be missing or null.
    private static func item(_ reader: inout JSONReader) throws(WebAPIError) -> GoogleReaderItem {
        var id: String?
        var feedID: String?
        var title: String?
        var published: Int64?
        var crawlTimeMsec: Int64?
        var timestampUsec: Int64?
        var canonical: String?
        var alternate: String?
        var author: String?
        var isRead = false
        var isStarred = false
        var summary: String?
        var content: String?
        try reader.readObject { reader, key throws(WebAPIError) in
            switch key {
            case "id": id = try reader.readString()
            case "title": title = try reader.readOptionalString()
            case "published": published = try reader.readOptionalLenientInt64()
            case "crawlTimeMsec": crawlTimeMsec = try reader.readOptionalLenientInt64()
            case "timestampUsec": timestampUsec = try reader.readOptionalLenientInt64()
            case "canonical": canonical = try firstHref(&reader)
            case "alternate": alternate = try firstHref(&reader)
            case "author": author = try reader.readOptionalString()
            case "categories":
                isRead = false
                isStarred = false
                guard try !reader.readNull() else { return }
                try reader.readArray { reader throws(WebAPIError) in
                    try reader.readString { category in
                        isRead = isRead || GoogleReaderStream.isState(utf8: category, "read")
                        isStarred = isStarred || GoogleReaderStream.isState(utf8: category, "starred")
                    }
                }
            case "origin": feedID = try reader.readNull() ? nil : reader.readMember("streamId")
            case "summary": summary = try reader.readNull() ? nil : reader.readMember("content")
            case "content": content = try reader.readNull() ? nil : reader.readMember("content")
            default: try reader.skipValue()
            }
        }
        guard let id, let itemID = GoogleReaderItemID(id), let feedID else { throw .malformedAnswer }
        let crawled = timestampUsec.map { Date(timeIntervalSince1970: Double($0) / 1_000_000) }
            ?? crawlTimeMsec.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        return GoogleReaderItem(
            id: itemID,
            feedID: feedID,
            title: title ?? "",
            url: (canonical ?? alternate).flatMap(URL.init(string:)),
            author: author.flatMap { $0.isEmpty ? nil : $0 },
            published: published.map { Date(timeIntervalSince1970: Double($0)) },
            crawled: crawled,
            // Google put the body in `content` for full-text feeds and in `summary` otherwise;
            // FreshRSS always uses `summary`.
            html: content ?? summary ?? "",
            isRead: isRead,
            isStarred: isStarred
        )
    }

    /// The `href` of the first of a list of links (`canonical`, `alternate`); nil for null, an
    /// empty list, or a first link without one.
    private static func firstHref(_ reader: inout JSONReader) throws(WebAPIError) -> String? {
        guard try !reader.readNull() else { return nil }
        var first: String??
        try reader.readArray { reader throws(WebAPIError) in
            let href = try reader.readMember("href")
            if first == nil {
                first = .some(href)
            }
        }
        return first ?? nil
    }
}
