import Foundation
import GRDB
import Testing
import TestSupport
@testable import FeedCore

/// A first sync's paging category by category against the real server: together its pages hold
/// every article feed -4 holds, an article arriving in a category already paged is found by the
/// next sync, and a sync killed mid-pass leaves whole pages that the next one completes.
extension TinyTinyRSSSyncTests {
    /// The service's own pages of a first sync, driven one by one as the engine drives them.
    struct FirstPass {
        let service: TinyTinyRSSService
        var cursor: SyncCursor?
        var ids: [String] = []
        var pages = 0
        var isDone = false

        init(_ user: (name: String, password: String), server: TinyTinyRSSServer) async throws {
            service = TinyTinyRSSService(credentials: SyncCredentials(server: server.url, user: user.name, password: user.password))
            _ = try await service.subscriptions(known: [:])
        }

        mutating func nextPage() async throws {
            let page = try await service.articles(since: cursor)
            ids += page.articles.map(\.id)
            cursor = page.nextCursor
            pages += 1
            isDone = page.isLast
        }

        /// The categories (by id) not paged whole yet.
        var categoriesLeft: [Int64] {
            guard case let .bySource(_, _, sources) = ArticlesCursor(cursor) else { return [] }
            return sources.filter(\.isCategory).map(\.id)
        }
    }

    @Test func aFirstSyncPagesEveryCategoryNestedOnesUncategorizedFeedsAndArchivedArticles() async throws {
        let setup = try await setUp(feeds: [("Big", 450, "News"), ("Small", 5, "Tech"), ("Inner", 210, "Gadgets"), ("Loose", 3, nil),
                                            ("Gone", 4, "News")])
        let categories = try await setup.other.call("getCategories", ["include_empty": true]) as? [[String: Any]] ?? []
        let id = { (title: String) in categories.first { $0["title"] as? String == title }?["id"] as? Int ?? 0 }
        try await server.sql("UPDATE ttrss_feed_categories SET parent_cat = \(id("Tech")) WHERE id = \(id("Gadgets"))")
        // Starred, then unsubscribed from: tt-rss keeps the article as archived (feed 0), in no category.
        let feeds = try await setup.other.call("getFeeds", ["cat_id": -3]) as? [[String: Any]] ?? []
        let gone = try #require(feeds.first { $0["title"] as? String == "Gone" }?["id"] as? Int)
        let archived = try #require(try await setup.other.headlineIDs(feed: gone, viewMode: "all_articles").sorted().first)
        try await setup.other.setStarred(true, [archived])
        try await setup.other.call("unsubscribeFeed", ["feed_id": gone])
        let everyArticle = try await setup.other.allIDs
        #expect(everyArticle.contains(archived) && everyArticle.count == 450 + 5 + 210 + 3 + 1)

        var pass = try await FirstPass(setup.user, server: server)
        while !pass.isDone { try await pass.nextPage() }
        #expect(pass.ids.count == Set(pass.ids).count, "no article twice")
        let missed = everyArticle.subtracting(pass.ids)
        #expect(missed.isEmpty && Set(pass.ids).isSubset(of: everyArticle), "not paged: \(missed.sorted())")
        #expect(pass.cursor == everyArticle.compactMap { Int($0) }.max().map(String.init))

        // The engine stores every article of a feed here; the archived one has none to be shown in.
        let report = try await setup.engine.sync(accountID: setup.account.id)
        #expect(report.newEntries == 450 + 5 + 210 + 3)
        #expect(Set(try await entries(setup).keys) == everyArticle.subtracting([archived]))
        let folders = try await setup.store.folders(accountID: setup.account.id)
        #expect(Set(folders.map(\.name)) == ["News", "Tech", "Gadgets"])
    }

    @Test func anArticleArrivingInACategoryAlreadyPagedIsFoundByTheNextSync() async throws {
        let setup = try await setUp(feeds: [("First", 3, "Alpha"), ("Second", 3, "Beta"), ("Third", 3, "Gamma")])
        var pass = try await FirstPass(setup.user, server: server)
        try await pass.nextPage()
        let categories = try await setup.other.call("getCategories", ["include_empty": true]) as? [[String: Any]] ?? []
        let all = Set(categories.compactMap { $0["id"] as? Int }.filter { $0 > 0 }.map(Int64.init))
        let left = pass.categoriesLeft
        let paged = try #require(all.subtracting(left).first, "one category paged whole: \(pass.cursor ?? "")")
        let later = try #require(left.last)

        // Newer articles in the category paged already, then newer still in one paged later.
        _ = try await setup.other.subscribe(try server.writeFeed(title: "Arrived early", count: 2), category: Int(paged))
        try await server.update()
        let early = try await setup.other.allIDs
        _ = try await setup.other.subscribe(try server.writeFeed(title: "Arrived late", count: 2), category: Int(later))
        try await server.update()
        let late = try await setup.other.allIDs.subtracting(early)
        while !pass.isDone { try await pass.nextPage() }
        let missed = early.subtracting(pass.ids)
        #expect(missed.count == 2, "the early arrivals came after their category was paged")
        #expect(late.isSubset(of: Set(pass.ids)), "the late ones were paged with their category")

        let next = try await pass.service.articles(since: pass.cursor)
        #expect(next.isLast)
        #expect(missed.isSubset(of: Set(next.articles.map(\.id))))
    }

    @Test func aSyncKilledMidPassLeavesWholePagesAndTheNextOneCompletes() async throws {
        let user = try await server.newUser()
        let other = try await OtherClient(server: server, user: user.name, password: user.password)
        for (title, count) in [("Red", 1_000), ("Green", 600), ("Blue", 400)] {
            let category = try await server.newCategory(user: user.name, title: title)
            _ = try await other.subscribe(try server.writeFeed(title: title, count: count, dates: .fixedOldestFirst), category: category)
        }
        try await server.update()
        let reader = try Reader()
        let added = try await reader.run(["--add-account", server.url.absoluteString, "--service", "tt-rss", "--user", user.name],
                                         input: user.password + "\n")
        try #require(added.status == 0, "\(added.errors)")

        // Killed with SIGKILL once two pages are stored, in the category Red's pages.
        let child = try Subprocess(reader.program.path, ["--sync"], environment: reader.environment([:]))
        var stored = 0
        while stored < 400 {
            try await Task.sleep(for: .milliseconds(5))
            stored = (try? await reader.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") ?? 0 }) ?? 0
        }
        kill(child.pid, SIGKILL)
        _ = await child.finish()
        stored = try await reader.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") ?? 0 }
        #expect(stored % 200 == 0 && stored < 2_000, "whole pages only, the sync unfinished: \(stored)")
        #expect(try await reader.database.read { db in try String.fetchOne(db, sql: "SELECT cursor FROM accounts") } == nil)

        let finished = try await reader.run(["--sync"])
        #expect(finished.status == 0, "\(finished.errors)")
        let ids = try await reader.database.read { db in Set(try String.fetchAll(db, sql: "SELECT remoteId FROM entries")) }
        #expect(ids == (try await other.allIDs))
        let cursor = try await reader.database.read { db in try String.fetchOne(db, sql: "SELECT cursor FROM accounts") }
        #expect(cursor == ids.compactMap { Int($0) }.max().map(String.init))
    }

    /// A category of more feeds than one of its pages should weigh is paged feed by feed, lowest
    /// id first, and a pass resumed among them from the stored cursor (a sync stopped there) goes
    /// on with the next feed and completes.
    @Test func aCategoryOfManyFeedsIsPagedFeedByFeed() async throws {
        let user = try await server.newUser()
        let feeds = HeadlineSource.feedsPagedTogether + 1
        try await server.run("seed", user.name, String(feeds), "2", "1")
        let other = try await OtherClient(server: server, user: user.name, password: user.password)
        let everyArticle = try await other.allIDs
        try #require(everyArticle.count == feeds * 2)

        var pass = try await FirstPass(user, server: server)
        try await pass.nextPage()
        guard case let .bySource(_, skip, sources) = ArticlesCursor(pass.cursor) else {
            Issue.record("no pass by source: \(pass.cursor ?? "nil")")
            return
        }
        #expect(pass.ids.count == 2 && skip == 0)
        #expect(sources.first?.isCategory == true && sources.first?.feedsFrom != nil, "\(pass.cursor ?? "")")

        var resumed = try await FirstPass(user, server: server)
        (resumed.cursor, resumed.ids) = (pass.cursor, pass.ids)
        while !resumed.isDone { try await resumed.nextPage() }
        #expect(resumed.pages == feeds - 1 + 1, "a page for each feed left, then the archived articles")
        #expect(resumed.ids.count == Set(resumed.ids).count, "no article twice")
        #expect(Set(resumed.ids) == everyArticle)
    }
}
