import Foundation
import TestSupport
import Testing
@testable import FeedCore

extension FreshRSSTests.FreshRSSSyncTests {
    /// The server's items' titles carrying the label `name`, through the Google Reader API.
    func serverTitles(label name: String) async throws -> Set<String> {
        guard try await reader.tags().labels?.contains(name) == true else { return [] }
        return try await serverTitles(stream: GoogleReaderStream.label(name))
    }

    /// The titles of the entries here carrying the label `name`.
    func titlesHere(label name: String) async throws -> Set<String> {
        guard let label = try await store.labels().first(where: { $0.name == name }) else { return [] }
        return Set(try await store.entries(EntryQuery(labelID: label.id)).compactMap(\.title))
    }

    /// FreshRSS's labels through the Google Reader API: set here and there, taken off offline, a
    /// name with a slash, an ampersand and quotes; a folder's name is never taken for a label.
    @Test func labelsGoBothWays() async throws {
        try await subscribe("tagged", count: 4, folder: "News")
        let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)
        try await engine.sync(accountID: account.id)
        #expect(try await store.labels().isEmpty, "the folder News is no label")

        let odd = "Work/odd, “quoted” & <b>"
        try await store.setLabel(odd, on: [try await entry("tagged-1").id, try await entry("tagged-2").id])
        try await store.setLabel("Later", on: [try await entry("tagged-3").id])
        let pushed = try await engine.sync(accountID: account.id)
        #expect(pushed.sentChanges == 3)
        #expect(try await serverTitles(label: odd) == ["tagged-1", "tagged-2"])
        #expect(try await serverTitles(label: "Later") == ["tagged-3"])
        #expect(try await titlesHere(label: odd) == ["tagged-1", "tagged-2"], "the server's name comes back as it was sent")

        // Set and taken off on the server by another client.
        let items = try await reader.items(try await reader.itemIDs(stream: GoogleReaderStream.readingList))
        try await reader.editTag(items.filter { $0.title == "tagged-4" }.map(\.id), adding: GoogleReaderStream.label("Phone"))
        try await reader.editTag(items.filter { $0.title == "tagged-1" }.map(\.id), removing: GoogleReaderStream.label(odd))
        try await engine.sync(accountID: account.id)
        #expect(try await titlesHere(label: "Phone") == ["tagged-4"])
        #expect(try await titlesHere(label: odd) == ["tagged-2"])

        // Taken off here with the server out of reach: off the server too after the next sync.
        try server.setAPIEnabled(false)
        defer { try? server.setAPIEnabled(true) }
        try await store.setLabel("Later", on: [try await entry("tagged-3").id], false)
        await #expect(throws: SyncFailure.self) { try await engine.sync(accountID: account.id) }
        try server.setAPIEnabled(true)
        try await engine.sync(accountID: account.id)
        #expect(try await serverTitles(label: "Later").isEmpty)
        #expect(try await titlesHere(label: "Later").isEmpty)
        #expect(try await store.queuedChangeCount() == 0)
    }

    /// A label deleted on the server between `tag/list` and the listing of its items, which
    /// FreshRSS then answers with the whole reading list, is put on no article: it is gone.
    @Test func aLabelDeletedOnTheServerMidSyncIsPutOnNothing() async throws {
        try await subscribe("raced", count: 3)
        let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)
        try await engine.sync(accountID: account.id)
        let items = try await reader.items(try await reader.itemIDs(stream: GoogleReaderStream.readingList))
        try await reader.editTag(items.filter { $0.title == "raced-1" }.map(\.id), adding: GoogleReaderStream.label("Going"))
        try await reader.editTag(items.filter { $0.title == "raced-2" }.map(\.id), adding: GoogleReaderStream.label("Staying"))

        // The service as the engine drives it, with the deletion made in the window between its requests.
        let service = GoogleReaderService(credentials: SyncCredentials(server: server.base, user: user, password: password))
        _ = try await service.subscriptions(known: [:])
        try await server.deleteLabel("Going", user: user, password: password)
        let labels = try #require(try await service.labelledArticles())
        #expect(labels.articles.keys.sorted() == ["Staying"], "\(labels.articles)")
        #expect(labels.articles["Staying"]?.count == 1)
    }

    /// A label put on here while it is deleted on the server: the person's change, made last,
    /// puts it back on the server on that article alone, and the other articles here lose it.
    @Test func aLabelPutOnHereWhileDeletedThereComesBackOnThatArticleAlone() async throws {
        try await subscribe("queued", count: 3)
        let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)
        try await engine.sync(accountID: account.id)
        try await store.setLabel("Shared", on: [try await entry("queued-1").id, try await entry("queued-2").id])
        try await engine.sync(accountID: account.id)
        #expect(try await serverTitles(label: "Shared") == ["queued-1", "queued-2"])

        try await store.setLabel("Shared", on: [try await entry("queued-3").id])
        try await server.deleteLabel("Shared", user: user, password: password)
        try await engine.sync(accountID: account.id)
        #expect(try await serverTitles(label: "Shared") == ["queued-3"])
        #expect(try await titlesHere(label: "Shared") == ["queued-3"])
        #expect(try await store.queuedChangeCount() == 0)
    }

    /// `feed-reader --sync` killed with SIGKILL at several points while label changes wait for
    /// FreshRSS: after the next sync the server has every one of them, and here matches it.
    @Test func labelChangesSurviveKillingTheSync() async throws {
        try await subscribe("killed", count: 40)
        let program = try TinyTinyRSSSyncTests.Reader()
        let added = try await program.run(["--add-account", server.base.absoluteString, "--service", "greader", "--user", user],
                                          input: password + "\n")
        try #require(added.status == 0, "\(added.errors)")
        try #require(try await program.run(["--sync"]).status == 0)
        let local = try FeedStore(path: FeedStore.databaseURL(environment: ["XDG_DATA_HOME": program.dataHome.path]).path)
        let entries = try await local.entries(EntryQuery(limit: 100))
        try #require(entries.count == 40)
        try await local.createLabel(named: "Kept")

        for (round, delay) in [5, 40, 120, 300].map(Duration.milliseconds).enumerated() {
            let chosen = Set(entries.shuffled().prefix(10).map(\.id))
            try await local.setLabel("Kept", on: entries.map(\.id).filter { !chosen.contains($0) }, false)
            try await local.setLabel("Kept", on: Array(chosen))
            try await program.kill(["--sync"], after: delay)
            let finished = try await program.run(["--sync"])
            #expect(finished.status == 0, "\(finished.errors)")
            #expect(try await local.queuedChangeCount() == 0)
            let expected = Set(entries.filter { chosen.contains($0.id) }.compactMap(\.title))
            #expect(try await serverTitles(label: "Kept") == expected, "round \(round): on the server")
            let kept = try #require(try await local.labels().first { $0.name == "Kept" })
            #expect(Set(try await local.entries(EntryQuery(labelID: kept.id, limit: 100)).compactMap(\.title)) == expected, "round \(round): here")
        }
    }

    /// Fever has no labels: they stay here, nothing is queued for long and a sync keeps them.
    @Test func feverKeepsLabelsHere() async throws {
        try await subscribe("local", count: 2)
        let account = try await engine.addAccount(kind: FeverService.kind, server: server.base, user: user, password: password)
        try await engine.sync(accountID: account.id)
        try await store.setLabel("Mine", on: [try await entry("local-1").id])
        let report = try await engine.sync(accountID: account.id)
        #expect(report.sentChanges == 0)
        #expect(try await store.queuedChangeCount() == 0)
        #expect(try await titlesHere(label: "Mine") == ["local-1"])
        #expect(engine.capabilities(of: FeverService.kind)?.syncsLabels == false)
    }
}
