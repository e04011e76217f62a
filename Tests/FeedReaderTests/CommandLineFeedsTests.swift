import FeedCore
import Foundation
import XCTest

/// `--pause` and `--resume`, run as the built program.
extension CommandLineTests {
    func testAFeedIsPausedAndResumedByItsAddress() async throws {
        let (folder, environment) = try dataHome()
        let opml = folder.appendingPathComponent("one.opml")
        try Data("""
            <?xml version="1.0"?>
            <opml version="2.0"><body><outline type="rss" text="Gone" xmlUrl="http://127.0.0.1:9/feed.xml"/></body></opml>
            """.utf8).write(to: opml)
        XCTAssertEqual(try feedReader(["--import", opml.path], extra: environment).status, 0)
        let database = FeedStore.databaseURL(environment: environment).path
        func isPaused() async throws -> Bool? {
            try await FeedStore(path: database).feeds().first?.settings.isPaused
        }

        let paused = try feedReader(["--pause", "http://127.0.0.1:9/feed.xml"], extra: environment)
        XCTAssertEqual(paused.status, 0, paused.errors)
        let pausedNow = try await isPaused()
        XCTAssertEqual(pausedNow, true)
        XCTAssertEqual(try feedReader(["--resume", "http://127.0.0.1:9/feed.xml"], extra: environment).status, 0)
        let resumedNow = try await isPaused()
        XCTAssertEqual(resumedNow, false)

        let unknown = try feedReader(["--pause", "http://127.0.0.1:9/other.xml"], language: "fr", extra: environment)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.errors.contains("http://127.0.0.1:9/other.xml"), unknown.errors)
        XCTAssertFalse(unknown.errors.contains("No subscription"), "in French: \(unknown.errors)")
    }
}
