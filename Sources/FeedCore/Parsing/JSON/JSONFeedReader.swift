import Foundation

/// Reads JSON Feed documents into the common model.
enum JSONFeedReader {
    static func parse(_ data: Data, documentURL: URL?) throws(FeedParseError) -> ParsedFeed {
        let document: JSONFeedDocument
        do {
            document = try JSONDecoder().decode(JSONFeedDocument.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw .malformedJSON(reason: Self.reason(for: context))
        } catch {
            throw .unsupportedFormat(found: "the JSON document is not a JSON Feed (its top level is not an object)")
        }
        guard let version = document.version, version.contains("jsonfeed.org/version/1") else {
            throw .unsupportedFormat(found: "the JSON document is not a JSON Feed (no jsonfeed.org version)")
        }
        let feedURL = resolveURL(document.feedURL, against: documentURL)
        let link = resolveURL(document.homePageURL, against: documentURL)
        let feedAuthor = document.authors.compactMap(\.name).first
        let feed = Feed(
            id: feedURL?.absoluteString ?? link?.absoluteString ?? documentURL?.absoluteString
                ?? EntryDraft.stableID(title: document.title, date: nil, fallback: document.description),
            title: nonEmpty(document.title).map(HTMLText.collapsingWhitespace),
            link: link,
            description: nonEmpty(document.description).map(HTMLText.collapsingWhitespace),
            iconURL: resolveURL(document.icon, against: documentURL) ?? resolveURL(document.favicon, against: documentURL)
        )
        let entries = (document.items ?? []).map { item in
            entry(from: item, base: feedURL ?? documentURL, defaultAuthor: feedAuthor)
        }
        return ParsedFeed(format: .jsonFeed, feed: feed, entries: entries)
    }

    private static func entry(from item: JSONFeedItem, base: URL?, defaultAuthor: String?) -> Entry {
        var draft = EntryDraft()
        draft.id = item.id
        draft.title = nonEmpty(item.title).map(HTMLText.collapsingWhitespace)
        draft.link = resolveAddress(item.url, against: base) ?? resolveAddress(item.externalURL, against: base)
        draft.author = item.authors.compactMap(\.name).first.flatMap(nonEmpty)
        draft.published = item.datePublished.flatMap(FeedDate.parse)
        draft.updated = item.dateModified.flatMap(FeedDate.parse)
        draft.summary = nonEmpty(item.summary).map(HTMLText.collapsingWhitespace)
        draft.content = nonEmpty(item.contentHTML) ?? nonEmpty(item.contentText).map(MarkupEscaping.escaped)
        for attachment in item.attachments {
            if let url = resolveURL(attachment.url, against: base) {
                draft.addEnclosure(Enclosure(url: url, type: nonEmpty(attachment.mimeType), length: attachment.sizeInBytes))
            }
        }
        if let image = resolveURL(item.image, against: base) {
            draft.addEnclosure(Enclosure(url: image, isThumbnail: true))
        }
        return draft.entry(defaultAuthor: defaultAuthor)
    }

    /// The decoder's own explanation, which names the position of the fault when it knows it.
    private static func reason(for context: DecodingError.Context) -> String {
        let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
        return underlying ?? context.debugDescription
    }
}
