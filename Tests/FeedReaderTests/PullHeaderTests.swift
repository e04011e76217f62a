import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The list's pull header: MJRefresh's state and time on one compact line, and a time that is
/// true for the feeds shown, also when the header did not show their last refresh.
final class PullHeaderTests: XCTestCase {
    func testTheHeaderIsOneLineAndTellsWhenTheFeedsShownWereFetched() throws {
        // Another window's time in the process-wide file (a test run with a clock set ahead left
        // one there) is not this window's: its times live beside its own settings.
        try onMain { LastUpdatedStore.shared(at: LastUpdatedStore.defaultPath).setDate(Date(timeIntervalSince1970: 1_800_000_000), forKey: "all-feeds") }
        defer { try? onMain { LastUpdatedStore.shared(at: LastUpdatedStore.defaultPath).setDate(nil, forKey: "all-feeds") } }
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let header = app.window.entryList.header
            XCTAssertEqual(header.extent, CompactHeader.compactHeight, "one compact line, not MJRefresh's two")
            XCTAssertEqual(header.normalIndicator.arrangement, .inline)
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            for selection in [FeedSelection.all, .feed(feedID)] {
                app.window.sidebar.select(selection)
                XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.source == selection })
                // Fetched when it was added, a moment ago, by no pull of this header.
                let fetched = try XCTUnwrap(header.lastUpdated, "\(selection): the time the feed was fetched")
                XCTAssertLessThan(abs(fetched.timeIntervalSinceNow), 120, "\(selection): \(fetched)")
                let line = header.indicatorModel.subtitle ?? ""
                XCTAssertTrue(line.hasPrefix("Last update: Today "), "\(selection): \(line)")
            }
        }
    }
}
