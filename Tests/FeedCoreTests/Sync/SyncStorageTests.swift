import Foundation
import GRDB
import Testing
@testable import FeedCore

/// The sync queue and merge rules in the store, with what a server sends given by hand: these
/// are the rules every service shares (the tt-rss tests run them against the real server).
@Suite("Sync queue and merge rules")
struct SyncStorageTests {
    /// A store with one account holding one feed in one category, with articles 1 to `count` unread.
    func store(count: Int = 5) async throws -> (FeedStore, SyncAccount, Int64) {
        let store = try FeedStore.inMemory()
        let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [RemoteCategory(id: "7", title: "News")],
            feeds: [RemoteFeed(id: "3", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: "7")]),
            accountID: account.id)
        let articles = (1...count).map { index in
            RemoteArticle(id: "\(index)", feedID: "3", title: "Article \(index)", link: nil, author: nil,
                          published: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), updated: nil,
                          content: "<p>Text \(index)</p>", isRead: false, isStarred: false)
        }
        _ = try await store.storeArticles(articles, accountID: account.id, cursor: "\(count)")
        let feedID = try #require(try await store.feeds(accountID: account.id).first?.id)
        return (store, account, feedID)
    }

    func entryID(_ remoteID: String, in store: FeedStore) async throws -> Int64 {
        try #require(try await store.entries(EntryQuery(limit: 1_000)).first { $0.entryID == remoteID }?.id)
    }

    func queue(_ store: FeedStore, _ account: SyncAccount) async throws -> [String] {
        try await store.queuedChanges(accountID: account.id).map { "\($0.action.rawValue) \($0.remoteID ?? "-")" }
    }

    /// A synced feed whose notifications are off in its Properties is left out of the news a
    /// sync announces, as a local feed's are from a refresh's.
    @Test func aSyncedFeedWithNotificationsOffIsNotAnnounced() async throws {
        let since = Date(timeIntervalSinceNow: -60)
        let (store, account, feedID) = try await store(count: 3)
        #expect(try await store.unreadNews(accountID: account.id, since: since) == (3, 1))
        try await store.setSettings(FeedSettings(notifiesNewEntries: false), forFeed: feedID)
        #expect(try await store.unreadNews(accountID: account.id, since: since) == (0, 0))
    }

    @Test func aChangeHereIsQueuedAndOnlyTheLatestOfAnArticleIsKept() async throws {
        let (store, account, _) = try await store()
        let first = try await entryID("1", in: store)
        try await store.markRead(entryID: first)
        try await store.markRead(entryID: first, isRead: false)
        try await store.markRead(entryID: first)
        try await store.setStarred(entryID: first)
        // Unchanged state: nothing for the server to hear.
        try await store.markRead(entryID: first)
        #expect(try await queue(store, account) == ["read 1", "star 1"])
    }

    @Test func aQueuedChangeIsNotOverwrittenByTheServersOlderState() async throws {
        let (store, account, feedID) = try await store()
        try await store.markRead(entryID: try await entryID("1", in: store))
        try await store.setStarred(entryID: try await entryID("2", in: store))
        // The server still has 1 unread and 2 unstarred, and marked 3 and 4 read and 4 starred.
        let changed = try await store.applyArticleState(unread: ["1", "2", "5"], starred: ["4"], accountID: account.id)
        #expect(changed == 3)
        let entries = Dictionary(uniqueKeysWithValues: try await store.entries(EntryQuery(feedID: feedID)).map { ($0.entryID, $0) })
        #expect(entries["1"]?.isRead == true && entries["2"]?.isStarred == true)
        #expect(entries["3"]?.isRead == true && entries["4"]?.isStarred == true && entries["5"]?.isRead == false)

        // A queued "mark all as read" keeps the feed's entries read until the server has made it.
        try await store.markAllRead(feedID: feedID)
        #expect(try await queue(store, account).last == "catchupFeed 3")
        _ = try await store.applyArticleState(unread: ["1", "2", "3", "4", "5"], starred: [], accountID: account.id)
        #expect(try await store.entryCount(feedID: feedID, unreadOnly: true) == 0)
    }

    /// The server's state reaches every entry that differs, both ways, and no other account's
    /// entry with the same ids: each direction is its own statement (FeedStore+SyncMerge).
    @Test func theServersStateGoesEveryWayAndStaysInItsAccount() async throws {
        let (store, account, feedID) = try await store()
        let other = try await store.addAccount(kind: FeverService.kind, server: URL(string: "https://other.example/api/fever.php")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [], feeds: [RemoteFeed(id: "3", url: URL(string: "https://other.example/feed")!, title: "Other", categoryID: nil)]),
            accountID: other.id)
        _ = try await store.storeArticles((1...5).map { index in
            RemoteArticle(id: "\(index)", feedID: "3", title: "Elsewhere \(index)", link: nil, author: nil, published: nil, updated: nil,
                          content: nil, isRead: index.isMultiple(of: 2), isStarred: index == 1)
        }, accountID: other.id, cursor: "5")
        func state(_ account: SyncAccount) async throws -> [String] {
            try await store.entries(EntryQuery(accountID: account.id, limit: 100)).sorted { $0.entryID < $1.entryID }
                .map { "\($0.entryID)\($0.isRead ? "r" : "u")\($0.isStarred ? "*" : "")" }
        }
        let elsewhere = try await state(other)

        // All five unread here: 1 and 2 become read, 4 and 5 starred.
        #expect(try await store.applyArticleState(unread: ["3", "4", "5"], starred: ["4", "5"], accountID: account.id) == 4)
        #expect(try await state(account) == ["1r", "2r", "3u", "4u*", "5u*"])
        // Then 1 unread again, 3 read, 4 unstarred, 2 starred.
        #expect(try await store.applyArticleState(unread: ["1", "4", "5"], starred: ["2", "5"], accountID: account.id) == 4)
        #expect(try await state(account) == ["1u", "2r*", "3r", "4u", "5u*"])
        // The same state again changes nothing; ids the account does not have are no entries.
        #expect(try await store.applyArticleState(unread: ["1", "4", "5", "9"], starred: ["2", "5", "9"], accountID: account.id) == 0)
        #expect(try await state(other) == elsewhere)
        #expect(try await store.entryCount(feedID: feedID, unreadOnly: true) == 3)
    }

    @Test func anArticleStoredAgainKeepsItsQueuedStateAndIsNotDuplicated() async throws {
        let (store, account, feedID) = try await store()
        try await store.markRead(entryID: try await entryID("2", in: store))
        let again = RemoteArticle(id: "2", feedID: "3", title: "Article 2", link: nil, author: nil, published: nil, updated: nil,
                                  content: "changed", isRead: false, isStarred: false)
        #expect(try await store.storeArticles([again], accountID: account.id, cursor: nil) == 0)
        #expect(try await store.entryCount(feedID: feedID) == 5)
        #expect(try await store.entry(id: try await entryID("2", in: store))?.isRead == true)
        #expect(try await store.account(id: account.id)?.cursor == "5", "no cursor given, none changed")
    }

    /// A page goes into the entries in one statement (FeedStore+SyncMerge): in the page's order,
    /// each article once, none of a feed the account lacks or that expired here, a change queued
    /// for an article not stored yet kept, and every one found by search.
    @Test func aPageIsStoredInItsOrderOnceEachWithItsQueuedStateAndFoundBySearch() async throws {
        let (store, account, feedID) = try await store(count: 2)
        try await store.writing { db in
            try db.execute(sql: "INSERT INTO expiredEntries (feedId, entryId) VALUES (?, '9')", arguments: [feedID])
            try db.execute(sql: "INSERT INTO syncQueue (accountId, action, remoteId, queuedAt) VALUES (?, 'star', '5', ?)",
                           arguments: [account.id, Date()])
        }
        func article(_ id: String, _ title: String, feed: String = "3") -> RemoteArticle {
            RemoteArticle(id: id, feedID: feed, title: title, link: nil, author: nil, published: Date(timeIntervalSince1970: 1_700_000_100),
                          updated: nil, content: "<p>\(title) <b>today</b></p>", isRead: false, isStarred: false)
        }
        let page = [article("3", "Compost notes"), article("9", "Expired tomatoes"), article("4", "Elsewhere", feed: "404"),
                    article("3", "Compost again"), article("5", "Seed swap")]

        #expect(try await store.storeArticles(page, accountID: account.id, cursor: nil) == 2)

        #expect(try await store.entryCount(feedID: feedID) == 4)
        #expect(try await entryID("3", in: store) < entryID("5", in: store), "stored in the page's order")
        #expect(try await store.search("compost").map(\.title) == ["Compost notes"])
        #expect(try await store.search("toda").map(\.entryID).sorted() == ["3", "5"])
        #expect(try await store.search("tomatoes").isEmpty)
        #expect(try await store.entry(id: try await entryID("5", in: store))?.isStarred == true, "the queued star")
    }

    /// A synced article's plain text is made once for both its summary and the search index
    /// (FeedStore+SyncMerge): the summary keeps its start, the index all of it, as for an article
    /// a feed's refresh stored, and an entry changed later is indexed from its new text.
    @Test func aSyncedAndARefreshedArticleAreFoundByEveryWordOfTheirText() async throws {
        let (store, account, feedID) = try await store(count: 1)
        let filler = String(repeating: "<p>Rows of leeks &amp; onions.</p> ", count: 20)
        let html = "<p>Opening words</p>\(filler)<p>closing <em>rhubarb</em> crumble</p>"
        let synced = RemoteArticle(id: "8", feedID: "3", title: "Long article", link: nil, author: nil, published: nil, updated: nil,
                                   content: html, isRead: false, isStarred: false)
        let refreshedFeed = try await store.addFeed(url: URL(string: "https://garden.example/feed")!)
        try await store.apply(fetched([
            Entry(id: "r1", title: "Refreshed", content: "<div>Plums <b>ripen</b> late</div>\(filler)<p>final quince</p>"),
        ]), toFeed: refreshedFeed.id)

        #expect(try await store.storeArticles([synced], accountID: account.id, cursor: nil) == 1)

        let stored = try #require(try await store.entry(id: try await entryID("8", in: store)))
        let plain = HTMLText.plainText(fromHTML: html)
        #expect(stored.summary == String(plain.prefix(FeedStore.syncedSummaryLength)))
        #expect(try #require(stored.summary).count == FeedStore.syncedSummaryLength && plain.count > FeedStore.syncedSummaryLength)
        #expect(try await store.search("rhubarb crum").map(\.entryID) == ["8"], "a word past the summary")
        #expect(try await store.search("opening").map(\.entryID) == ["8"])
        #expect(try await store.search("quince").map(\.entryID) == ["r1"])
        #expect(try await store.search("ripen").map(\.entryID) == ["r1"])
        #expect(try await store.search("onions").map(\.entryID).sorted() == ["8", "r1"])
        #expect(try await store.search("em").isEmpty, "tag names are not words")

        try await store.writing { db in
            try db.execute(sql: "UPDATE entries SET content = '<p>Gooseberry fool</p>' WHERE feedId = ? AND entryId = '1'", arguments: [feedID])
        }
        #expect(try await store.search("gooseberry").map(\.entryID) == ["1"])
    }

    /// A synced page waits in the search backlog instead of entering the index with each page;
    /// the first search takes it in, in the process that stored it or, after a kill, the next
    /// one; an entry removed while waiting leaves nothing behind; a refreshed feed's entries are
    /// indexed as they are stored.
    @Test func syncedArticlesWaitForTheIndexUntilASearch() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        let store = try FeedStore(path: path)
        let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(categories: [], feeds: [
            RemoteFeed(id: "3", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: nil),
            RemoteFeed(id: "4", url: URL(string: "https://other.example/feed")!, title: "Other", categoryID: nil),
        ]), accountID: account.id)
        let page = ["3", "4"].map { feed in
            RemoteArticle(id: "a\(feed)", feedID: feed, title: "Medlar \(feed)", link: nil, author: nil, published: nil, updated: nil,
                          content: "<p>Bletted fruit</p>", isRead: false, isStarred: false)
        }
        let local = try await store.addFeed(url: URL(string: "https://garden.example/feed")!)
        try await store.apply(fetched([Entry(id: "r1", title: "Refreshed", content: "<p>Bletted medlars</p>")]), toFeed: local.id)
        #expect(try await store.storeArticles(page, accountID: account.id, cursor: nil) == 2)

        func counts(_ store: FeedStore) async throws -> (indexed: Int, waiting: Int) {
            try await store.writing { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries_search") ?? -1,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM searchBacklog") ?? -1)
            }
        }
        #expect(try await counts(store) == (1, 2), "only the refreshed entry indexed as stored")
        let other = try #require(try await store.feeds(accountID: account.id).first { $0.title == "Other" })
        try await store.removeFeed(id: other.id)
        #expect(try await counts(store) == (1, 1))

        // The next process, as after a sync killed before any search.
        let next = try FeedStore(path: path)
        #expect(Set(try await next.search("bletted").compactMap(\.title)) == ["Medlar 3", "Refreshed"])
        #expect(try await counts(next) == (2, 0))
        #expect(try await next.search("fruit").compactMap(\.title) == ["Medlar 3"])
    }

    /// The index holds each synced article's own plain text: with HTML repeated in a page, HTML
    /// equal to another's but for its Unicode normalization, and articles left out. The index keeps
    /// no copy of the text (`v28-contentless-search`), so each article's words and their places are
    /// compared with those of its own plain text indexed alone by the same tokenizer.
    @Test func theIndexHoldsEachSyncedArticlesOwnText() async throws {
        let (store, account, _) = try await store(count: 1)
        let htmls = ["<p>Caf\u{E9} &amp; tea</p>", "<p>Cafe\u{301} &amp; tea</p>", "<p>Caf\u{E9} &amp; tea</p>", "<p>Elsewhere</p>", "<i>Same</i>", "<i>Same</i>"]
        let page = htmls.enumerated().map { index, html in
            RemoteArticle(id: "p\(index)", feedID: index == 3 ? "404" : "3", title: "Page \(index)", link: nil, author: nil,
                          published: nil, updated: nil, content: html, isRead: false, isStarred: false)
        }

        #expect(try await store.storeArticles(page, accountID: account.id, cursor: nil) == 5)
        try await store.indexSearchBacklog()

        let (indexed, expected) = try await store.writing { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE temp.expectedText USING fts5(title, author, body, tokenize = 'unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE temp.indexedWords USING fts5vocab(main, entries_search, instance);
                CREATE VIRTUAL TABLE temp.expectedWords USING fts5vocab(temp, expectedText, instance);
                """)
            for (index, html) in htmls.enumerated() where index != 3 {
                try db.execute(sql: "INSERT INTO temp.expectedText (rowid, title, body) VALUES (?, ?, ?)",
                               arguments: [index, "Page \(index)", HTMLText.plainText(fromHTML: html)])
            }
            let words = "SELECT group_concat(term || '@' || col || ':' || offset, ' ') FROM (SELECT * FROM %@ WHERE doc = ? ORDER BY col, offset)"
            var indexed: [String: String] = [:], expected: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, entryId FROM entries WHERE entryId IN ('p0', 'p1', 'p2', 'p3', 'p4', 'p5')") {
                let entryID: String = row["entryId"]
                indexed[entryID] = try String.fetchOne(db, sql: words.replacingOccurrences(of: "%@", with: "temp.indexedWords"), arguments: [row["id"]])
                expected[entryID] = try String.fetchOne(db, sql: words.replacingOccurrences(of: "%@", with: "temp.expectedWords"),
                                                        arguments: [Int(entryID.dropFirst())!])
            }
            return (indexed, expected)
        }
        #expect(indexed.count == 5)
        for (entryID, words) in indexed {
            #expect(words != nil && words == expected[entryID], "article \(entryID): \(words ?? "nothing") against \(expected[entryID] ?? "nothing")")
        }
    }

    @Test func subscriptionsFollowTheServerButNotOverAQueuedUnsubscription() async throws {
        let (store, account, feedID) = try await store()
        let other = RemoteFeed(id: "4", url: URL(string: "https://other.example/feed")!, title: "Other", categoryID: nil)
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [RemoteCategory(id: "7", title: "Renamed"), RemoteCategory(id: "8", title: "Tech")],
            feeds: [RemoteFeed(id: "3", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: "8"), other]),
            accountID: account.id)
        let folders = try await store.folders(accountID: account.id)
        #expect(folders.map(\.name) == ["Renamed", "Tech"])
        let feeds = try await store.feeds(accountID: account.id)
        #expect(feeds.map(\.title) == ["Site", "Other"])
        #expect(feeds.first?.folderID == folders.last?.id)
        #expect(feeds.first?.id == feedID, "the feed and its entries stay")
        #expect(try await store.entryCount(feedID: feedID) == 5)

        _ = try await store.unsubscribeSynced(feedID: feeds[1].id)
        try await store.applySubscriptions(RemoteSubscriptions(categories: [], feeds: [other]), accountID: account.id)
        #expect(try await store.feeds(accountID: account.id).isEmpty, "3 left the server; 4 is being unsubscribed")
        #expect(try await store.folders(accountID: account.id).isEmpty)
        #expect(try await store.entryCount() == 0)
    }

    /// A feed moved here while a sync runs (after its queue was sent) stays in its new folder
    /// though the server still lists it in the old one; once the move has left the queue, the
    /// server's folder is the feed's again (mutation audit 2, S13).
    @Test func aQueuedMoveSurvivesTheServersOldFolderUntilItLeavesTheQueue() async throws {
        let (store, account, feedID) = try await store()
        let listed = RemoteSubscriptions(
            categories: [RemoteCategory(id: "7", title: "News"), RemoteCategory(id: "8", title: "Tech")],
            feeds: [RemoteFeed(id: "3", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: "7")])
        try await store.applySubscriptions(listed, accountID: account.id)
        let folders = try await store.folders(accountID: account.id)
        let news = try #require(folders.first { $0.name == "News" }?.id), tech = try #require(folders.first { $0.name == "Tech" }?.id)
        _ = try await store.moveSynced(feedID: feedID, toFolder: tech)

        try await store.applySubscriptions(listed, accountID: account.id)
        #expect(try await store.feeds(accountID: account.id).first?.folderID == tech)
        #expect(try await queue(store, account) == ["move 3"])

        try await store.removeQueuedChanges(ids: try await store.queuedChanges(accountID: account.id).map(\.id))
        try await store.applySubscriptions(listed, accountID: account.id)
        #expect(try await store.feeds(accountID: account.id).first?.folderID == news)
    }

    @Test func retentionKeepsWhatTheServerHasUnreadOrStarred() async throws {
        let (store, account, _) = try await store()
        try await store.markRead(entryID: try await entryID("1", in: store))
        try await store.markRead(entryID: try await entryID("2", in: store))
        try await store.setStarred(entryID: try await entryID("2", in: store))
        _ = account
        let removed = try await store.expireEntries(Retention(days: 1, keepsUnread: false, keepsStarred: false), at: Date() + 10 * 86400)
        #expect(removed == 1)
        #expect(Set(try await store.entries(EntryQuery(limit: 100)).map(\.entryID)) == ["2", "3", "4", "5"])
    }

    @Test func anAccountsFeedsAreNotTheReadersOwnSubscriptions() async throws {
        let (store, account, _) = try await store()
        let local = try await store.addFeed(url: URL(string: "https://site.example/feed")!)
        #expect(try await store.feeds().map(\.id) == [local.id], "the same address may be a local subscription too")
        #expect(try await store.subscriptionsDocument().subscriptions.map(\.url) == [local.url])
        #expect(try await store.feedsWithAddress("https://site.example/feed").count == 2)
        try await store.removeAccount(id: account.id)
        #expect(try await store.entryCount() == 0)
        #expect(try await store.feeds().map(\.id) == [local.id])
    }

    @Test func anAccountsEntriesAreItsOwnArticlesOnly() async throws {
        let (store, account, _) = try await store(count: 3)
        let other = try await store.addAccount(kind: FeverService.kind, server: URL(string: "https://other.example/api/fever.php")!, user: "ann")
        try await store.applySubscriptions(RemoteSubscriptions(
            categories: [], feeds: [RemoteFeed(id: "3", url: URL(string: "https://other.example/feed")!, title: "Other", categoryID: nil)]),
            accountID: other.id)
        _ = try await store.storeArticles([
            RemoteArticle(id: "1", feedID: "3", title: "Elsewhere", link: nil, author: nil, published: Date(timeIntervalSince1970: 1_700_000_100),
                          updated: nil, content: nil, isRead: false, isStarred: false),
        ], accountID: other.id, cursor: "1")
        #expect(try await store.entries(EntryQuery(accountID: account.id)).map(\.title) == ["Article 3", "Article 2", "Article 1"])
        #expect(try await store.entries(EntryQuery(accountID: other.id, unreadOnly: true)).map(\.title) == ["Elsewhere"])
        #expect(try await store.entries().count == 4, "all feeds' entries without an account given")
    }

    @Test func readAndStarChangesAreBatchedInOrderUpToTheLimit() {
        let rows: [QueuedChange] = [
            .init(id: 1, action: .read, remoteID: "1"), .init(id: 2, action: .read, remoteID: "2"), .init(id: 3, action: .read, remoteID: "3"),
            .init(id: 4, action: .catchupAccount), .init(id: 5, action: .unread, remoteID: "4"), .init(id: 6, action: .read, remoteID: "5"),
        ]
        let batches = SyncEngine.batches(rows, limit: 2).map { $0.map(\.id) }
        #expect(batches == [[1, 2], [3], [4], [5], [6]])
        #expect(SyncEngine.change(for: Array(rows[0..<2])) == .setRead(true, articleIDs: ["1", "2"]))
        #expect(SyncEngine.change(for: [rows[3]]) == .markAllRead(.account, before: rows[3].queuedAt))
    }
}
