import Foundation
import TestSupport
import Testing
@testable import FeedCore

/// An account of 20,000 folders, one feed in each, maps to its categories and feeds in linear
/// time: a search of the list per folder or feed made this 24 to 51 s (red team 2, case 14). The
/// bound is generous, to catch quadratic work, not to time it: the linear mapping, its answers'
/// decoding and the loopback transfer took up to 9 s here in a debug build on two cores shared
/// with a load of 22. A small server on 127.0.0.1 stands in for the services: setting 20,000
/// folders up in the real ones would take longer than the test.
@Suite("Sync subscriptions with many folders")
struct SyncManyFoldersTests {
    static let folderCount = 20_000
    static let bound = Duration.seconds(30)

    @Test func googleReaderFoldersMapInLinearTime() async throws {
        let subscriptions = (1...Self.folderCount).map { index in
            #"{"id":"feed/\#(index)","title":"F\#(index)","categories":[{"id":"user/-/label/L\#(index)","label":"L\#(index)"}],"url":"http://127.0.0.1:1/\#(index).xml"}"#
        }
        let tags = (1...Self.folderCount).map { #"{"id":"user/-/label/L\#($0)","type":"folder"}"# }
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

        let started = ContinuousClock.now
        let mapped = try await service.subscriptions(known: [:])

        #expect(ContinuousClock.now - started < Self.bound)
        #expect(mapped.categories.count == Self.folderCount)
        #expect(mapped.feeds.count == Self.folderCount)
        #expect(mapped.feeds.last?.categoryID == "user/-/label/L\(Self.folderCount)")
    }

    @Test func feverGroupsMapInLinearTime() async throws {
        let groups = (1...Self.folderCount).map { #"{"id":\#($0),"title":"G\#($0)"}"# }
        let memberships = (1...Self.folderCount).map { #"{"group_id":\#($0),"feed_ids":"\#($0)"}"# }
        let feeds = (1...Self.folderCount).map { #"{"id":\#($0),"title":"F\#($0)","url":"http://127.0.0.1:1/\#($0).xml"}"# }
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

        let started = ContinuousClock.now
        let mapped = try await service.subscriptions(known: [:])

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
}
