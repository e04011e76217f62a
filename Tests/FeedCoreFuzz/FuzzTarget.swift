// Testable: the sync clients' answer readers are internal to FeedCore.
@testable import FeedCore
import Foundation

/// The HTTP charsets an input may arrive with, chosen by its first byte, so the fuzzer reaches
/// every way into the decoders too.
private let charsets: [String?] = [nil, "windows-1251", "Shift_JIS", "UTF-16", "GB18030", "IBM037", "x-unknown", "utf-8"]

/// libFuzzer's entry point: any bytes, as any feed document, as an OPML subscription list, as a
/// sync server's JSON answer and as an enclosure's address, must parse or fail cleanly.
///
/// `meson-helpers/fuzz` links this module with libFuzzer, whose `main` calls it; the program it
/// makes also replays a saved input given its path.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let charset = charsets[Int(bytes[0]) % charsets.count]
    let document = Data(bytes: bytes + 1, count: count - 1)
    _ = try? FeedParser().parse(document, url: URL(string: "https://fuzz.example/feed"), charset: charset)
    _ = try? OPMLDocument(data: document)
    // The same bytes as a feed's icon, whose header is read before anything decodes it, and as
    // an entry's HTML, sanitized before it is shown.
    _ = IconImage.isDecodable(document)
    // As the sync answers read by JSONReader: Google Reader's items and ids, tt-rss's headlines.
    var items: [GoogleReaderItem] = []
    _ = try? GoogleReaderClient.items(in: document, into: &items)
    _ = try? GoogleReaderClient.itemRefs(in: document)
    _ = try? TinyTinyRSSClient.headlinesReply("getHeadlines", document)
    // And the paging they steer: a stored tt-rss cursor read back, the continuation asked for
    // after a page of Google Reader ids.
    _ = ArticlesCursor(String(decoding: document, as: UTF8.self)).text
    if let page = try? GoogleReaderClient.itemRefs(in: document), let next = page.continuation {
        _ = GoogleReaderClient.overlappingContinuation(next, after: page.ids)
    }
    _ = HTMLSanitizer.sanitize(String(decoding: document, as: UTF8.self), base: URL(string: "https://fuzz.example/post/"))
    // As an enclosure's address, whose last part names the file a download saves: never a path,
    // a hidden file, nor a name a bidi or control character makes read as another.
    var address = URLComponents()
    (address.scheme, address.host, address.path) = ("https", "fuzz.example", "/" + String(decoding: document, as: UTF8.self))
    if let url = address.url {
        let name = EnclosureDownload.fileName(for: url)
        precondition(!name.isEmpty && !name.hasPrefix(".") && !name.contains("/"), "unsafe file name \(name.debugDescription)")
        precondition(!name.unicodeScalars.contains { [.format, .control].contains($0.properties.generalCategory) },
                     "file name with format or control characters: \(name.debugDescription)")
        _ = EnclosureDownload.candidate(name, attempt: 2)
    }
    return 0
}
