import Foundation
import XCTest

/// `feed-reader --extract`, run as the built program on pages written for the tests.
extension CommandLineTests {
    private static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ExtractionPages")

    /// The graphical session the tests run in, for the runs that need one: its display and its
    /// session bus, as a terminal in a desktop session has them. Without the bus, the
    /// accessibility library of a process on the X display starts an accessibility bus of its
    /// own and names it on the display, where every later client finds that empty bus.
    private var display: [String: String] {
        let names: Set = ["DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"]
        return ProcessInfo.processInfo.environment.filter { names.contains($0.key) }
    }

    /// The program's own line of standard error, its only one: the libraries it loads may warn
    /// around it (WebKit that it draws without GL where the session has none, its web process
    /// that it found no accessibility bus), and those lines are theirs.
    private static func reason(in errors: String) -> String {
        let own = errors.split(separator: "\n").filter { $0.hasPrefix("feed-reader: ") }
        XCTAssertEqual(own.count, 1, errors)
        return own.first.map(String.init) ?? ""
    }

    func testExtractPrintsTheTitleThenTheSanitizedArticle() throws {
        let run = try feedReader(["--extract", Self.pages.appendingPathComponent("garden-article.html").path], extra: display)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.hasPrefix("<h1>Covering the beds before the frost – Garden Notes</h1>\n"), run.output)
        XCTAssertTrue(run.output.contains("the kind that comes around a new bicycle"), run.output)
        XCTAssertTrue(run.output.contains("<mfrac><mi>w</mi><mn>3</mn></mfrac>"), "the formula is kept")
        let lowered = run.output.lowercased()
        for unsafe in ["<script", "<iframe", "javascript:", "onerror=", "onclick=", "onload="] {
            XCTAssertFalse(lowered.contains(unsafe), "no \(unsafe) in:\n\(run.output)")
        }
        XCTAssertFalse(run.output.contains("Subscribe to the newsletter"))
    }

    func testExtractFailsWithTheReasonWhenThereIsNoArticleOrNoPage() throws {
        let listing = try feedReader(["--extract", Self.pages.appendingPathComponent("link-listing.html").path], extra: display)
        XCTAssertEqual(listing.status, 1)
        XCTAssertEqual(listing.output, "")
        XCTAssertEqual(Self.reason(in: listing.errors), "feed-reader: No readable article was found on the entry’s web page.")

        let missing = try feedReader(["--extract", "/nonexistent/page.html"], extra: display)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.output, "")
        XCTAssertTrue(Self.reason(in: missing.errors).hasPrefix(
            "feed-reader: The entry’s web page could not be read. The file \u{2068}/nonexistent/page.html\u{2069} does not exist."), missing.errors)

        // Not relative paths: the red team's second run was told "The file /cwd/javascript:alert(1) does not exist."
        for (target, scheme) in [("javascript:alert(1)", "javascript"), ("data:text/html,<p>x</p>", "data")] {
            let refused = try feedReader(["--extract", target], extra: display)
            XCTAssertEqual(refused.status, 1)
            XCTAssertEqual(refused.output, "")
            XCTAssertTrue(Self.reason(in: refused.errors).hasPrefix("feed-reader: The entry’s web page could not be read. "
                + "Addresses of the kind “\u{2068}\(scheme)\u{2069}:” cannot be read. Only web addresses (http and https) and files can."),
                refused.errors)
        }
    }

    func testExtractWithoutADisplaySaysSoAndOpensNothing() throws {
        let run = try feedReader(["--extract", Self.pages.appendingPathComponent("garden-article.html").path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.output, "")
        XCTAssertTrue(run.errors.contains("needs a graphical session"), run.errors)
        XCTAssertTrue(run.errors.contains("neither DISPLAY nor WAYLAND_DISPLAY"), run.errors)
    }

    func testExtractSpeaksTheUsersLanguage() throws {
        let run = try feedReader(["--extract", Self.pages.appendingPathComponent("link-listing.html").path], language: "de", extra: display)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(Self.reason(in: run.errors).hasPrefix("feed-reader: "), run.errors)
        XCTAssertFalse(run.errors.contains("No readable article"), "translated: \(run.errors)")
    }
}
