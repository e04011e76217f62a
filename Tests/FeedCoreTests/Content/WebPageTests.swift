import Foundation
import TestSupport
import Testing
@testable import FeedCore

/// Reading an entry's web page for its article, and the policy that keeps the page from loading anything.
@Suite("Reading web pages", .serialized)
struct WebPageTests {
    @Test(arguments: [
        ("<!DOCTYPE html><html><p>x</p></html>", "<!DOCTYPE html>\(WebPage.loadNothingPolicy)<html><p>x</p></html>"),
        ("\u{FEFF}\n <!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">\n<p>x",
         "\u{FEFF}\n <!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">\(WebPage.loadNothingPolicy)\n<p>x"),
        ("<html><head><script src=a.js></script></head>", "\(WebPage.loadNothingPolicy)<html><head><script src=a.js></script></head>"),
        ("", WebPage.loadNothingPolicy),
    ])
    func thePolicyComesFirstAfterAnyDoctype(page: String, expected: String) {
        let locked = WebPage(body: Data(page.utf8), url: URL(string: "https://a.example/")!).lockedDown.body
        #expect(String(decoding: locked, as: UTF8.self) == expected)
    }

    /// WebKit opens a connection for a preconnect link whatever the policy says: every `<link`
    /// tag becomes a `<meta` one, of the same length, and nothing else changes.
    @Test(arguments: [
        ("<link rel=\"preconnect\" href=\"http://127.0.0.2/\"><LINK\trel=dns-prefetch href=//x><Link/>",
         "<meta rel=\"preconnect\" href=\"http://127.0.0.2/\"><meta\trel=dns-prefetch href=//x><meta/>"),
        ("<p>a <linkage> and <links> stay, so does the text link</p><link", "<p>a <linkage> and <links> stay, so does the text link</p><meta"),
        ("<link>", "<meta>"),
    ])
    func linksBecomeInertMetaElements(page: String, expected: String) {
        let locked = WebPage(body: Data(page.utf8), url: URL(string: "https://a.example/")!).lockedDown.body
        #expect(String(decoding: locked, as: UTF8.self) == WebPage.loadNothingPolicy + expected)
    }

    /// A tag in UTF-16 or UTF-32 is not its ASCII bytes, and in ISO-2022 an escape sequence may
    /// sit inside one (`<`, ESC ( B, `link` reads as `<link`): such a page is made UTF-8 first,
    /// and said to be, so its links become inert too.
    @Test(arguments: [
        (Data([0xFF, 0xFE]) + Self.utf16LE("<link rel=\"preconnect\" href=//x><p>été</p>"), nil, "\u{FEFF}", "été"),
        (Data([0xFE, 0xFF]) + Self.utf16BE("<link rel=\"preconnect\" href=//x><p>été</p>"), "utf-8", "\u{FEFF}", "été"),
        (Self.utf16BE("<link rel=\"preconnect\" href=//x><p>été</p>"), "UTF-16BE", "", "été"),
        (Self.utf16LE("<link rel=\"preconnect\" href=//x><p>été</p>"), "utf-16", "", "été"),
        (Data("<meta charset=\"iso-2022-jp\"><\u{1B}(Blink rel=\"preconnect\" href=//x><p>\u{1B}$BF|K\\8l\u{1B}(B</p>".utf8),
         nil, "<meta charset=\"iso-2022-jp\">", "日本語"),
        (Data("<\u{1B}(Blink rel=\"preconnect\" href=//x><p>\u{1B}$BF|K\\8l\u{1B}(B</p>".utf8), "ISO-2022-JP", "", "日本語"),
    ] as [(Data, String?, String, String)])
    func aPageInAWideOrStatefulEncodingIsMadeUTF8First(body: Data, charset: String?, before: String, text: String) {
        let locked = WebPage(body: body, url: URL(string: "https://a.example/")!, charset: charset).lockedDown

        #expect(locked.charset == "utf-8")
        #expect(String(decoding: locked.body, as: UTF8.self)
                == WebPage.loadNothingPolicy + before + "<meta rel=\"preconnect\" href=//x><p>\(text)</p>")
    }

    /// A page in an encoding browsers read as ASCII bytes keeps its bytes and charset; a `<meta>`
    /// naming UTF-16 is read as UTF-8, as browsers do.
    @Test(arguments: [
        (Data("<meta charset=utf-16><p>plain</p>".utf8), nil as String?),
        (Data([0x3C, 0x70, 0x3E, 0xE9, 0x74, 0xE9]), "windows-1252"),
        (Data([0xEF, 0xBB, 0xBF]) + Data("<p>été</p>".utf8), "utf-16"),
    ])
    func aPageReadAsASCIIBytesKeepsItsEncoding(body: Data, charset: String?) {
        let page = WebPage(body: body, url: URL(string: "https://a.example/")!, charset: charset)
        #expect(page.inASCIICompatibleEncoding.body == body)
        #expect(page.lockedDown.charset == charset)
    }

    private static func utf16LE(_ text: String) -> Data { Data(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) }
    private static func utf16BE(_ text: String) -> Data { Data(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) }

    @Test func aPageIsReadAfterItsRedirectsWithItsCharset() async throws {
        let server = try TestHTTPServer { request in
            request.path == "/old" ? .status(301, headers: [("Location", "/article")])
                : .ok(Data("<p>été</p>".utf8), headers: [("Content-Type", "text/html; charset=ISO-8859-1")])
        }
        defer { server.stop() }

        let page = try await FeedFetcher().fetchPage(server.url("/old"))

        #expect(page.url == server.url("/article"))
        #expect(page.charset == "ISO-8859-1")
        #expect(page.body == Data("<p>été</p>".utf8))
    }

    @Test func anErrorStatusIsAnError() async throws {
        let server = try TestHTTPServer { _ in .status(404) }
        defer { server.stop() }

        await #expect(throws: FetchError.httpStatus(404)) { try await FeedFetcher().fetchPage(server.url("/gone")) }
    }

    @Test func aSlowServerTimesOut() async throws {
        let server = try TestHTTPServer { _ in .init(status: 200, body: Data("<p>late</p>".utf8), delay: 5) }
        defer { server.stop() }
        let fetcher = FeedFetcher(configuration: .init(timeout: .milliseconds(300)))

        await #expect(throws: FetchError.timedOut(after: .milliseconds(300))) { try await fetcher.fetchPage(server.url("/slow")) }
    }

    @Test func aFileIsReadAndOtherSchemesRefused() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("page-\(UUID()).html")
        try Data("<p>saved</p>".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        #expect(try await FeedFetcher().fetchPage(file, readsFiles: true).body == Data("<p>saved</p>".utf8))
        await #expect(throws: FetchError.fileNotFound(path: "/nonexistent/page.html")) {
            try await FeedFetcher().fetchPage(URL(fileURLWithPath: "/nonexistent/page.html"), readsFiles: true)
        }
        await #expect(throws: FetchError.unsupportedScheme("ftp")) { try await FeedFetcher().fetchPage(URL(string: "ftp://a.example/p")!) }
    }

    /// A link from a web feed or a sync server names any file it likes (case 35 of the red team's
    /// second run read /etc/passwd and the app's environment): none is opened, and the answer is
    /// the same whether the file exists or not, so it tells nothing about the disk.
    @Test func aLinkFromElsewhereNeverOpensAFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("page-\(UUID()).html")
        try Data("<p>private</p>".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        for link in [file, URL(string: "file:///etc/passwd")!, URL(string: "file:///proc/self/environ")!,
                     URL(string: "file:///nonexistent/page.html")!, URL(string: "FILE://localhost/etc/passwd")!] {
            await #expect(throws: FetchError.localFileRefused) { try await FeedFetcher().fetchPage(link) }
        }
    }

    /// Only a feed the user added as a local file may have its links read as files: not a web
    /// feed, and not a synced one, whose address (a `file:` one too) a server chose.
    @Test(arguments: [
        ("file:///home/ada/feeds/local.xml", nil, true),
        ("https://news.example/feed.xml", nil, false),
        ("file:///etc/feed.xml", Int64(1), false),
        ("https://sync.example/feed/1", Int64(1), false),
    ] as [(String, Int64?, Bool)])
    func onlyALocalFeedsLinksMayNameFiles(address: String, accountID: Int64?, mayNameFiles: Bool) {
        var feed = StoredFeed(id: 1, url: URL(string: address)!, title: nil, link: nil, iconURL: nil, validators: CacheValidators(),
                              lastFetched: nil, lastAttempt: nil, nextFetch: nil, lastError: nil, lastWarnings: [], position: 0, unreadCount: 0)
        feed.accountID = accountID
        #expect(feed.linksMayNameFiles == mayNameFiles)
    }

    /// A redirect to a local file is refused, and said to be one.
    @Test func aRedirectToAFileIsRefusedAsSuch() async throws {
        let server = try TestHTTPServer { request in
            .status(302, headers: [("Location", request.path == "/file" ? "file:///etc/passwd" : "ftp://127.0.0.1/page")])
        }
        defer { server.stop() }

        await #expect(throws: FetchError.redirectToLocalFile("file:///etc/passwd")) {
            try await FeedFetcher().fetchPage(server.url("/file"), readsFiles: true)
        }
        await #expect(throws: FetchError.badRedirect("refusing to follow a redirect to ftp://127.0.0.1/page")) {
            try await FeedFetcher().fetchPage(server.url("/ftp"))
        }
        #expect(FetchError.redirectToLocalFile("file:///etc/passwd").description == "Refused a redirect to the local file file:///etc/passwd")
    }
}
