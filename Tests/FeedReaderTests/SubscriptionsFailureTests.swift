import FeedCore
import Foundation
import XCTest
@testable import FeedReader

/// The reasons import and export give for a store that refused. A full disk or a database
/// another program keeps busy for ten seconds are made by hand here: the real ones are in
/// CommandLineTests (/dev/full) and TwoWritersTests (a second process holding the lock).
final class SubscriptionsFailureTests: XCTestCase {
    func testAStoreRefusalSaysWhichProblemItWas() {
        let file = LocalFile(URL(fileURLWithPath: "/tmp/list.opml"))
        let cases: [(FeedStoreError, String)] = [
            (.diskFull("13: database or disk is full"), "The subscriptions could not be imported. The disk is full."),
            (.busy("5: database is locked"),
             "The subscriptions could not be imported. Another program kept the feed database busy for too long; try again later."),
            (.readOnly("8: attempt to write a readonly database"),
             "The subscriptions could not be imported. The feed database cannot be written to."),
            (.damaged("11: database disk image is malformed"),
             "The subscriptions could not be imported. The feed database is damaged; restart Feed Reader to repair it."),
        ]
        for (error, message) in cases {
            XCTAssertEqual(SubscriptionsFailure.importing(file, error), message)
        }
        XCTAssertEqual(SubscriptionsFailure.exporting(file, FeedStoreError.diskFull("13")),
                       "The subscriptions could not be exported to \u{2068}/tmp/list.opml\u{2069}. The disk is full.")
        XCTAssertEqual(SubscriptionsFailure.exporting(file, SubscriptionFile.Failure.system(ENOSPC)),
                       "The subscriptions could not be exported to \u{2068}/tmp/list.opml\u{2069}. The disk is full.")
    }
}
