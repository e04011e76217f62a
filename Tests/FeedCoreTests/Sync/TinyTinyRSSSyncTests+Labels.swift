import Foundation
import GRDB
import Testing
import TestSupport
@testable import FeedCore

/// Labels against the real tt-rss: set here and there, removed offline, and a sync killed with
/// SIGKILL in a real `feed-reader --sync` child losing none of them.
extension TinyTinyRSSSyncTests {
    /// Makes the label `caption` for `user` in tt-rss's database (its API cannot make one, as its
    /// preferences do) and returns the label's feed id, which the API names it by.
    func newLabel(user: String, caption: String) async throws -> Int {
        let answer = try await server.sql("""
            INSERT INTO ttrss_labels2 (owner_uid, caption) SELECT id, '\(caption.replacingOccurrences(of: "'", with: "''"))'
            FROM ttrss_users WHERE login = '\(user)' RETURNING id
            """)
        let id = try #require(Int(answer.split(separator: "\n").first.map(String.init) ?? ""), "label: \(answer)")
        return -1025 - id
    }

    /// The local labels of each synced article, by the server's article id.
    func labelsHere(_ store: FeedStore) async throws -> [String: Set<String>] {
        let entries = try await store.entries(EntryQuery(limit: 10_000))
        let names = try await store.labelNames(ofEntries: entries.map(\.id))
        return Dictionary(uniqueKeysWithValues: entries.compactMap { entry in names[entry.id].map { (entry.entryID, Set($0)) } })
    }

    @Test func labelsGoBothWaysAndOneTakenOffOfflineLeavesTheServer() async throws {
        let setup = try await setUp(feeds: [("Labelled", 6, nil)])
        let work = try await newLabel(user: setup.user.name, caption: "Work & “play”")
        try await setup.engine.sync(accountID: setup.account.id)
        let ids = try await entries(setup).keys.sorted { Int($0)! < Int($1)! }
        var local = try await entries(setup)

        // Set here: on the server after a sync, in one setArticleLabel.
        try await setup.store.setLabel("Work & “play”", on: [local[ids[0]]!.id, local[ids[1]]!.id])
        let pushed = try await setup.engine.sync(accountID: setup.account.id)
        #expect(pushed.sentChanges == 2)
        #expect(try await setup.other.headlineIDs(feed: work, viewMode: "all_articles") == [ids[0], ids[1]])

        // Set and taken off on the server: here after a sync.
        try await setup.other.call("setArticleLabel", ["article_ids": ids[2], "label_id": work, "assign": true])
        try await setup.other.call("setArticleLabel", ["article_ids": ids[0], "label_id": work, "assign": false])
        try await setup.engine.sync(accountID: setup.account.id)
        #expect(try await labelsHere(setup.store) == [ids[1]: ["Work & “play”"], ids[2]: ["Work & “play”"]])
        #expect(try await setup.store.labels().map { "\($0.name) \($0.unreadCount)" } == ["Work & “play” 2"])

        // Taken off here while the server cannot be reached: off the server after the next sync.
        try server.killWebServer()
        local = try await entries(setup)
        try await setup.store.setLabel("Work & “play”", on: [local[ids[1]]!.id], false)
        await #expect(throws: SyncFailure.self) { try await setup.engine.sync(accountID: setup.account.id) }
        try await server.run("stop-web")
        try await server.run("start-web")
        try await setup.engine.sync(accountID: setup.account.id)
        #expect(try await setup.other.headlineIDs(feed: work, viewMode: "all_articles") == [ids[2]])
        #expect(try await labelsHere(setup.store) == [ids[2]: ["Work & “play”"]])

        // A label tt-rss does not have stays here: its API cannot make one.
        try await setup.store.setLabel("Only here", on: [local[ids[3]]!.id])
        try await setup.engine.sync(accountID: setup.account.id)
        #expect(try await setup.store.queuedChangeCount() == 0)
        #expect(try await labelsHere(setup.store)[ids[3]] == ["Only here"])
    }

    /// `feed-reader --sync` killed with SIGKILL at several points while label changes wait:
    /// after the next sync the server has every one of them, and here matches the server.
    @Test func labelChangesSurviveKillingTheSync() async throws {
        let user = try await server.newUser()
        let other = try await OtherClient(server: server, user: user.name, password: user.password)
        _ = try await other.subscribe(try server.writeFeed(title: "Killed labels", count: 60, dates: .fixedOldestFirst))
        try await server.update()
        let work = try await newLabel(user: user.name, caption: "Work")
        let reader = try Reader()
        let added = try await reader.run(["--add-account", server.url.absoluteString, "--service", "tt-rss", "--user", user.name],
                                         input: user.password + "\n")
        try #require(added.status == 0, "\(added.errors)")
        try #require(try await reader.run(["--sync"]).status == 0)
        let store = try FeedStore(path: FeedStore.databaseURL(environment: ["XDG_DATA_HOME": reader.dataHome.path]).path)
        let entries = try await store.entries(EntryQuery(limit: 100))

        for (round, delay) in [5, 40, 90, 200].map(Duration.milliseconds).enumerated() {
            let chosen = Set(entries.shuffled().prefix(15).map(\.id))
            let labelled = Set(try await labelsHere(store).keys)
            try await store.setLabel("Work", on: entries.filter { labelled.contains($0.entryID) && !chosen.contains($0.id) }.map(\.id), false)
            try await store.setLabel("Work", on: Array(chosen))
            try await reader.kill(["--sync"], after: delay)
            let finished = try await reader.run(["--sync"])
            #expect(finished.status == 0, "\(finished.errors)")
            #expect(try await store.queuedChangeCount() == 0)
            let expected = Set(entries.filter { chosen.contains($0.id) }.map(\.entryID))
            #expect(try await other.headlineIDs(feed: work, viewMode: "all_articles") == expected, "round \(round): on the server")
            #expect(Set(try await labelsHere(store).keys) == expected, "round \(round): here")
        }
    }
}
