import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("MD5 for the Fever key")
struct MD5Tests {
    // RFC 1321's test suite.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321(input: String, digest: String) {
        #expect(MD5.hex(Array(input.utf8)) == digest)
    }
}

/// A hostile Fever server may list millions of ids; no real server can be made to.
@Suite("Fever id lists")
struct FeverIDListTests {
    @Test(arguments: [
        ("", []), ("7", [7]), ("1, 2,3", [1, 2, 3]), ("4,-1,9", [4, -1, 9]),
    ] as [(String, [Int64])])
    func aListIsRead(list: String, ids: [Int64]) throws {
        #expect(try FeverClient.parseIDs(list) == ids)
    }

    /// Counted before read: one id too many fails as too many, even where the ids past the limit
    /// are not numbers, so a list of four million is never made an array first.
    @Test(arguments: [(3, "1,2,3", nil), (3, "1,2,3,x", WebAPIError.tooManyIDs(3)), (3, "1,x", .malformedAnswer)] as [(Int, String, WebAPIError?)])
    func aListLongerThanTheLimitFailsBeforeItIsRead(limit: Int, list: String, error: WebAPIError?) throws {
        if let error {
            #expect(throws: error) { try FeverClient.parseIDs(list, limit: limit) }
        } else {
            #expect(try FeverClient.parseIDs(list, limit: limit).count == limit)
        }
    }

    @Test func theLimitIsTheSyncsOwn() {
        let list = String(repeating: "1,", count: SyncLimits.listedIDs) + "x"
        #expect(throws: WebAPIError.tooManyIDs(SyncLimits.listedIDs)) { try FeverClient.parseIDs(list) }
    }
}

extension FreshRSSTests {
    /// The client against a real FreshRSS 1.24.3 (meson-helpers/freshrss-server), one user per test.
    @Suite("Fever API against FreshRSS")
    struct FeverClientTests {
        let server: FreshRSSServer
        let user: String
        let password = "api-pass-fever"
        /// Sets the feeds up: Fever cannot subscribe.
        let reader: GoogleReaderClient

        init() async throws {
            do {
                server = try await FreshRSSServer.shared()
            } catch let unavailable as FreshRSSServer.Unavailable {
                try Test.cancel("FreshRSS is not available, so this test was skipped: \(unavailable)")
            }
            user = "fever" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
            try await server.addUser(user, password: password)
            reader = GoogleReaderClient(endpoint: server.greaderEndpoint, user: user, password: password)
        }

        var client: FeverClient { FeverClient(endpoint: server.feverEndpoint, user: user, password: password) }

        /// A feed of `count` items named `name`-1 (oldest) … `name`-count (newest), in `folder`.
        @discardableResult
        func subscribe(_ name: String, count: Int, folder: String? = nil) async throws -> URL {
            let url = try server.writeFeed("\(user)/\(name).xml", FreshRSSServer.rss("Feed \(name)", items: (1...count).reversed().map { "\(name)-\($0)" }))
            _ = try await reader.subscribe(to: url, folder: folder)
            return url
        }

        @Test func groupsAndFeeds() async throws {
            let news = try await subscribe("news", count: 1, folder: "News")
            let loose = try await subscribe("loose", count: 1)

            let feeds = try await client.feeds()
            let groups = try await client.groups()

            #expect(Set(feeds.compactMap(\.url)) == [news, loose])
            let newsFeed = try #require(feeds.first { $0.url == news })
            #expect(newsFeed.title == "Feed news")
            #expect(groups.first { $0.title == "News" }?.feedIDs == [newsFeed.id])
            #expect(groups.first { $0.title == "Uncategorized" }?.feedIDs == feeds.filter { $0.url == loose }.map(\.id))
        }

        @Test func itemsComeFiftyAtATime() async throws {
            try await subscribe("many", count: 60)

            let first = try await client.items(since: 0)
            let second = try await client.items(since: try #require(first.map(\.id).max()))
            let none = try await client.items(since: try #require(second.map(\.id).max()))

            #expect(first.count == FeverClient.itemsPerCall)
            #expect(second.count == 10)
            #expect(none.isEmpty)
            #expect(Set((first + second).map(\.title)) == Set((1...60).map { "many-\($0)" }))
            let item = try #require(first.first { $0.title == "many-1" })
            #expect(item.html == "Body of many-1")
            #expect(item.url == URL(string: "http://example.com/many-1"))
            #expect(!item.isRead && !item.isSaved)
        }

        @Test func readAndSavedGoBothWays() async throws {
            try await subscribe("state", count: 3)
            let items = try await client.items(since: 0)
            let ids = items.map(\.id).sorted()
            #expect(Set(try await client.unreadItemIDs()) == Set(ids))
            #expect(try await client.savedItemIDs().isEmpty)

            try await client.mark(item: ids[0], as: .read)
            try await client.mark(item: ids[1], as: .saved)
            #expect(Set(try await client.unreadItemIDs()) == Set(ids.dropFirst()))
            #expect(try await client.savedItemIDs() == [ids[1]])
            // The same state through the other API: the ids are the Google Reader decimal ids.
            #expect(try await reader.itemIDs(stream: GoogleReaderStream.starred) == [GoogleReaderItemID(UInt64(ids[1]))])

            try await client.mark(item: ids[0], as: .unread)
            try await client.mark(item: ids[1], as: .unsaved)
            #expect(Set(try await client.unreadItemIDs()) == Set(ids))
            #expect(try await client.savedItemIDs().isEmpty)
        }

        @Test func markFeedAndGroupRead() async throws {
            try await subscribe("one", count: 2, folder: "Group")
            try await subscribe("two", count: 2)
            let feeds = try await client.feeds()
            let group = try #require(try await client.groups().first { $0.title == "Group" })

            try await client.markGroupRead(group.id, before: Date())
            let unread = Set(try await client.unreadItemIDs())
            let items = try await client.items(since: 0)
            #expect(Set(items.filter { unread.contains($0.id) }.map(\.title)) == ["two-1", "two-2"])

            let two = try #require(feeds.first { $0.title == "Feed two" })
            try await client.markFeedRead(two.id, before: Date())
            #expect(try await client.unreadItemIDs().isEmpty)
        }

        @Test func everythingReadWithGroupZero() async throws {
            try await subscribe("a", count: 2, folder: "A")
            try await subscribe("b", count: 2)

            try await client.markGroupRead(0, before: Date())

            #expect(try await client.unreadItemIDs().isEmpty)
        }

        /// Fever says "wrong key" with HTTP 200 and "auth":0.
        @Test func failuresAreTold() async throws {
            await #expect(throws: WebAPIError.unauthorized) {
                try await FeverClient(endpoint: server.feverEndpoint, user: user, password: "wrong").logIn()
            }
            try await client.logIn()
            await #expect(throws: WebAPIError.notTheService) {
                try await FeverClient(endpoint: server.feedsBase, user: user, password: password).logIn()
            }
            let base = FeverClient(endpoint: server.base, user: user, password: password)
            try await base.logIn()
            #expect(await base.endpoint == server.feverEndpoint)
            await #expect(throws: WebAPIError.notTheService) {
                try await FeverClient(endpoint: server.greaderEndpoint, user: user, password: password).logIn()
            }
            try server.setAPIEnabled(false)
            defer { try? server.setAPIEnabled(true) }
            await #expect(throws: WebAPIError.apiDisabled) { try await client.logIn() }
        }
    }
}
