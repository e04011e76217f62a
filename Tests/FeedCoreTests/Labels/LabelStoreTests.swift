import Foundation
import Testing
@testable import FeedCore

/// Labels in the store: on several entries at once, counted as the window shows them, queued for
/// a synced entry's server and merged with the server's as read and starred are (FeedStore+Labels,
/// FeedStore+SyncLabels). The real servers' side: TinyTinyRSSLabelTests, FreshRSSLabelTests.
@Suite("Labels in the store")
struct LabelStoreTests {
    let store: FeedStore
    let account: SyncAccount

    /// A store with a local feed of two entries and an account's feed of articles 1 to 4, unread.
    init() async throws {
        store = try FeedStore.inMemory()
        let feed = try await store.addFeed(url: URL(string: "https://local.example/feed")!)
        try await store.apply(fetched([Entry(id: "a", title: "Local A"), Entry(id: "b", title: "Local B")]), toFeed: feed.id)
        account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [], feeds: [RemoteFeed(id: "3", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: nil)]),
            accountID: account.id)
        _ = try await store.storeArticles((1...4).map { index in
            RemoteArticle(id: "\(index)", feedID: "3", title: "Article \(index)", link: nil, author: nil,
                          published: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), updated: nil,
                          content: nil, isRead: false, isStarred: false)
        }, accountID: account.id, cursor: "4")
    }

    func id(_ title: String) async throws -> Int64 {
        try #require(try await store.entries(EntryQuery(includesHidden: true, limit: 100)).first { $0.title == title }?.id)
    }

    func queue() async throws -> [String] {
        try await store.queuedChanges(accountID: account.id).map { "\($0.action.rawValue) \($0.remoteID ?? "-") \($0.argument ?? "-")" }
    }

    func titles(label name: String) async throws -> Set<String> {
        guard let label = try await store.labels().first(where: { $0.name == name }) else { return [] }
        return Set(try await store.entries(EntryQuery(labelID: label.id)).compactMap(\.title))
    }

    @Test func aLabelOnSeveralEntriesListsThemAndCountsTheUnreadOnesNotHidden() async throws {
        try await store.setLabel("Work", on: [try await id("Local A"), try await id("Article 1"), try await id("Article 2")])
        try await store.setLabel("Later", on: [try await id("Local B")])
        try await store.markRead(entryID: try await id("Article 1"))
        #expect(try await titles(label: "Work") == ["Local A", "Article 1", "Article 2"])
        #expect(try await store.labels().map { "\($0.name) \($0.entryCount) \($0.unreadCount)" } == ["Later 1 1", "Work 3 2"])
        #expect(try await store.labelNames(ofEntries: [try await id("Local A"), try await id("Article 3")]) == [try await id("Local A"): ["Work"]])

        // An entry a rule hides is counted nowhere, its label included.
        try await store.addRule(Rule(name: "Hide", conditions: [RuleCondition(.title, .contains, "Article 2")], actions: [.hide]))
        try await store.applyRules()
        #expect(try await store.labels().first { $0.name == "Work" }.map { "\($0.entryCount) \($0.unreadCount)" } == "2 1")
        #expect(try await titles(label: "Work") == ["Local A", "Article 1"])

        try await store.setLabel("Work", on: [try await id("Local A")], false)
        #expect(try await titles(label: "Work") == ["Article 1"])
    }

    @Test func aSyncedEntrysLabelIsQueuedOnlyTheLatestOfEachLabelKept() async throws {
        let first = try await id("Article 1"), second = try await id("Article 2")
        try await store.setLabel("Work", on: [first, second, try await id("Local A")])
        try await store.setLabel("Work", on: [first], false)
        try await store.setLabel("Work", on: [first])
        try await store.setLabel("Later", on: [first])
        // Unchanged: nothing for the server to hear.
        try await store.setLabel("Later", on: [first])
        #expect(try await queue() == ["label 2 Work", "label 1 Work", "label 1 Later"])

        // A rename takes the old label off at the server and puts the new one on; a deletion takes it off.
        let work = try #require(try await store.labels().first { $0.name == "Work" })
        try await store.renameLabel(id: work.id, to: "Job")
        #expect(try await queue() == ["label 1 Later", "unlabel 1 Work", "unlabel 2 Work", "label 1 Job", "label 2 Job"])
        #expect(try await titles(label: "Job") == ["Local A", "Article 1", "Article 2"])
        try await store.deleteLabel(id: work.id)
        #expect(try await queue() == ["label 1 Later", "unlabel 1 Work", "unlabel 2 Work", "unlabel 1 Job", "unlabel 2 Job"])
        #expect(try await store.labels().map(\.name) == ["Later"])
        #expect(try await store.labelNames(ofEntries: [try await id("Local A")]).isEmpty)
    }

    @Test func renamingOntoAnotherLabelOrAMissingLabelIsRefused() async throws {
        try await store.setLabel("Work", on: [try await id("Local A")])
        let later = try await store.createLabel(named: "Later")
        await #expect(throws: LabelError.exists(name: "Work")) { try await store.renameLabel(id: later.id, to: " Work ") }
        await #expect(throws: LabelError.notFound(name: "Nope")) { try await store.setLabel("Nope", on: [try await id("Local A")], false) }
        #expect(try await store.labels().map(\.name) == ["Later", "Work"])
    }

    @Test(arguments: [
        ("Work", "Work"), ("  spaced out \n", "spaced out"), ("a/b, \"c\"; d&e <f>", "a/b, \"c\"; d&e <f>"),
        ("\u{202E}reversed\u{202C}", "reversed"), ("line\nbreak\u{0}", "linebreak"), ("👩‍👩‍👧 family", "👩‍👩‍👧 family"),
        ("می‌خواهم", "می‌خواهم"), (String(repeating: "é", count: LabelName.maximumLength), String(repeating: "é", count: LabelName.maximumLength)),
    ])
    func namesAreKeptWithoutControlCharacters(typed: String, stored: String) async throws {
        try await store.setLabel(typed, on: [try await id("Article 3")])
        #expect(try await store.labels().map(\.name) == [stored])
        #expect(try await queue() == ["label 3 \(stored)"])
    }

    @Test(arguments: [("", LabelError.emptyName), (" \u{200E}\t", LabelError.emptyName),
                      (String(repeating: "x", count: LabelName.maximumLength + 1), LabelError.nameTooLong)])
    func emptyAndOverlongNamesAreRefusedStoringNothing(typed: String, error: LabelError) async throws {
        await #expect(throws: error) { try await store.setLabel(typed, on: [try await id("Article 3")]) }
        #expect(try await store.labels().isEmpty)
        #expect(try await queue().isEmpty)
    }

    @Test func theServersLabelsArriveButNotOverAQueuedChange() async throws {
        try await store.setLabel("Mine", on: [try await id("Local A"), try await id("Article 4")])
        try await store.setLabel("Work", on: [try await id("Article 1")])
        try await store.setLabel("Old", on: [try await id("Article 2")])
        try await store.removeQueuedChanges(ids: try await store.queuedChanges(accountID: account.id).map(\.id))
        try await store.setLabel("Work", on: [try await id("Article 3")])

        // tt-rss lists Work on 2 only (3's is still queued) and News on 1; it does not have Mine
        // or Old, which stay; it cannot hold them.
        var changed = try await store.applyLabels(RemoteLabels(articles: ["Work": ["2"], "News": ["1", "99"]], coversEveryLabel: false),
                                                  accountID: account.id)
        #expect(changed == 3)
        #expect(try await titles(label: "Work") == ["Article 2", "Article 3"])
        #expect(try await titles(label: "News") == ["Article 1"])
        #expect(try await titles(label: "Mine") == ["Local A", "Article 4"])
        #expect(try await titles(label: "Old") == ["Article 2"])

        // The Google Reader API holds every label: one it does not list is on none of its articles.
        try await store.removeQueuedChanges(ids: try await store.queuedChanges(accountID: account.id).map(\.id))
        changed = try await store.applyLabels(RemoteLabels(articles: ["Work": ["2"]], coversEveryLabel: true), accountID: account.id)
        #expect(changed == 4)
        #expect(try await titles(label: "Work") == ["Article 2"])
        #expect(try await titles(label: "Mine") == ["Local A"], "a local entry's label is its own")
        #expect(try await titles(label: "Old").isEmpty)
        #expect(try await titles(label: "News").isEmpty)
        #expect(try await store.applyLabels(RemoteLabels(articles: ["Work": ["2"]], coversEveryLabel: true), accountID: account.id) == 0)
        // A label of no stored article is not made here.
        _ = try await store.applyLabels(RemoteLabels(articles: ["Elsewhere": ["99"]], coversEveryLabel: false), accountID: account.id)
        #expect(try await store.labels().contains { $0.name == "Elsewhere" } == false)
    }

    @Test func labelChangesAreBatchedByLabelAndSentAsOneChange() {
        let rows: [QueuedChange] = [
            .init(id: 1, action: .label, remoteID: "1", argument: "Work"), .init(id: 2, action: .label, remoteID: "2", argument: "Work"),
            .init(id: 3, action: .label, remoteID: "3", argument: "Later"), .init(id: 4, action: .unlabel, remoteID: "4", argument: "Later"),
        ]
        #expect(SyncEngine.batches(rows, limit: 10).map { $0.map(\.id) } == [[1, 2], [3], [4]])
        #expect(SyncEngine.change(for: Array(rows[0..<2])) == .setLabel(name: "Work", true, articleIDs: ["1", "2"]))
        #expect(SyncEngine.change(for: [rows[3]]) == .setLabel(name: "Later", false, articleIDs: ["4"]))
    }

    /// A server's list of 100,000 label names is cut at `RemoteLabels.maximumCount`, names are
    /// cleaned as typed ones are, and those left empty or too long are dropped.
    @Test func aServersLabelNamesAreBoundedAndCleaned() {
        let flood = (0..<100_000).map { (id: $0, name: "Label \($0)") }
        let kept = RemoteLabels.cleaned(flood)
        #expect(kept.count == RemoteLabels.maximumCount)
        #expect(kept.last?.name == "Label \(RemoteLabels.maximumCount - 1)")
        let odd = RemoteLabels.cleaned([(id: 1, name: "Bell\u{7}\nline"), (id: 2, name: "\u{202E}\u{0}"),
                                        (id: 3, name: String(repeating: "x", count: LabelName.maximumLength + 1)), (id: 4, name: "  Fine  ")])
        #expect(odd.map(\.name) == ["Bellline", "Fine"])
        #expect(odd.map(\.id) == [1, 4])
    }

    @Test func theMigrationAddsTheLabelsAfterTheSyncCodes() async throws {
        let applied = try await store.appliedMigrations()
        #expect(applied.firstIndex(of: "v23-labels").map { $0 > (applied.firstIndex(of: "v22-sync-codes") ?? .max) } == true)
    }
}
