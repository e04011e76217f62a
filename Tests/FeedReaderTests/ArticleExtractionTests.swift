import CGtk
import FeedCore
import Foundation
import TestSupport
import XCTest
@testable import FeedReader

/// Extracting the readable article of pages written for these tests (ExtractionPages/), each
/// with the text it must give, in the app's offscreen WebKit view.
final class ArticleExtractionTests: XCTestCase {
    static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ExtractionPages")

    /// Runs an extraction to its end on the main loop.
    @MainActor
    static func extract(_ url: URL, readsFiles: Bool = true, fetcher: FeedFetcher = FeedFetcher()) throws -> Result<FullArticle, ArticleExtractionError> {
        var result: Result<FullArticle, ArticleExtractionError>?
        Task { @MainActor in
            do throws(ArticleExtractionError) {
                result = .success(try await ArticleExtraction.extract(from: url, readsFiles: readsFiles, fetcher: fetcher))
            } catch {
                result = .failure(error)
            }
        }
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 40) { result != nil }, "the extraction ended")
        return try XCTUnwrap(result)
    }

    func testASavedArticlePageGivesItsArticleAlonePlainAndSafe() throws {
        try onMain {
            let article = try Self.extract(Self.pages.appendingPathComponent("garden-article.html")).get()
            XCTAssertEqual(article.title, "Covering the beds before the frost – Garden Notes", "the page's title, as Readability reads it")
            let text = HTMLText.plainText(fromHTML: article.html)
            for expected in ["Every November we cover the vegetable beds before the first hard frost.",
                             "the kind that comes around a new bicycle",
                             "By March most of it has gone",
                             "The three long beds under their straw, early November."] {
                XCTAssertTrue(text.contains(expected), "\(expected) in:\n\(text)")
            }
            for left in ["Subscribe to the newsletter", "Tomatoes in a cold summer", "About the gardeners", "Privacy", "Search the notes"] {
                XCTAssertFalse(text.contains(left), "\(left) is not part of the article")
            }
            let html = article.html.lowercased()
            for unsafe in ["<script", "<iframe", "javascript:", "onerror", "onclick", "onload", "<form", "<input"] {
                XCTAssertFalse(html.contains(unsafe), "no \(unsafe) in:\n\(article.html)")
            }
            XCTAssertTrue(article.html.contains("<math display=\"block\"><mfrac><mi>w</mi><mn>3</mn></mfrac></math>"), article.html)
            XCTAssertFalse(article.html.contains("file:"), "links resolved to files are dropped: \(article.html)")
            XCTAssertEqual(article.pageURL, Self.pages.appendingPathComponent("garden-article.html"))
        }
    }

    /// Debian's Readability 0.4.1 threw InvalidCharacterError here (docs/full-article.md).
    func testAttributeNamesNoScriptCouldSetDoNotStopTheExtraction() throws {
        try onMain {
            let article = try Self.extract(Self.pages.appendingPathComponent("malformed-attributes.html")).get()
            let text = HTMLText.plainText(fromHTML: article.html)
            XCTAssertTrue(text.contains("Leaf mould is the slowest compost we make"), text)
            XCTAssertTrue(text.contains("smells of a forest floor"), text)
        }
    }

    func testAPageOfLinksHasNoArticle() throws {
        try onMain {
            XCTAssertEqual(try Self.extract(Self.pages.appendingPathComponent("link-listing.html")), .failure(.noArticle))
        }
    }

    /// The page comes over HTTP with its charset in the header, relative links resolve against
    /// its address after a redirect, and nothing but the page itself is requested: not its
    /// style sheet, script, image or frame, nor the page its meta refresh leads to.
    func testAServedPageIsReadInItsCharsetAndNothingElseIsRequested() throws {
        let paragraph = "Caf\u{E9} au lait in the potting shed, every morning before the frost lifts, while the kettle sings and the seedlings wait. "
        let page = """
            <html><head><title>Le caf\u{E9}</title><link rel="stylesheet" href="/style.css"><script src="/app.js"></script>
            <meta http-equiv="refresh" content="0; url=/elsewhere"></head>
            <body><article><h1>Le caf\u{E9}</h1><p>\(String(repeating: paragraph, count: 4))</p>
            <p><img src="/pixel.gif" alt=""><a href="notes/more">More notes</a></p><iframe src="/frame"></iframe></article></body></html>
            """
        let body = try XCTUnwrap(page.data(using: .windowsCP1252))
        let server = try TestHTTPServer { request in
            request.path == "/moved" ? .status(302, headers: [("Location", "/blog/cafe")])
                : .ok(body, headers: [("Content-Type", "text/html; charset=windows-1252")])
        }
        defer { server.stop() }
        try onMain {
            let article = try Self.extract(server.url("/moved")).get()
            XCTAssertEqual(article.title, "Le café")
            XCTAssertTrue(HTMLText.plainText(fromHTML: article.html).contains("Café au lait in the potting shed"), article.html)
            XCTAssertTrue(article.html.contains("<a href=\"\(server.url("/blog/notes/more").absoluteString)\">"), article.html)
            GtkTestEnvironment.iterate(for: 0.5)
            XCTAssertEqual(server.requests.map(\.path), ["/moved", "/blog/cafe"], "only the page was requested")
        }
    }

    func testAnHTTPErrorAndASlowServerSaySo() throws {
        let server = try TestHTTPServer { request in
            request.path == "/slow" ? .init(status: 200, body: Data("<p>late</p>".utf8), delay: 5) : .status(404)
        }
        defer { server.stop() }
        try onMain {
            let missing = try Self.extract(server.url("/gone"))
            XCTAssertEqual(missing, .failure(.unreadablePage(.httpStatus(404))))
            if case let .failure(error) = missing {
                XCTAssertTrue(error.sentence.hasPrefix("The entry’s web page could not be read."), error.sentence)
                XCTAssertTrue(error.sentence.contains("404"), error.sentence)
            }
            let fetcher = FeedFetcher(configuration: .init(timeout: .milliseconds(500)))
            let slow = try Self.extract(server.url("/slow"), fetcher: fetcher)
            XCTAssertEqual(slow, .failure(.unreadablePage(.timedOut(after: .milliseconds(500)))))
            if case let .failure(error) = slow {
                XCTAssertEqual(error.sentence, "The entry’s web page could not be read. The server took too long to answer.")
            }
        }
    }

    /// An article of `paragraphs` paragraphs about mulch, with `extra` markup in its head and body.
    static func mulchPage(head: String = "", body: String = "", paragraphs: Int = 4) -> Data {
        let paragraph = "<p>Mulch the beds in autumn with straw and leaves, and the worms pull it down by spring while the soil stays soft. </p>"
        return Data("""
            <!DOCTYPE html><html><head><title>Mulch</title>\(head)</head>
            <body>\(body)<article><h1>Mulch</h1>\(String(repeating: paragraph, count: paragraphs))</article></body></html>
            """.utf8)
    }

    /// WebKit opens a connection for a preconnect link whatever the page's policy says (case 32
    /// of the red team's second run): the host named learns who reads the page, and when. A
    /// second server on 127.0.0.1 stands for that host and counts every connection it gets.
    /// The same page in UTF-16 and in ISO-2022-JP, where a tag is not its ASCII bytes (an escape
    /// sequence inside `<link` still reads as `<link`), opens none either.
    func testAPreconnectLinkOpensNoConnection() throws {
        let other = try TestHTTPServer { _ in .status(204) }
        defer { other.stop() }
        let links = ["preconnect", "dns-prefetch", "prefetch", "preload", "stylesheet"].map {
            "<link rel=\"\($0)\" href=\"\(other.url("/\($0)").absoluteString)\" as=\"style\" crossorigin>"
        }.joined()
        let page = Self.mulchPage(head: links, body: links)
        let utf16 = Data([0xFF, 0xFE]) + Data(String(decoding: page, as: UTF8.self).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let iso2022 = Data(String(decoding: page, as: UTF8.self).replacingOccurrences(of: "<link", with: "<\u{1B}(Blink").utf8)
        let pages = ["/mulch": (page, "text/html"), "/utf-16": (utf16, "text/html"), "/iso-2022-jp": (iso2022, "text/html; charset=ISO-2022-JP")]
        let server = try TestHTTPServer { request in
            pages[request.path].map { .ok($0.0, headers: [("Content-Type", $0.1)]) } ?? .status(404)
        }
        defer { server.stop() }
        try onMain {
            for path in ["/mulch", "/utf-16", "/iso-2022-jp"] {
                let article = try Self.extract(server.url(path)).get()
                XCTAssertTrue(HTMLText.plainText(fromHTML: article.html).contains("the worms pull it down"), "\(path): \(article.html)")
            }
            // The extractions are over; a connection WebKit had started would have arrived by now.
            GtkTestEnvironment.iterate(for: 1)
            XCTAssertEqual(other.connections, 0, "no connection to the host the page named")
            XCTAssertEqual(server.requests.map(\.path), ["/mulch", "/utf-16", "/iso-2022-jp"])
        }
    }

    /// Page markup reaches the extraction's script world through named properties: `<img
    /// name="cloneNode">` made every extraction fail (case 33), and a form's controls hide the
    /// form's own methods. Such a page still gives its article.
    func testNamedElementsCannotBreakTheExtraction() throws {
        let clobbering = """
            <img name="cloneNode" src="data:,"><img name="createElement"><form name="body"><input name="getAttribute">
            <input id="getElementsByTagName"><input name="parentNode"><button name="tagName">b</button></form>
            <embed name="documentElement" id="title"><object name="getElementsByTagName" id="querySelectorAll"></object>
            """
        let file = temporaryDirectory().appendingPathComponent("clobbered.html")
        try Self.mulchPage(body: clobbering).write(to: file)
        try onMain {
            let article = try Self.extract(file).get()
            XCTAssertEqual(article.title, "Mulch")
            XCTAssertTrue(HTMLText.plainText(fromHTML: article.html).contains("the worms pull it down"), article.html)
        }
    }

    /// WebKit's processes took 2.3 GB for a 19.5 MB page (case 34): a page over 5 MB is not
    /// extracted, and says so.
    func testAPageOverFiveMegabytesIsRefusedAsTooLarge() throws {
        let page = Self.mulchPage(paragraphs: ArticleExtraction.maxPageSize / 100)
        XCTAssertGreaterThan(page.count, ArticleExtraction.maxPageSize)
        let server = try TestHTTPServer { _ in .ok(page, headers: [("Content-Type", "text/html")]) }
        defer { server.stop() }
        try onMain {
            let result = try Self.extract(server.url("/huge"))
            XCTAssertEqual(result, .failure(.unreadablePage(.tooLarge(limit: ArticleExtraction.maxPageSize))))
            if case let .failure(error) = result {
                XCTAssertEqual(error.sentence, "The entry’s web page is too large to be read.")
            }
        }
    }
}
