import Foundation
import TestSupport
import Testing
@testable import FeedCore

extension FreshRSSTests {
    /// The sync engine with the Google Reader API and Fever services against the real FreshRSS,
    /// passwords in the real Secret Service (run under meson-helpers/keyring-session).
    @Suite("Syncing with FreshRSS")
    struct FreshRSSSyncTests {
        let server: FreshRSSServer
        let user: String
        let password = "api-pass-sync"
        let reader: GoogleReaderClient
        let store: FeedStore
        let secrets = LibsecretStore()
        let engine: SyncEngine

        init() async throws {
            do {
                server = try await FreshRSSServer.shared()
            } catch let unavailable as FreshRSSServer.Unavailable {
                try Test.cancel("FreshRSS is not available, so this test was skipped: \(unavailable)")
            }
            user = "sync" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
            try await server.addUser(user, password: password)
            reader = GoogleReaderClient(endpoint: server.greaderEndpoint, user: user, password: password)
            let path = FileManager.default.temporaryDirectory.appending(path: "sync-\(user).sqlite").path
            store = try FeedStore(path: path)
            let probe = SecretKey(kind: SyncServiceKind(rawValue: "probe"), server: server.base, user: user)
            do {
                try await secrets.save("probe", for: probe)
                try await secrets.remove(for: probe)
            } catch {
                try Test.cancel("no Secret Service is running (run under meson-helpers/keyring-session), so this test was skipped: \(error)")
            }
            engine = SyncEngine(store: store, secrets: secrets)
        }

        /// A feed of items named `name`-1 (oldest) … `name`-`count`, subscribed on the server in `folder`.
        func subscribe(_ name: String, count: Int, folder: String? = nil) async throws {
            _ = try await reader.subscribe(to: writeFeed(name, count: count), folder: folder)
        }

        @discardableResult
        func writeFeed(_ name: String, count: Int) throws -> URL {
            try server.writeFeed("\(user)/\(name).xml", FreshRSSServer.rss("Feed \(name)", items: (1...count).reversed().map { "\(name)-\($0)" }))
        }

        func entry(_ title: String) async throws -> StoredEntry {
            try #require(try await store.entries().first { $0.title == title })
        }

        /// The server's unread items' titles, through the Google Reader API whatever the account's service.
        func serverTitles(excluding state: String? = nil, stream: String = GoogleReaderStream.readingList) async throws -> Set<String> {
            let ids = try await reader.itemIDs(stream: stream, excluding: state)
            return Set(try await reader.items(ids).map(\.title))
        }

        /// Categories become folders, articles and state come down, changes made here go up, a new
        /// article comes with the next sync alone, and "mark all as read" reaches the server. The
        /// account is added with FreshRSS's base address, which the service turns into its API's.
        @Test(arguments: [GoogleReaderService.kind, FeverService.kind])
        func syncGoesBothWays(kind: SyncServiceKind) async throws {
            try await subscribe("news", count: 2, folder: "News")
            try await subscribe("loose", count: 1)
            let account = try await engine.addAccount(kind: kind, server: server.base, user: user, password: password)

            try await engine.sync(accountID: account.id)

            let folders = try await store.folders(accountID: account.id)
            let news = try #require(folders.first { $0.name == "News" })
            let feeds = try await store.feeds(accountID: account.id)
            #expect(Set(feeds.compactMap(\.title)) == ["Feed news", "Feed loose"])
            #expect(feeds.first { $0.title == "Feed news" }?.folderID == news.id)
            #expect(Set(try await store.entries().compactMap(\.title)) == ["news-1", "news-2", "loose-1"])

            // The next run of the app: a new service, at the API beneath the base address again.
            let engine = SyncEngine(store: store, secrets: secrets)

            // Changed on the server by another client.
            let ids = try await reader.itemIDs(stream: GoogleReaderStream.readingList)
            let items = try await reader.items(ids)
            try await reader.editTag(items.filter { $0.title == "news-1" }.map(\.id), adding: GoogleReaderStream.read)
            try await reader.editTag(items.filter { $0.title == "loose-1" }.map(\.id), adding: GoogleReaderStream.starred)
            try await engine.sync(accountID: account.id)
            #expect(try await entry("news-1").isRead)
            #expect(try await entry("loose-1").isStarred)

            // Changed here.
            try await store.markRead(entryID: try await entry("news-2").id)
            try await store.setStarred(entryID: try await entry("news-2").id)
            try await store.setStarred(entryID: try await entry("loose-1").id, isStarred: false)
            try await engine.sync(accountID: account.id)
            #expect(try await serverTitles(excluding: GoogleReaderStream.read) == ["loose-1"])
            #expect(try await serverTitles(stream: GoogleReaderStream.starred) == ["news-2"])
            #expect(try await entry("news-2").isStarred)

            // A new article on the server: the next sync brings it alone.
            try writeFeed("news", count: 3)
            try await server.refresh(user: user)
            let report = try await engine.sync(accountID: account.id)
            #expect(report.newEntries == 1)
            #expect(try await entry("news-3").isRead == false)
            #expect(try await store.entries().count == 4)

            try await store.markAllRead(accountID: account.id)
            try await engine.sync(accountID: account.id)
            #expect(try await serverTitles(excluding: GoogleReaderStream.read).isEmpty)
            #expect(try await store.entries().allSatisfy(\.isRead))
        }

        /// An initial sync of several pages, each batch of items asked for while the one before is
        /// stored: every article arrives once, with its state, and a second sync finds nothing new.
        @Test func aSyncOfSeveralPagesStoresEveryArticleOnce() async throws {
            let count = GoogleReaderService.capabilities.articlePageLimit * 2 + 100
            try await subscribe("many", count: count)
            let ids = try await reader.itemIDs(stream: GoogleReaderStream.readingList)
            try #require(ids.count == count)
            let read = try await reader.items(Array(ids.prefix(10))).map(\.title)
            try await reader.editTag(Array(ids.prefix(10)), adding: GoogleReaderStream.read)
            let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.greaderEndpoint, user: user, password: password)

            let report = try await engine.sync(accountID: account.id)

            let entries = try await store.entries(EntryQuery(limit: count + 1))
            #expect(report.newEntries == count)
            #expect(Set(entries.compactMap(\.title)) == Set((1...count).map { "many-\($0)" }))
            #expect(Set(entries.filter(\.isRead).compactMap(\.title)) == Set(read))
            #expect(try await engine.sync(accountID: account.id).newEntries == 0)
            #expect(try await store.entryCount() == count)
        }

        /// "Mark all as read" reaches the server at the next sync, however much later, covering only
        /// what was there when it was done: an article the server got in between stays unread, on
        /// the server and here.
        @Test(arguments: [GoogleReaderService.kind, FeverService.kind])
        func markAllReadLeavesWhatCameAfterItUnread(kind: SyncServiceKind) async throws {
            try await subscribe("later", count: 2)
            let account = try await engine.addAccount(kind: kind, server: server.base, user: user, password: password)
            try await engine.sync(accountID: account.id)
            try await store.markAllRead(accountID: account.id)

            // The server fetches a new article in a later second than the change (Fever counts whole
            // seconds), while the change still waits in the queue.
            let nextSecond = Date().timeIntervalSince1970.rounded(.up) + 1
            while Date().timeIntervalSince1970 < nextSecond { try await Task.sleep(for: .milliseconds(20)) }
            try writeFeed("later", count: 3)
            try await server.refresh(user: user)
            #expect(try await store.queuedChangeCount(accountID: account.id) == 1)

            try await engine.sync(accountID: account.id)
            #expect(try await store.queuedChangeCount(accountID: account.id) == 0)
            #expect(try await serverTitles(excluding: GoogleReaderStream.read) == ["later-3"])
            #expect(try await entry("later-1").isRead)
            #expect(try await entry("later-2").isRead)
            #expect(try await entry("later-3").isRead == false)
        }

        /// Subscribing into a folder, moving a feed to another folder and unsubscribing, made here
        /// and queued, reach FreshRSS through the Google Reader API at the next sync, which brings
        /// the new feed's articles along.
        @Test func subscribingMovingAndUnsubscribingActOnTheServer() async throws {
            try await subscribe("kept", count: 1, folder: "News")
            try await subscribe("dropped", count: 1, folder: "Other")
            let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)
            try await engine.sync(accountID: account.id)
            let folders = try await store.folders(accountID: account.id)
            let news = try #require(folders.first { $0.name == "News" })
            let other = try #require(folders.first { $0.name == "Other" })
            let feeds = try await store.feeds(accountID: account.id)
            let kept = try #require(feeds.first { $0.title == "Feed kept" })
            let dropped = try #require(feeds.first { $0.title == "Feed dropped" })

            try await engine.subscribe(accountID: account.id, to: try writeFeed("added", count: 2), folderID: news.id)
            try await engine.moveFeed(kept.id, toFolder: other.id)
            try await engine.unsubscribe(feedID: dropped.id)
            #expect(try await store.queuedChangeCount(accountID: account.id) == 3)
            try await engine.sync(accountID: account.id)
            #expect(try await store.queuedChangeCount(accountID: account.id) == 0)

            let onServer = try await reader.subscriptions()
            #expect(Set(onServer.map(\.title)) == ["Feed kept", "Feed added"])
            #expect(onServer.first { $0.title == "Feed added" }?.folders.map(\.name) == ["News"])
            #expect(onServer.first { $0.title == "Feed kept" }?.folders.map(\.name) == ["Other"])
            let here = try await store.feeds(accountID: account.id)
            #expect(Set(here.compactMap(\.title)) == ["Feed kept", "Feed added"])
            let foldersHere = try await store.folders(accountID: account.id)
            #expect(here.first { $0.title == "Feed added" }?.folderID == foldersHere.first { $0.name == "News" }?.id)
            #expect(here.first { $0.title == "Feed kept" }?.folderID == foldersHere.first { $0.name == "Other" }?.id)
            #expect(Set(try await store.entries().compactMap(\.title)) == ["kept-1", "added-1", "added-2"])
        }

        /// A category the last feed left stays a folder of a Fever account, as tt-rss's empty
        /// categories do: Fever's groups list every category, empty ones too.
        @Test func anEmptyFeverGroupIsAFolder() async throws {
            let moved = try await reader.subscribe(to: try writeFeed("moved", count: 1), folder: "Emptied")
            try await reader.move(moved, to: "Kept", from: ["Emptied"])
            let account = try await engine.addAccount(kind: FeverService.kind, server: server.base, user: user, password: password)

            try await engine.sync(accountID: account.id)

            let folders = try await store.folders(accountID: account.id)
            #expect(Set(folders.map(\.name)).isSuperset(of: ["Emptied", "Kept"]), "\(folders.map(\.name))")
            let feed = try #require(try await store.feeds(accountID: account.id).first)
            #expect(feed.folderID == folders.first { $0.name == "Kept" }?.id)
        }

        /// Categories and the labels put on articles share `user/-/label/`: a label of an article,
        /// which FreshRSS's tag/list marks "tag", is no folder. (FreshRSS 1.24.3 leaves empty
        /// categories out of the Google Reader API; GoogleReaderFolderTests has a server that lists them.)
        @Test func anArticlesLabelIsNoFolder() async throws {
            try await subscribe("labelled", count: 1, folder: "News")
            let ids = try await reader.itemIDs(stream: GoogleReaderStream.readingList)
            try await reader.editTag(ids, adding: GoogleReaderStream.label("Read Later"))
            let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)

            try await engine.sync(accountID: account.id)

            #expect(try await store.folders(accountID: account.id).map(\.name) == ["News"])
        }

        /// The Fever API has no call to subscribe, unsubscribe or move a feed: each is refused here
        /// at once, nothing is queued, and the account keeps its feeds.
        @Test func feverRefusesToChangeSubscriptions() async throws {
            try await subscribe("fixed", count: 1, folder: "News")
            let account = try await engine.addAccount(kind: FeverService.kind, server: server.base, user: user, password: password)
            try await engine.sync(accountID: account.id)
            let feed = try #require(try await store.feeds(accountID: account.id).first)
            let more = try writeFeed("more", count: 1)
            await #expect(throws: SyncFailure.unsupported) { try await engine.subscribe(accountID: account.id, to: more) }
            await #expect(throws: SyncFailure.unsupported) { try await engine.unsubscribe(feedID: feed.id) }
            await #expect(throws: SyncFailure.unsupported) { try await engine.moveFeed(feed.id, toFolder: nil) }
            #expect(try await store.queuedChangeCount(accountID: account.id) == 0)
            #expect(try await store.feeds(accountID: account.id).map(\.id) == [feed.id])
        }

        /// The real `feed-reader` killed with SIGKILL during `--mark-read` and `--sync`: nothing
        /// queued is lost, and here and the server agree after the next sync.
        @Test(arguments: [GoogleReaderService.kind, FeverService.kind])
        func queuedChangesSurviveKillingTheProgram(kind: SyncServiceKind) async throws {
            try await subscribe("killed", count: 120)
            let program = try TinyTinyRSSSyncTests.Reader()
            let added = try await program.run(["--add-account", server.base.absoluteString, "--service", kind.rawValue, "--user", user],
                                        input: password + "\n")
            try #require(added.status == 0, "\(added.errors)")
            try #require(try await program.run(["--sync"]).status == 0)
            let all = try await reader.itemIDs(stream: GoogleReaderStream.readingList)
            let serverUnread = { () async throws -> Set<String> in
                Set(try await reader.itemIDs(stream: GoogleReaderStream.readingList, excluding: GoogleReaderStream.read).map(\.description))
            }

            for (round, delay) in [10, 120, 300].map(Duration.milliseconds).enumerated() {
                // Something to do: another client marks a few unread again.
                try await reader.editTag(Array(all.shuffled().prefix(20)), removing: GoogleReaderStream.read)
                try #require(try await program.run(["--sync"]).status == 0)
                let before = try program.state()
                #expect(before.unread == (try await serverUnread()))

                try await program.kill(["--mark-read", "all"], after: delay)
                let afterMark = try program.state()
                let marked = afterMark.unread.isEmpty
                #expect(marked ? afterMark.queued == 1 : afterMark == before, "round \(round)")

                try await program.kill(["--sync"], after: delay)
                let finished = try await program.run(["--sync"])
                #expect(finished.status == 0, "\(finished.errors)")
                let after = try program.state()
                #expect(after.queued == 0)
                #expect(after.unread == (try await serverUnread()), "round \(round): here and on the server alike")
                if !marked {
                    try #require(try await program.run(["--mark-read", "all"]).status == 0)
                    try #require(try await program.run(["--sync"]).status == 0)
                }
                #expect(try await serverUnread().isEmpty, "round \(round): the mark-all-read reached the server")
            }
        }

        /// Fever answers a wrong password with HTTP 200 and "auth":0: adding the account says the
        /// password is wrong and adds nothing.
        @Test(arguments: [GoogleReaderService.kind, FeverService.kind])
        func aWrongPasswordAddsNothing(kind: SyncServiceKind) async throws {
            await #expect {
                _ = try await engine.addAccount(kind: kind, server: server.base, user: user, password: "wrong")
            } throws: { error in
                guard case let SyncFailure.server(serverError) = error else { return false }
                return serverError.code == .wrongCredentials
            }
            #expect(try await store.accounts().isEmpty)
        }
    }
}
