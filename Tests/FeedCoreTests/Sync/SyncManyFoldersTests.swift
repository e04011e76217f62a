import Foundation
import TestSupport
import Testing
@testable import FeedCore

/// An account of 20,000 folders, one feed in each, maps to its categories and feeds in linear
/// time: a search of the list per folder or feed made this 24 to 51 s (red team 2, case 14). The
/// mapping is timed alone, with the answers decoded already: linear, it takes milliseconds even
/// in a debug build on a loaded machine, where decoding and the transfer of 2 MB answers took
/// 40 s when every suite ran at once; quadratic, minutes. The bound is generous, to catch
/// quadratic work, not to time it. The same answers then go through the clients, fewer of them,
/// from a small server on 127.0.0.1: setting many folders up in the real services would take
/// longer than the test.
@Suite("Sync subscriptions with many folders")
struct SyncManyFoldersTests {
    static let folderCount = 20_000
    /// Through the clients and the loopback: enough to see every folder and feed mapped.
    static let servedCount = 2_000
    static let bound = Duration.seconds(10)

    @Test func googleReaderFoldersMapInLinearTime() {
        let subscriptions = (1...Self.folderCount).map { index in
            GoogleReaderSubscription(id: "feed/\(index)", title: "F\(index)", url: URL(string: "http://127.0.0.1:1/\(index).xml"),
                                     siteURL: nil, folders: [GoogleReaderFolder(id: "user/-/label/L\(index)", name: "L\(index)")])
        }
        let folders = (1...Self.folderCount).map { GoogleReaderFolder(id: "user/-/label/L\($0)", name: "L\($0)") }

        let started = ContinuousClock.now
        let mapped = GoogleReaderService.remoteSubscriptions(subscriptions, folders: folders)

        #expect(ContinuousClock.now - started < Self.bound)
        #expect(mapped.categories.count == Self.folderCount)
        #expect(mapped.feeds.count == Self.folderCount)
        #expect(mapped.feeds.last?.categoryID == "user/-/label/L\(Self.folderCount)")
    }

    @Test func feverGroupsMapInLinearTime() {
        let groups = (1...Int64(Self.folderCount)).map { FeverGroup(id: $0, title: "G\($0)", feedIDs: [$0]) }
        let feeds = (1...Int64(Self.folderCount)).map { FeverFeed(id: $0, title: "F\($0)", url: URL(string: "http://127.0.0.1:1/\($0).xml")) }

        let started = ContinuousClock.now
        let mapped = FeverService.remoteSubscriptions(groups: groups, feeds: feeds)

        #expect(ContinuousClock.now - started < Self.bound)
        #expect(mapped.categories.count == Self.folderCount)
        #expect(mapped.feeds.count == Self.folderCount)
        #expect(mapped.feeds.last?.categoryID == String(Self.folderCount))
    }

    @Test func ttRSSCategoriesBecomeSourcesInLinearTime() {
        let feeds = (1...Self.folderCount).map { (id: RemoteID(String($0)), title: String?.none, categoryID: RemoteID?(String($0))) }

        let started = ContinuousClock.now
        let sources = HeadlineSource.covering(feeds + feeds)

        #expect(ContinuousClock.now - started < Self.bound)
        #expect(sources.count == Self.folderCount + 1)
        #expect(sources.last == HeadlineSource(id: 0, isCategory: false))
    }

    @Test func googleReaderAnswersOfManyFoldersMapThroughTheClient() async throws {
        let subscriptions = (1...Self.servedCount).map { index in
            #"{"id":"feed/\#(index)","title":"F\#(index)","categories":[{"id":"user/-/label/L\#(index)","label":"L\#(index)"}],"url":"http://127.0.0.1:1/\#(index).xml"}"#
        }
        let tags = (1...Self.servedCount).map { #"{"id":"user/-/label/L\#($0)","type":"folder"}"# }
        let subscriptionList = Data(#"{"subscriptions":[\#(subscriptions.joined(separator: ","))]}"#.utf8)
        let tagList = Data(#"{"tags":[\#(tags.joined(separator: ","))]}"#.utf8)
        let server = try TestHTTPServer { request in
            switch request.path.split(separator: "?").first.map(String.init) ?? "" {
            case "/api/greader.php/accounts/ClientLogin": .ok(Data("SID=u/1\nLSID=null\nAuth=u/1\n".utf8))
            case "/api/greader.php/reader/api/0/subscription/list": .ok(subscriptionList)
            case "/api/greader.php/reader/api/0/tag/list": .ok(tagList)
            default: .status(404)
            }
        }
        defer { server.stop() }
        let service = GoogleReaderService(credentials: SyncCredentials(server: server.url("/api/greader.php"), user: "u", password: "p"))

        let mapped = try await service.subscriptions(known: [:])

        #expect(mapped.categories.count == Self.servedCount)
        #expect(mapped.feeds.count == Self.servedCount)
        #expect(mapped.feeds.last?.categoryID == "user/-/label/L\(Self.servedCount)")
    }

    @Test func feverAnswersOfManyGroupsMapThroughTheClient() async throws {
        let groups = (1...Self.servedCount).map { #"{"id":\#($0),"title":"G\#($0)"}"# }
        let memberships = (1...Self.servedCount).map { #"{"group_id":\#($0),"feed_ids":"\#($0)"}"# }
        let feeds = (1...Self.servedCount).map { #"{"id":\#($0),"title":"F\#($0)","url":"http://127.0.0.1:1/\#($0).xml"}"# }
        let groupsAnswer = Data(#"{"api_version":3,"auth":1,"groups":[\#(groups.joined(separator: ","))],"feeds_groups":[\#(memberships.joined(separator: ","))]}"#.utf8)
        let feedsAnswer = Data(#"{"api_version":3,"auth":1,"feeds":[\#(feeds.joined(separator: ","))]}"#.utf8)
        let server = try TestHTTPServer { request in
            let query = request.path.split(separator: "?").last.map(String.init) ?? ""
            let answer = switch query {
            case "api&groups": groupsAnswer
            case "api&feeds": feedsAnswer
            default: Data(#"{"api_version":3,"auth":1}"#.utf8)
            }
            return .ok(answer, headers: [("Content-Type", "application/json")])
        }
        defer { server.stop() }
        let service = FeverService(credentials: SyncCredentials(server: server.url("/api/fever.php"), user: "u", password: "p"))

        let mapped = try await service.subscriptions(known: [:])

        #expect(mapped.categories.count == Self.servedCount)
        #expect(mapped.feeds.count == Self.servedCount)
        #expect(mapped.feeds.last?.categoryID == String(Self.servedCount))
    }
}
