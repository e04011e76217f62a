import Foundation

/// `getHeadlines` with the articles' content, the answers a first sync reads by the hundred, read
/// with `JSONReader` straight into articles. Keys these do not name are skipped.
extension TinyTinyRSSClient {
    /// The articles of a `getHeadlines` call with `parameters`.
    func headlines(_ parameters: [String: any Sendable]) async throws(SyncError) -> [RemoteArticle] {
        try await call("getHeadlines", parameters, opening: Self.headlinesReply)
    }

    /// The envelope of a `getHeadlines` reply with its articles or its error code. `status` and
    /// `content` may come in either order: when the content comes first, it is read in a second
    /// pass, once the status says what it is.
    static func headlinesReply(_ operation: String, _ data: Data) throws(SyncError) -> TinyTinyRSSReply<[RemoteArticle]> {
        do {
            let first = try envelope(data, status: nil)
            guard let status = first.status else { throw WebAPIError.malformedAnswer }
            guard let reply = try first.reply ?? envelope(data, status: status).reply else { throw WebAPIError.malformedAnswer }
            return reply
        } catch {
            throw SyncError(.badResponse, "\(operation): the answer is not the tt-rss API's: malformed JSON")
        }
    }

    /// One pass over a reply's envelope: its status, unless `status` is known already, and its
    /// content when the status is known by the time the content comes.
    private static func envelope(_ data: Data, status known: Int64?) throws(WebAPIError)
        -> (status: Int64?, reply: TinyTinyRSSReply<[RemoteArticle]>?) {
        var status = known
        var reply: TinyTinyRSSReply<[RemoteArticle]>?
        try JSONReader.read(data) { reader throws(WebAPIError) in
            try reader.readObject { reader, key throws(WebAPIError) in
                switch key {
                case "status" where known == nil:
                    status = try reader.readInt64()
                case "content":
                    if let status {
                        reply = try content(&reader, status: status)
                    } else {
                        try reader.skipValue()
                    }
                default:
                    try reader.skipValue()
                }
            }
        }
        return (status, reply)
    }

    /// A reply's content: the articles for status 0, the error code of an `error` object otherwise.
    private static func content(_ reader: inout JSONReader, status: Int64) throws(WebAPIError) -> TinyTinyRSSReply<[RemoteArticle]> {
        guard status == 0 else {
            guard let code = try reader.readMember("error") else { throw .malformedAnswer }
            return .failure(code)
        }
        var articles: [RemoteArticle] = []
        try reader.readArray { reader throws(WebAPIError) in
            articles.append(try article(&reader))
        }
        return .success(articles)
    }

    /// One headline: its id, feed id and states are required; the rest may be missing or null.
    private static func article(_ reader: inout JSONReader) throws(WebAPIError) -> RemoteArticle {
        var id: LenientNumber?
        var feedID: LenientNumber?
        var title: String?
        var link: String?
        var author: String?
        var updated: Int64?
        var content: String?
        var unread: Bool?
        var marked: Bool?
        var enclosures: [Enclosure] = []
        try reader.readObject { reader, key throws(WebAPIError) in
            switch key {
            case "id": id = try reader.readLenientNumber()
            case "feed_id": feedID = try reader.readLenientNumber()
            case "title": title = try reader.readOptionalString()
            case "link": link = try reader.readOptionalString()
            case "author": author = try reader.readOptionalString()
            case "updated": updated = try reader.readNull() ? nil : reader.readInt64()
            case "content": content = try reader.readOptionalString()
            case "unread": unread = try reader.readBool()
            case "marked": marked = try reader.readBool()
            case "attachments":
                enclosures = []
                guard try !reader.readNull() else { return }
                try reader.readArray { reader throws(WebAPIError) in
                    if let enclosure = try attachment(&reader) {
                        enclosures.append(enclosure)
                    }
                }
            default: try reader.skipValue()
            }
        }
        guard let id, let feedID, let unread, let marked else { throw .malformedAnswer }
        return RemoteArticle(
            id: id.text, feedID: feedID.text, title: title, link: link.flatMap(URL.init(string:)),
            author: author.flatMap { $0.isEmpty ? nil : $0 }, published: updated.map { Date(timeIntervalSince1970: TimeInterval($0)) },
            updated: nil, content: content, enclosures: enclosures, isRead: !unread, isStarred: marked)
    }

    /// An attachment as an enclosure; nil without a usable address.
    private static func attachment(_ reader: inout JSONReader) throws(WebAPIError) -> Enclosure? {
        var url: String?
        var type: String?
        try reader.readObject { reader, key throws(WebAPIError) in
            switch key {
            case "content_url": url = try reader.readOptionalString()
            case "content_type": type = try reader.readOptionalString()
            default: try reader.skipValue()
            }
        }
        return url.flatMap(URL.init(string:)).map { Enclosure(url: $0, type: type) }
    }
}
