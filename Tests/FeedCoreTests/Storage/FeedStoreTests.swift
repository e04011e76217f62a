import Foundation
import Testing
@testable import FeedCore

@Suite("Feed store")
struct FeedStoreTests {
    let store: FeedStore

    init() throws {
        store = try FeedStore.inMemory()
    }

    private func entry(_ id: String, _ title: String, _ published: String? = nil) -> Entry {
        Entry(id: id, title: title, link: URL(string: "https://site.example/\(id)"), published: published.map(utc), summary: "About \(title)")
    }

    @Test func addingAFeedPlacesItLast() async throws {
        let first = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let second = try await store.addFeed(url: URL(string: "https://b.example/feed")!)
        #expect(first.position == 0)
        #expect(second.position == 1)
        #expect(try await store.feeds().map(\.url.absoluteString) == ["https://a.example/feed", "https://b.example/feed"])
    }

    @Test func hasFeedsOnlyOnceSubscribed() async throws {
        #expect(try await store.hasFeeds() == false)
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        #expect(try await store.hasFeeds() == true)
        try await store.removeFeed(id: feed.id)
        #expect(try await store.hasFeeds() == false)
    }

    @Test func addingTheSameURLTwiceIsRefused() async throws {
        let url = URL(string: "https://a.example/feed")!
        try await store.addFeed(url: url)
        await #expect(throws: FeedStoreError.alreadySubscribed(url)) {
            try await store.addFeed(url: url)
        }
    }

    @Test func applyingAFetchStoresFeedMetadataAndEntries() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let now = utc("2024-03-10T00:00:00Z")
        let result = fetched([entry("1", "One", "2024-03-01T00:00:00Z")], title: "Site", validators: CacheValidators(etag: "\"e\"", lastModified: "lm"))

        let summary = try await store.apply(result, toFeed: feed.id, at: now)

        #expect(summary == ApplySummary(newEntries: 1, updatedEntries: 0, announcedEntries: 1))
        let stored = try #require(try await store.feed(id: feed.id))
        #expect(stored.title == "Site")
        #expect(stored.link?.absoluteString == "https://site.example/")
        #expect(stored.validators == CacheValidators(etag: "\"e\"", lastModified: "lm"))
        #expect(stored.lastFetched == now)
        #expect(stored.unreadCount == 1)
        let entries = try await store.entries()
        #expect(entries.map(\.title) == ["One"])
        #expect(entries.first?.summary == "About One")
        #expect(entries.first?.insertedAt == now)
    }

    @Test func contentAndSummaryHTMLAreStoredAsPublishedAndShownSanitized() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let withBody = Entry(id: "1", title: "Body", link: URL(string: "https://site.example/posts/1"),
                             summary: "Short", summaryHTML: "<b>Short</b>",
                             content: "<h2>Head</h2><img src=\"pic.png\" onerror=\"x()\"><script>x()</script>")
        let summaryOnly = Entry(id: "2", title: "Summary", link: URL(string: "https://site.example/posts/2"),
                                summary: "Only", summaryHTML: "<p onclick=\"x()\">Only <a href=\"/about\">us</a></p>")
        try await store.apply(fetched([withBody, summaryOnly]), toFeed: feed.id)

        let stored = Dictionary(uniqueKeysWithValues: try await store.entries().map { ($0.entryID, $0) })
        #expect(stored["1"]?.content == withBody.content)
        #expect(stored["1"]?.summaryHTML == "<b>Short</b>")
        #expect(stored["1"]?.articleHTML() == "<h2>Head</h2><img src=\"https://site.example/posts/pic.png\">")
        #expect(stored["2"]?.content == nil)
        #expect(stored["2"]?.articleHTML() == "<p>Only <a href=\"https://site.example/about\">us</a></p>")
    }

    @Test func aChangedSummaryHTMLUpdatesTheEntry() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.apply(fetched([Entry(id: "1", title: "T", summary: "S", summaryHTML: "<i>S</i>")]), toFeed: feed.id)

        let summary = try await store.apply(fetched([Entry(id: "1", title: "T", summary: "S", summaryHTML: "<b>S</b>")]), toFeed: feed.id)

        #expect(summary == ApplySummary(newEntries: 0, updatedEntries: 1))
        #expect(try await store.entries().first?.summaryHTML == "<b>S</b>")
    }

    @Test func entriesAreDeduplicatedPerFeed() async throws {
        let a = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let b = try await store.addFeed(url: URL(string: "https://b.example/feed")!)
        let result = fetched([entry("1", "One"), entry("2", "Two")])

        let first = try await store.apply(result, toFeed: a.id)
        let again = try await store.apply(result, toFeed: a.id)
        try await store.apply(result, toFeed: b.id)

        #expect(first.newEntries == 2)
        #expect(again == ApplySummary(newEntries: 0, updatedEntries: 0))
        #expect(try await store.entryCount(feedID: a.id) == 2)
        #expect(try await store.entryCount(feedID: b.id) == 2, "the same entry id in another feed is another entry")
        #expect(try await store.entryCount() == 4)
    }

    @Test func updatesKeepReadState() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.apply(fetched([entry("1", "Draft title")]), toFeed: feed.id)
        let stored = try #require(try await store.entries().first)
        try await store.markRead(entryID: stored.id)

        let summary = try await store.apply(fetched([entry("1", "Final title")]), toFeed: feed.id)

        #expect(summary == ApplySummary(newEntries: 0, updatedEntries: 1))
        let updated = try #require(try await store.entries().first)
        #expect(updated.id == stored.id)
        #expect(updated.title == "Final title")
        #expect(updated.isRead)
        #expect(updated.insertedAt == stored.insertedAt)
    }

    @Test func failedFetchKeepsEntriesAndRecordsTheError() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let fetchedAt = utc("2024-03-10T00:00:00Z")
        try await store.apply(fetched([entry("1", "One"), entry("2", "Two")]), toFeed: feed.id, at: fetchedAt)

        try await store.apply(failed(.httpStatus(500)), toFeed: feed.id, at: utc("2024-03-11T00:00:00Z"))

        #expect(try await store.entryCount(feedID: feed.id) == 2)
        let broken = try #require(try await store.feed(id: feed.id))
        #expect(broken.lastError == ErrorReason(.httpStatus, [.status: "500"]))
        #expect(broken.lastFetched == fetchedAt, "a failure is not a successful fetch")
        #expect(broken.title == "Feed")

        try await store.apply(fetched([entry("1", "One")]), toFeed: feed.id)
        #expect(try await store.feed(id: feed.id)?.lastError == nil, "success clears the error")
        #expect(try await store.entryCount(feedID: feed.id) == 2, "entries missing from a fetch are kept")
    }

    @Test func aFeedsWarningsAreKeptUntilAFetchWithout() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let warnings = [ErrorReason(.bareAmpersand), ErrorReason(.malformedXML, [.line: "3", .column: "7", .technical: "a\ttab and a\nline"])]
        try await store.apply(fetched([entry("1", "One")], warnings: warnings), toFeed: feed.id)
        #expect(try await store.feed(id: feed.id)?.lastWarnings == [warnings[0], ErrorReason(.malformedXML, [.line: "3", .column: "7", .technical: "a tab and a line"])])

        let request = FeedRequest(url: feed.url)
        try await store.apply(FetchResult(request: request, outcome: .notModified), toFeed: feed.id)
        #expect(try await store.feed(id: feed.id)?.lastWarnings.map(\.code) == [.bareAmpersand, .malformedXML], "an unchanged document keeps its mistakes")

        try await store.apply(fetched([entry("1", "One")]), toFeed: feed.id)
        #expect(try await store.feed(id: feed.id)?.lastWarnings == [])
    }

    @Test func notModifiedChangesNothingButTheFetchTime() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.apply(fetched([entry("1", "One")], validators: CacheValidators(etag: "\"e\"")), toFeed: feed.id)
        let request = FeedRequest(url: feed.url, validators: CacheValidators(etag: "\"e\""))
        let later = utc("2024-04-01T00:00:00Z")

        try await store.apply(FetchResult(request: request, outcome: .notModified), toFeed: feed.id, at: later)

        let stored = try #require(try await store.feed(id: feed.id))
        #expect(stored.lastFetched == later)
        #expect(stored.validators.etag == "\"e\"")
        #expect(try await store.entryCount() == 1)
    }

    @Test func permanentRedirectMovesTheFeed() async throws {
        let feed = try await store.addFeed(url: URL(string: "http://old.example/feed")!)
        let taken = URL(string: "https://taken.example/feed")!
        try await store.addFeed(url: taken)
        let moved = URL(string: "https://new.example/feed")!

        try await store.apply(FetchResult(request: feed.request, outcome: .notModified, permanentRedirect: moved), toFeed: feed.id)
        #expect(try await store.feed(id: feed.id)?.url == moved)

        try await store.apply(FetchResult(request: feed.request, outcome: .notModified, permanentRedirect: taken), toFeed: feed.id)
        #expect(try await store.feed(id: feed.id)?.url == moved, "an address another subscription uses is not taken over")
    }

    @Test func applyingToAMissingFeedWritesNothing() async throws {
        await #expect(throws: FeedStoreError.feedNotFound(id: 42)) {
            try await store.apply(fetched([entry("1", "One")]), toFeed: 42)
        }
        #expect(try await store.entryCount() == 0)
    }

    @Test func aFetchThatFailsHalfwayThroughSavingChangesNothing() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.apply(fetched([entry("1", "One")], title: "Before", validators: CacheValidators(etag: "\"old\"")), toFeed: feed.id)
        // Simulate a write failing midway (disk full, say) on the third entry.
        try await store.database.write { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER fail_midway BEFORE INSERT ON entries WHEN NEW.entryId = 'poison'
                BEGIN SELECT RAISE(ABORT, 'simulated failure'); END
                """)
        }
        let update = fetched([entry("poison", "Poison"), entry("2", "Two"), entry("1", "One, edited")], title: "After", validators: CacheValidators(etag: "\"new\""))

        await #expect(throws: (any Error).self) {
            try await store.apply(update, toFeed: feed.id)
        }

        let stored = try #require(try await store.feed(id: feed.id))
        #expect(stored.title == "Before")
        #expect(stored.validators.etag == "\"old\"")
        #expect(try await store.entries().map(\.title) == ["One"])
    }

    @Test func aBatchSavesEachFeedOnItsOwn() async throws {
        let good = try await store.addFeed(url: URL(string: "https://good.example/feed")!)
        let bad = try await store.addFeed(url: URL(string: "https://bad.example/feed")!)
        try await store.database.write { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER fail_midway BEFORE INSERT ON entries WHEN NEW.entryId = 'poison'
                BEGIN SELECT RAISE(ABORT, 'simulated failure'); END
                """)
        }
        let batch = [
            (fetched([entry("1", "Harbour lights")], title: "Good"), good.id),
            (fetched([entry("2", "Lighthouse keeper"), entry("poison", "Poison")], title: "Bad"), bad.id),
            (fetched([entry("3", "Never")]), 42),
        ]

        let saved = try await store.apply(batch)

        #expect(try saved[0].get() == ApplySummary(newEntries: 1, updatedEntries: 0, announcedEntries: 1))
        #expect(throws: (any Error).self) { try saved[1].get() }
        #expect(throws: FeedStoreError.feedNotFound(id: 42)) { try saved[2].get() }
        #expect(try await store.feed(id: good.id)?.title == "Good")
        #expect(try await store.feed(id: bad.id)?.title == nil, "the failing feed is rolled back whole")
        #expect(try await store.entries().map(\.title) == ["Harbour lights"])
        #expect(try await store.search("ligh").map(\.title) == ["Harbour lights"], "the search index follows the savepoints")
    }

    @Test func pagesAreNewestFirstWithoutGapsOrOverlaps() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let start = utc("2024-01-01T00:00:00Z")
        let entries = (0..<120).map { index in
            Entry(id: "\(index)", title: "Entry \(index)", published: start.addingTimeInterval(Double(index) * 3600))
        }
        try await store.apply(fetched(entries.shuffled()), toFeed: feed.id)

        let first = try await store.entries(EntryQuery(limit: 50))
        let second = try await store.entries(EntryQuery(limit: 50, olderThan: first.last?.cursor))
        let third = try await store.entries(EntryQuery(limit: 50, olderThan: second.last?.cursor))
        let byOffset = try await store.entries(EntryQuery(limit: 50, offset: 50))

        #expect(first.count == 50)
        #expect(second.count == 50)
        #expect(third.count == 20)
        let titles = (first + second + third).map(\.title)
        #expect(titles == (0..<120).reversed().map { "Entry \($0)" })
        #expect(byOffset.map(\.id) == second.map(\.id))
    }

    @Test func aListingLeavesTheBodiesOutAndTheEntryByIDHasThem() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let long = String(repeating: "word ", count: 200)
        try await store.apply(fetched([Entry(id: "1", title: "Long", link: URL(string: "https://site.example/1"),
                                             summary: long, summaryHTML: "<p>\(long)</p>", content: "<p>Body</p>")]), toFeed: feed.id)

        let listed = try #require(try await store.entries(EntryQuery(fields: .listing)).first)
        #expect(listed.title == "Long")
        #expect(listed.link == URL(string: "https://site.example/1"))
        #expect(listed.summary == String(long.prefix(EntryFields.listingSummaryLength)))
        #expect(listed.content == nil)
        #expect(listed.summaryHTML == nil)

        let stored = try #require(try await store.entry(id: listed.id))
        #expect(stored.content == "<p>Body</p>")
        #expect(stored.summary == long)
        #expect(stored.summaryHTML == "<p>\(long)</p>")
        #expect(try await store.entry(id: listed.id + 1) == nil)
    }

    /// A list row marks an entry with audio or video: the listing reads that, and leaves the
    /// enclosures themselves (a podcast's every episode) to the entry opened by id.
    @Test func aListingReadsWhetherAnEntryPlaysAudioOrVideoButNotItsEnclosures() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        let thumbnail = Enclosure(url: URL(string: "https://site.example/cover.png")!, isThumbnail: true)
        let episodes = (1...20).map { Enclosure(url: URL(string: "https://site.example/\($0).mp3")!, type: "audio/mpeg") }
        let video = Enclosure(url: URL(string: "https://site.example/clip.webm")!)
        let cases: [(title: String, enclosures: [Enclosure], media: Enclosure.Kind?)] = [
            ("Podcast", [thumbnail] + episodes, .audio),
            ("Video beside audio", [episodes[0], video], .video),
            ("Video after more than a listing reads", episodes.prefix(EntryFields.listingEnclosures) + [video], .audio),
            ("Only a thumbnail", [thumbnail], nil),
            ("Audio not on the web", [Enclosure(url: URL(fileURLWithPath: "/tmp/episode.mp3"), type: "audio/mpeg")], nil),
            ("Plain", [], nil),
        ]
        try await store.apply(fetched(cases.map { Entry(id: $0.title, title: $0.title, enclosures: $0.enclosures) }), toFeed: feed.id)

        let listed = try await store.entries(EntryQuery(fields: .listing))
        let found = try await store.search("podcast", fields: .listing)
        for (title, enclosures, media) in cases {
            let entry = try #require(listed.first { $0.title == title }, "\(title)")
            #expect(entry.playableMedia == media, "\(title)")
            #expect(entry.enclosures.isEmpty, "\(title): a listing keeps no enclosures")
            let opened = try #require(try await store.entry(id: entry.id))
            #expect(opened.enclosures == enclosures, "\(title): the entry by id has them all")
            #expect(opened.playableMedia == (title.hasPrefix("Video after") ? .video : media), "\(title)")
        }
        #expect(found.first?.playableMedia == .audio && found.first?.enclosures == [], "search lists as the list does")
    }

    @Test func undatedEntriesKeepTheFeedsOrderAndSortByInsertion() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        try await store.apply(fetched([entry("old", "Dated", "2020-01-01T00:00:00Z")]), toFeed: feed.id, at: utc("2024-01-01T00:00:00Z"))
        try await store.apply(fetched([entry("a", "Newest"), entry("b", "Middle"), entry("c", "Oldest")]), toFeed: feed.id, at: utc("2024-02-01T00:00:00Z"))

        let titles = try await store.entries().map(\.title)

        #expect(titles == ["Newest", "Middle", "Oldest", "Dated"])
    }

    @Test func filteringByFeedAndUnread() async throws {
        let a = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let b = try await store.addFeed(url: URL(string: "https://b.example/feed")!)
        try await store.apply(fetched([entry("1", "A1", "2024-01-01T00:00:00Z"), entry("2", "A2", "2024-01-02T00:00:00Z")]), toFeed: a.id)
        try await store.apply(fetched([entry("1", "B1", "2024-01-03T00:00:00Z")]), toFeed: b.id)
        let a2 = try #require(try await store.entries(EntryQuery(feedID: a.id)).first)
        try await store.markRead(entryID: a2.id)

        #expect(try await store.entries(EntryQuery(feedID: a.id)).map(\.title) == ["A2", "A1"])
        #expect(try await store.entries(EntryQuery(unreadOnly: true)).map(\.title) == ["B1", "A1"])
        #expect(try await store.entries(EntryQuery(feedID: a.id, unreadOnly: true)).map(\.title) == ["A1"])
    }

    @Test func unreadCountsFollowReadMarks() async throws {
        let a = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let b = try await store.addFeed(url: URL(string: "https://b.example/feed")!)
        try await store.apply(fetched([entry("1", "A1"), entry("2", "A2"), entry("3", "A3")]), toFeed: a.id)
        try await store.apply(fetched([entry("1", "B1"), entry("2", "B2")]), toFeed: b.id)
        #expect(try await store.feeds().map(\.unreadCount) == [3, 2])

        let someEntry = try #require(try await store.entries(EntryQuery(feedID: a.id)).first)
        try await store.markRead(entryID: someEntry.id)
        #expect(try await store.feeds().map(\.unreadCount) == [2, 2])

        try await store.markRead(entryID: someEntry.id, isRead: false)
        #expect(try await store.feeds().map(\.unreadCount) == [3, 2])

        #expect(try await store.markAllRead(feedID: b.id).count == 2)
        #expect(try await store.feeds().map(\.unreadCount) == [3, 0])

        #expect(try await store.markAllRead().count == 3)
        #expect(try await store.entryCount(unreadOnly: true) == 0)
    }

    @Test func markAllReadReturnsWhatItChangedSoItCanBeUndone() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let many = (0..<1_200).map { entry("\($0)", "E\($0)") }
        try await store.apply(fetched(many), toFeed: feed.id)
        let alreadyRead = try #require(try await store.entries().first)
        try await store.markRead(entryID: alreadyRead.id)

        let changed = try await store.markAllRead()
        #expect(changed.count == 1_199)
        #expect(!changed.contains(alreadyRead.id))

        try await store.setRead(false, entryIDs: changed + [999_999])
        #expect(try await store.entryCount(unreadOnly: true) == 1_199)
        #expect(try await store.entries(EntryQuery(limit: 1)).first?.isRead == true, "the entry read before stays read")
    }

    @Test func starredEntriesAreListedAndCountedAndSurviveUpdates() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        try await store.apply(fetched([entry("1", "One", "2024-01-01T00:00:00Z"), entry("2", "Two", "2024-01-02T00:00:00Z")]), toFeed: feed.id)
        let one = try #require(try await store.entries().last)

        try await store.setStarred(entryID: one.id)
        var changed = entry("1", "One, edited", "2024-01-01T00:00:00Z")
        changed.summary = "New text"
        try await store.apply(fetched([changed]), toFeed: feed.id)

        #expect(try await store.entries(EntryQuery(starredOnly: true)).map(\.title) == ["One, edited"])
        #expect(try await store.entryCount(starredOnly: true) == 1)
        try await store.setStarred(entryID: one.id, isStarred: false)
        #expect(try await store.entries(EntryQuery(starredOnly: true)).isEmpty)
        await #expect(throws: FeedStoreError.entryNotFound(id: 999)) {
            try await store.setStarred(entryID: 999)
        }
    }

    @Test func removingAFeedRemovesItsEntriesOnly() async throws {
        let a = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let b = try await store.addFeed(url: URL(string: "https://b.example/feed")!)
        try await store.apply(fetched([entry("1", "A1"), entry("2", "A2")]), toFeed: a.id)
        try await store.apply(fetched([entry("1", "B1")]), toFeed: b.id)

        try await store.removeFeed(id: a.id)

        #expect(try await store.feeds().map(\.id) == [b.id])
        #expect(try await store.entryCount(feedID: a.id) == 0)
        #expect(try await store.entries().map(\.title) == ["B1"])
        await #expect(throws: FeedStoreError.feedNotFound(id: a.id)) {
            try await store.removeFeed(id: a.id)
        }
    }

    @Test func errorsAndValidatorsCanBeSetDirectly() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)

        try await store.setError(ErrorReason(.timedOut, [.seconds: "15"]), feedID: feed.id)
        try await store.setValidators(CacheValidators(etag: "\"x\"", lastModified: "Mon"), feedID: feed.id)
        var stored = try #require(try await store.feed(id: feed.id))
        #expect(stored.lastError == ErrorReason(.timedOut, [.seconds: "15"]))
        #expect(stored.request == FeedRequest(url: feed.url, validators: CacheValidators(etag: "\"x\"", lastModified: "Mon")))

        try await store.setError(nil, feedID: feed.id)
        stored = try #require(try await store.feed(id: feed.id))
        #expect(stored.lastError == nil)
        await #expect(throws: FeedStoreError.feedNotFound(id: 999)) {
            try await store.setError(ErrorReason(.cancelled), feedID: 999)
        }
    }

    @Test func enclosuresAreStored() async throws {
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let enclosure = Enclosure(url: URL(string: "https://a.example/ep.mp3")!, type: "audio/mpeg", length: 10)
        try await store.apply(fetched([Entry(id: "1", enclosures: [enclosure])]), toFeed: feed.id)
        #expect(try await store.entries().first?.enclosures == [enclosure])
    }

    @Test func concurrentWritersFromManyTasks() async throws {
        let feeds = try await withThrowingTaskGroup(of: StoredFeed.self) { group in
            for index in 0..<8 {
                group.addTask { try await store.addFeed(url: URL(string: "https://\(index).example/feed")!) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for feed in feeds {
                group.addTask {
                    try await store.apply(fetched((0..<25).map { entry("\($0)", "E\($0)") }), toFeed: feed.id)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.entryCount() == 200)
        #expect(Set(try await store.feeds().map(\.position)) == Set(0..<8))
    }
}
