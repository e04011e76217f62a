import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("OPML: reading what other readers write, writing what they read")
struct OPMLTests {
    /// One subscription as "folder/inner folder | title | address", to compare lists at a glance.
    static func summary(_ document: OPMLDocument) -> [String] {
        document.subscriptions.map { "\($0.folderPath.isEmpty ? "-" : $0.folderPath.joined(separator: "/")) | \($0.title ?? "-") | \($0.url.absoluteString)" }
    }

    struct Sample: CustomTestStringConvertible, Sendable {
        var name: String
        var xml: String
        var expected: [String]
        var testDescription: String { name }
    }

    /// Files shaped like those other readers export (written for these tests).
    static let samples: [Sample] = [
        Sample(name: "OPML 1.0, one level of folders, title and text (web readers' export)", xml: """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="1.0">
              <head><title>Alex subscriptions in Reader</title></head>
              <body>
                <outline text="Tech" title="Tech">
                  <outline type="rss" text="Kernel News" title="Kernel News" xmlUrl="https://kernel.example/feed" htmlUrl="https://kernel.example/"/>
                  <outline type="rss" text="Rust Blog" title="Rust Blog" xmlUrl="https://rust.example/feed.xml" htmlUrl="https://rust.example"/>
                </outline>
                <outline type="rss" text="Loose &amp; Free" title="Loose &amp; Free" xmlUrl="https://loose.example/rss"/>
              </body>
            </opml>
            """, expected: ["Tech | Kernel News | https://kernel.example/feed", "Tech | Rust Blog | https://rust.example/feed.xml",
                            "- | Loose & Free | https://loose.example/rss"]),
        Sample(name: "OPML 2.0 from a desktop reader: text only, nested folders, a folder without feeds", xml: """
            <?xml version="1.0" encoding="utf-8"?>
            <opml version="2.0">
            <head><title>Subscriptions</title><dateCreated>Mon, 02 Nov 2026 08:00:00 GMT</dateCreated></head>
            <body>
            <outline text="News">
              <outline text="World">
                <outline text="Daily World" type="rss" xmlUrl="http://world.example/daily.rss" htmlUrl="http://world.example"/>
              </outline>
              <outline text="Local Paper" type="rss" xmlUrl="http://local.example/atom"/>
            </outline>
            <outline text="Empty"/>
            </body>
            </opml>
            """, expected: ["News/World | Daily World | http://world.example/daily.rss", "News | Local Paper | http://local.example/atom"]),
        Sample(name: "a desktop reader's folders three deep, marked type=folder, one name in two folders", xml: """
            <?xml version="1.0"?>
            <opml version="1.0">
              <head><title>Liferea Feed List Export</title></head>
              <body>
                <outline title="Tech" text="Tech" description="Tech" type="folder" expanded="true">
                  <outline title="Linux" text="Linux" type="folder" expanded="false">
                    <outline title="Kernel" text="Kernel" type="folder">
                      <outline title="LWN" text="LWN" type="rss" xmlUrl="https://lwn.example/rss" htmlUrl="https://lwn.example/"/>
                    </outline>
                    <outline title="Distro" text="Distro" type="rss" xmlUrl="https://distro.example/feed"/>
                  </outline>
                  <outline title="News" text="News" type="folder">
                    <outline title="Tech Daily" text="Tech Daily" type="rss" xmlUrl="https://techdaily.example/atom"/>
                  </outline>
                </outline>
                <outline title="World" text="World" type="folder">
                  <outline title="News" text="News" type="folder">
                    <outline title="Wire" text="Wire" type="rss" xmlUrl="https://wire.example/rss"/>
                  </outline>
                </outline>
              </body>
            </opml>
            """, expected: ["Tech/Linux/Kernel | LWN | https://lwn.example/rss", "Tech/Linux | Distro | https://distro.example/feed",
                            "Tech/News | Tech Daily | https://techdaily.example/atom", "World/News | Wire | https://wire.example/rss"]),
        Sample(name: "an aggregator's folders marked type=folder, lowercase xmlurl, a Latin-1 file", xml: """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <opml version="1.1">
            <body>
              <outline title="Caf\u{E9}" text="Caf\u{E9}" type="folder">
                <outline title="Cr\u{E8}me" text="Cr\u{E8}me" type="rss" xmlurl="https://creme.example/feed/" htmlurl="https://creme.example/"/>
              </outline>
            </body>
            </opml>
            """, expected: ["Café | Crème | https://creme.example/feed/"]),
        Sample(name: "outlines that are not feeds are left out: links, relative and javascript addresses", xml: """
            <opml version="2.0"><body>
              <outline text="A link" type="link" url="https://example.org/"/>
              <outline text="Relative" type="rss" xmlUrl="/feed.xml"/>
              <outline text="Script" type="rss" xmlUrl="javascript:alert(1)"/>
              <outline text="Real" type="rss" xmlUrl="  https://real.example/feed  "/>
            </body></opml>
            """, expected: ["- | Real | https://real.example/feed"]),
    ]

    @Test(arguments: samples)
    func readsWhatOtherReadersWrite(_ sample: Sample) throws {
        let data = sample.name.contains("Latin-1") ? sample.xml.data(using: .isoLatin1)! : Data(sample.xml.utf8)

        let document = try OPMLDocument(data: data)

        #expect(Self.summary(document) == sample.expected)
    }

    @Test(arguments: [
        ("<opml version=\"2.0\">\n<body>\n<outline text=\"a\" xmlUrl=\"https://a.example/\">\n</body></opml>", 4),
        ("<?xml version=\"1.0\"?>\n<opml>\n<body>\n\n<outline text=\"a & b\" xmlUrl=\"https://a.example/\"/>\n</body></opml>", 5),
    ])
    func aBrokenFileSaysWhichLine(xml: String, line: Int) {
        #expect {
            try OPMLDocument(data: Data(xml.utf8))
        } throws: { error in
            guard case let .malformed(found, reason) = error as? OPMLDocument.ReadError else { return false }
            return found == line && !reason.isEmpty
        }
    }

    @Test func anotherKindOfXMLIsNotOPML() {
        #expect(throws: OPMLDocument.ReadError.notOPML(root: "rss")) {
            try OPMLDocument(data: Data("<rss version=\"2.0\"><channel/></rss>".utf8))
        }
    }

    @Test func whatIsWrittenReadsBackTheSame() throws {
        let document = OPMLDocument(title: "Mine", subscriptions: [
            .init(url: URL(string: "https://a.example/feed?x=1&y=2")!, title: "A \"quoted\" <title> & more", siteURL: URL(string: "https://a.example/")),
            .init(url: URL(string: "https://b.example/rss")!, title: "Ünïcödé 日本語", folderPath: ["Tech & Science"]),
            .init(url: URL(string: "https://e.example/feed")!, title: "E", folderPath: ["Tech & Science", "Deep", "Deeper"]),
            .init(url: URL(string: "https://c.example/atom")!, title: nil, folderPath: ["Tech & Science"]),
            .init(url: URL(string: "https://d.example/feed")!, title: "D", folderPath: ["Other"]),
        ])

        let reread = try OPMLDocument(data: document.data())

        #expect(reread.title == "Mine")
        #expect(Self.summary(reread) == [
            "- | A \"quoted\" <title> & more | https://a.example/feed?x=1&y=2",
            "Tech & Science | Ünïcödé 日本語 | https://b.example/rss",
            "Tech & Science | https://c.example/atom | https://c.example/atom",
            "Tech & Science/Deep/Deeper | E | https://e.example/feed",
            "Other | D | https://d.example/feed",
        ], "a folder's own feeds come before the folders in it")
        #expect(reread.subscriptions[0].siteURL == URL(string: "https://a.example/"))
    }

    @Test func anExportedLibraryImportsIntoAnotherAsItWas() async throws {
        let server = try TestHTTPServer { request in .ok(rss(entries: 2, title: "Feed at \(request.path)")) }
        defer { server.stop() }
        let source = FeedLibrary(store: try FeedStore.inMemory())
        let opml = OPMLDocument(subscriptions: (0..<6).map {
            .init(url: server.url("/feed\($0).xml"), title: "Feed \($0)", folderPath: $0 < 3 ? [] : ["Folder \($0 % 2)"])
        })
        _ = try await source.importSubscriptions(from: opml.data())

        let exported = try await source.exportSubscriptions()
        let target = FeedLibrary(store: try FeedStore.inMemory())
        let report = try await target.importSubscriptions(from: exported)

        #expect(report == FeedLibrary.ImportReport(added: 6, duplicates: 0, failedFetches: 0))
        #expect(Self.summary(try await target.store.subscriptionsDocument()) == Self.summary(try await source.store.subscriptionsDocument()))
        #expect(try await target.store.subscriptionsDocument().subscriptions.compactMap(\.title).sorted() == (0..<6).map { "Feed at /feed\($0).xml" },
                "the feeds' own titles come with their first fetch")
    }
}

extension OPMLTests {
    /// A file nested as a desktop reader writes it, folders in folders and one folder name used
    /// in two places: imported, exported and imported again, every feed is in the same folders.
    @Test func nestedFoldersSurviveImportExportAndImportAgain() async throws {
        let server = try TestHTTPServer { _ in .ok(rss(entries: 1)) }
        defer { server.stop() }
        let file = """
            <?xml version="1.0"?>
            <opml version="1.0"><head><title>Liferea Feed List Export</title></head><body>
              <outline title="Tech" text="Tech" type="folder" expanded="true">
                <outline title="Linux" text="Linux" type="folder">
                  <outline title="Kernel" text="Kernel" type="folder">
                    <outline title="LWN" text="LWN" type="rss" xmlUrl="\(server.url("/lwn"))" htmlUrl="https://lwn.example/"/>
                  </outline>
                  <outline title="Distro" text="Distro" type="rss" xmlUrl="\(server.url("/distro"))"/>
                </outline>
                <outline title="News" text="News" type="folder"><outline title="Daily" text="Daily" type="rss" xmlUrl="\(server.url("/daily"))"/></outline>
                <outline title="Loose in Tech" text="Loose in Tech" type="rss" xmlUrl="\(server.url("/tech"))"/>
              </outline>
              <outline title="World" text="World" type="folder">
                <outline title="News" text="News" type="folder"><outline title="Wire" text="Wire" type="rss" xmlUrl="\(server.url("/wire"))"/></outline>
              </outline>
              <outline title="Top" text="Top" type="rss" xmlUrl="\(server.url("/top"))"/>
            </body></opml>
            """
        let source = FeedLibrary(store: try FeedStore.inMemory())
        _ = try await source.importSubscriptions(from: Data(file.utf8))
        let folders = try await source.store.folders()
        let names = Dictionary(uniqueKeysWithValues: folders.map { ($0.id, $0.name) })
        #expect(folders.map { "\($0.parentID.flatMap { names[$0] } ?? "-") > \($0.name)" }
                == ["- > Tech", "Tech > Linux", "Linux > Kernel", "Tech > News", "- > World", "World > News"], "parents before their children")

        let exported = try await source.exportSubscriptions()
        let target = FeedLibrary(store: try FeedStore.inMemory())
        let report = try await target.importSubscriptions(from: exported)

        let original = Set(try OPMLDocument(data: Data(file.utf8)).subscriptions.map { [$0.url.absoluteString] + $0.folderPath })
        #expect(report.added == 6)
        #expect(Set(try OPMLDocument(data: exported).subscriptions.map { [$0.url.absoluteString] + $0.folderPath }) == original)
        #expect(Set(try await target.store.subscriptionsDocument().subscriptions.map { [$0.url.absoluteString] + $0.folderPath }) == original)
        func withoutDate(_ data: Data) -> [Substring] { String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.contains("dateCreated") } }
        #expect(withoutDate(try await target.exportSubscriptions()) == withoutDate(exported), "a second export writes the same file")
        #expect(try await target.store.folders().map(\.name) == folders.map(\.name))
    }
}

@Suite("Importing a subscription list")
struct SubscriptionsImportTests {
    @Test func newFeedsAreAddedInTheirFoldersDuplicatesCountedAndEachFetchedWithProgress() async throws {
        let server = try TestHTTPServer { request in request.path == "/gone.xml" ? .status(404) : .ok(rss(entries: 2)) }
        defer { server.stop() }
        let library = FeedLibrary(store: try FeedStore.inMemory())
        try await library.store.addFeed(url: server.url("/feed0.xml"))
        let file = """
            <opml version="2.0"><body>
              <outline text="Zero" xmlUrl="\(server.url("/feed0.xml"))"/>
              <outline text="A"><outline text="One" xmlUrl="\(server.url("/feed1.xml"))"/></outline>
              <outline text="B"><outline text="Gone" xmlUrl="\(server.url("/gone.xml"))"/></outline>
              <outline text="One again" xmlUrl="\(server.url("/feed1.xml"))"/>
              <outline text="Three" xmlUrl="\(server.url("/feed3.xml"))"/>
            </body></opml>
            """
        let steps = Steps()

        let report = try await library.importSubscriptions(from: Data(file.utf8)) { done, total in await steps.add(done, total) }

        #expect(report == FeedLibrary.ImportReport(added: 3, duplicates: 2, failedFetches: 1))
        let recorded = await steps.all
        #expect(recorded.first.map { [$0.0, $0.1] } == [0, 3])
        #expect(recorded.map(\.0) == [0, 1, 2, 3], "one step per fetched feed")
        let feeds = try await library.store.feeds()
        #expect(feeds.map { $0.url.path } == ["/feed0.xml", "/feed1.xml", "/gone.xml", "/feed3.xml"])
        #expect(feeds.map(\.unreadCount) == [0, 2, 0, 2])
        #expect(feeds[2].lastError != nil, "a feed that failed stays subscribed and says why")
        #expect(try await library.store.folders().map(\.name) == ["A", "B"])
    }

    @Test func aBrokenFileImportsNothing() async throws {
        let library = FeedLibrary(store: try FeedStore.inMemory())
        let broken = Data("<opml><body>\n<outline xmlUrl=\"https://a.example/feed\"/>\n<outline xmlUrl=\"https://b.example/feed\">\n</body></opml>".utf8)

        await #expect(throws: OPMLDocument.ReadError.self) { try await library.importSubscriptions(from: broken) }

        #expect(try await library.store.feeds().isEmpty)
    }

    /// Progress steps as they arrive, from whichever task reports them.
    actor Steps {
        var all: [(Int, Int)] = []
        func add(_ done: Int, _ total: Int) { all.append((done, total)) }
    }
}
