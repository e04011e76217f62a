import FeedCore
import Foundation
import XCTest

/// `--list-entries`, `--label`, `--unlabel` and `--list-labels`, run as the built program: what a
/// script labelling entries sees, in the user's language when it goes wrong.
extension CommandLineTests {
    /// A library with two feeds of this computer: "Planet" with three entries, "Other" with one.
    private func labelledLibrary() async throws -> [String: String] {
        let (_, environment) = try dataHome()
        let database = FeedStore.databaseURL(environment: environment)
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        let store = try FeedStore(path: database.path)
        for (address, titles) in [("http://127.0.0.1:9/planet", ["First", "Second\tline\nbreak", "Third"]), ("http://127.0.0.1:9/other", ["Elsewhere"])] {
            let feed = try await store.addFeed(url: URL(string: address)!)
            let entries = titles.enumerated().map { index, title in
                Entry(id: title, title: title, published: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60 + (address.hasSuffix("other") ? 30 : 0)))
            }
            let parsed = ParsedFeed(format: .rss, feed: Feed(id: address, title: address), entries: entries)
            try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                  toFeed: feed.id)
        }
        return environment
    }

    func testEntriesAreListedLabelledAndFilteredOneALine() async throws {
        let environment = try await labelledLibrary()
        let all = try feedReader(["--list-entries"], extra: environment)
        XCTAssertEqual(all.status, 0, all.errors)
        let rows = all.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(rows.map { $0.count }, [4, 4, 4, 4], "id, feed, date, title on each line: \(all.output)")
        XCTAssertEqual(rows.map { $0[3] }, ["Third", "Second line break", "Elsewhere", "First"], "newest first, each on one line")
        XCTAssertEqual(rows[0][1], "http://127.0.0.1:9/planet")
        XCTAssertEqual(rows[0][2], "2023-11-14T22:15:20Z")
        let id = { (title: String) in rows.first { $0[3] == title }![0] }

        for (entry, name) in [(id("First"), "Read later"), (id("Third"), "Read later"), (id("Elsewhere"), "Work/home, “quoted”")] {
            let run = try feedReader(["--label", entry, name], extra: environment)
            XCTAssertEqual(run.status, 0, run.errors)
        }
        // The name may come in several words, unquoted.
        XCTAssertEqual(try feedReader(["--label", id("Third"), "Two", "words"], extra: environment).status, 0)
        XCTAssertEqual(try feedReader(["--list-labels"], extra: environment).output,
                       "Read later\t2\t2\nTwo words\t1\t1\nWork/home, “quoted”\t1\t1\n")
        XCTAssertEqual(try feedReader(["--list-entries", "--label", "Read later"], extra: environment).output.split(separator: "\n").map {
            $0.split(separator: "\t").last.map(String.init) ?? "" }, ["Third", "First"])

        XCTAssertEqual(try feedReader(["--unlabel", id("Third"), "Read later"], extra: environment).status, 0)
        let filtered = try feedReader(["--list-entries", "--feed", "http://127.0.0.1:9/planet", "--unread", "--label", "Read later"], extra: environment)
        XCTAssertEqual(filtered.status, 0, filtered.errors)
        XCTAssertEqual(filtered.output.split(separator: "\t").last, "First\n")
        let found = try feedReader(["--list-entries", "--search", "elsewhere"], extra: environment)
        XCTAssertEqual(found.output.split(separator: "\t").first.map(String.init), id("Elsewhere"))
        XCTAssertEqual(try feedReader(["--list-entries", "--search", "nothing-like-it"], extra: environment).output, "")
    }

    /// An argument that is no option's, given alone, is named as unknown in the user's language
    /// by the window program, which takes the arguments after the options for `--label`.
    func testAStrayArgumentIsNamedAsUnknown() throws {
        let (_, environment) = try dataHome()
        for (language, message) in [(nil, "Unknown argument “stray”: see --help."), ("de", "Unbekanntes Argument „stray“: siehe --help.")] {
            let run = try feedReader(["stray"], language: language, extra: environment)
            XCTAssertEqual(run.status, 1)
            XCTAssertEqual(run.errors, "feed-reader: \(message)\n")
            XCTAssertEqual(run.output, "")
        }
    }

    func testLabelMistakesAreExplainedInTheUsersLanguageAndChangeNothing() async throws {
        let environment = try await labelledLibrary()
        let first = try XCTUnwrap(try feedReader(["--list-entries"], extra: environment).output.split(separator: "\t").first.map(String.init))
        let cases: [(arguments: [String], language: String?, message: String)] = [
            (["--label", "999999", "Work"], nil, "There is no entry with the ID 999999: --list-entries shows them."),
            (["--label", "abc", "Work"], "fr", "abc"),
            (["--label", first], nil, "--label and --unlabel need an entry’s ID and a label’s name."),
            (["--label", first, "\u{202E}\n"], nil, "A label needs a name."),
            (["--label", first, String(repeating: "x", count: 191)], "de", "190"),
            (["--unlabel", first, "Never made"], "es", "Never made"),
            (["--list-entries", "--label", "Never made"], nil, "There is no label named “Never made”."),
            (["--list-entries", "--feed", "http://127.0.0.1:9/none"], nil, "No subscription has the address http://127.0.0.1:9/none."),
        ]
        for item in cases {
            let run = try feedReader(item.arguments, language: item.language, extra: environment)
            XCTAssertEqual(run.status, 1, "\(item.arguments)")
            XCTAssertTrue(run.errors.hasPrefix("feed-reader: ") && run.errors.contains(item.message), "\(item.arguments): \(run.errors)")
            XCTAssertEqual(run.output, "")
            if item.language != nil {
                XCTAssertFalse(run.errors.contains("There is") || run.errors.contains("A label"), "translated: \(run.errors)")
            }
        }
        XCTAssertEqual(try feedReader(["--list-labels"], extra: environment).output, "")
    }
}
