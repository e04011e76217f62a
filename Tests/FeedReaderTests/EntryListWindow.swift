import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// An entry list built alone in a plain window, over a new store in `folder` holding one feed's
/// `entries`, listing All Feeds; the window goes with ``close()``.
@MainActor
struct EntryListWindow {
    let store: FeedStore
    let list: EntryListView
    let window: UnsafeMutablePointer<GtkWidget>

    init(in folder: URL, height: Int32, entries: [Entry]) throws {
        store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
        list = EntryListView(library: FeedLibrary(store: store))
        window = gtk_window_new()!
        gtk_window_set_child(cast(window), list.widget)
        gtk_window_set_default_size(cast(window), 420, height)
        gtk_window_present(cast(window))
        nonisolated(unsafe) var done = false
        Task { @MainActor [store] in
            let feed = try await store.addFeed(url: URL(string: "https://planet.example/rss")!)
            let parsed = ParsedFeed(format: .rss, feed: Feed(id: "planet", title: "Planet"), entries: entries)
            try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                  toFeed: feed.id)
            done = true
        }
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { done }, "the entries stored")
        list.show(.all, feedTitles: [:])
    }

    /// `count` entries titled "Entry 0" (the newest) onwards, a minute apart.
    static func numbered(_ count: Int, summary: String? = nil) -> [Entry] {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        return (0..<count).map {
            Entry(id: "\($0)", title: "Entry \($0)", published: start.addingTimeInterval(Double(-60 * $0)), summary: summary)
        }
    }

    func close() {
        gtk_window_destroy(cast(window))
    }
}
