import FeedCore
import Foundation
import XCTest

/// `--pause`, `--resume`, `--set-feed-interval` and `--set-feed-retention`, run as the built program.
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

    func testAFeedsIntervalAndRetentionAreSetByItsAddressAndNonsenseIsRefused() async throws {
        let (folder, environment) = try dataHome()
        let opml = folder.appendingPathComponent("one.opml")
        try Data("""
            <?xml version="1.0"?>
            <opml version="2.0"><body><outline type="rss" text="Gone" xmlUrl="http://127.0.0.1:9/feed.xml"/></body></opml>
            """.utf8).write(to: opml)
        XCTAssertEqual(try feedReader(["--import", opml.path], extra: environment).status, 0)
        let database = FeedStore.databaseURL(environment: environment).path
        func settings() async throws -> FeedSettings? {
            try await FeedStore(path: database).feeds().first?.settings
        }
        let address = "http://127.0.0.1:9/feed.xml"

        let hourly = try feedReader(["--set-feed-interval", address, "--minutes", "90"], extra: environment)
        XCTAssertEqual(hourly.status, 0, hourly.errors)
        let retention = try feedReader(["--set-feed-retention", address, "--keep-newest", "200"], extra: environment)
        XCTAssertEqual(retention.status, 0, retention.errors)
        var now = try await settings()
        XCTAssertEqual(now?.refreshInterval, 90 * 60)
        XCTAssertEqual(now?.keepNewest, 200)

        for (arguments, message) in [
            (["--set-feed-interval", address, "--minutes", "0"], "A feed is refreshed at most every 5 minutes."),
            (["--set-feed-interval", address, "--minutes", "soon"], "“soon” is not a whole number."),
            (["--set-feed-interval", address], "Say how often with --minutes."),
            (["--set-feed-retention", address, "--keep-days", "0"], "Entries are kept for at least a day, and at least one of them."),
            (["--set-feed-retention", address, "--keep-days", "3", "--keep-newest", "3"], "Give --keep-days or --keep-newest, not both."),
        ] {
            let refused = try feedReader(arguments, extra: environment)
            XCTAssertEqual(refused.status, 1, "\(arguments)")
            XCTAssertTrue(refused.errors.contains(message), "\(arguments): \(refused.errors)")
        }
        now = try await settings()
        XCTAssertEqual(now?.refreshInterval, 90 * 60, "nothing changed")
        XCTAssertEqual(now?.keepNewest, 200, "nothing changed")

        XCTAssertEqual(try feedReader(["--set-feed-interval", address, "--minutes", "default"], extra: environment).status, 0)
        XCTAssertEqual(try feedReader(["--set-feed-retention", address], extra: environment).status, 0)
        now = try await settings()
        XCTAssertEqual(now, FeedSettings(), "back to the app's settings")
    }
}
