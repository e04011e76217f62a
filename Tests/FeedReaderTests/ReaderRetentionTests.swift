import AppSupport
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Old entries leave the window at idle as the preferences say, once a day.
final class ReaderRetentionTests: XCTestCase {
    func testReadEntriesOlderThanTheKeptDaysGoAtTheNextStartWhileUnreadOnesStay() throws {
        let feed = ServedFeed(entries: 5)
        let server = try TestHTTPServer { _ in .ok(feed.xml) }
        defer { server.stop() }
        try onMain {
            // After the served entries' dates, so the time they were stored decides.
            let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
            let first = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString, now: clock.reader)
            XCTAssertTrue(GtkTestEnvironment.iterate { first.window.entryList.order.count == 5 })
            let store = first.library.store
            nonisolated(unsafe) var marked = false
            Task { @MainActor in
                try await store.markAllRead()
                let newest = try await store.entries(EntryQuery(limit: 1))
                try await store.markRead(entryID: newest[0].id, isRead: false)
                marked = true
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { marked })
            first.close()

            clock.advance(by: 89 * 86400)
            let early = try first.restarted()
            XCTAssertTrue(GtkTestEnvironment.iterate { early.window.entryList.order.count == 5 })
            // The clean-up at start has run once it has noted the day it ran.
            GtkTestEnvironment.wait(until: {
                early.settings.date(forKey: WindowKey.lastCleanUp, in: WindowKey.storage) == clock.now
            }, "the clean-up at start")
            GtkTestEnvironment.runPending()
            XCTAssertEqual(early.window.entryList.order.count, 5, "89 days: every entry is kept")
            early.close()

            clock.advance(by: 2 * 86400)
            let late = try first.restarted()
            defer { late.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { late.window.entryList.shownTitles == ["Served entry 5"] },
                          "91 days: only the unread entry stays: \(late.window.entryList.shownTitles)")
            XCTAssertEqual(late.unreadInStore(), 1)
        }
    }

    func testTheRetentionPreferencesMakeTheLibrarysPolicy() throws {
        try onMain {
            let preferences = Preferences(settings: SettingsStore(path: temporaryDirectory().appendingPathComponent("settings.ini").path))
            XCTAssertEqual(preferences.retention, Retention(days: 90, keepsUnread: true, keepsStarred: true), "the defaults")
            preferences.keepDays = 0
            preferences.keepsUnread = false
            XCTAssertEqual(preferences.retention, Retention(days: nil, keepsUnread: false, keepsStarred: true))
            preferences.keepDays = 30
            preferences.keepsStarred = false
            XCTAssertEqual(preferences.retention, Retention(days: 30, keepsUnread: false, keepsStarred: false))
        }
    }
}
