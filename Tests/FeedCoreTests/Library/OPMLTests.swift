import Foundation
import TestSupport
import Testing
@testable import FeedCore

@Suite("OPML: reading what other readers write, writing what they read")
struct OPMLTests {
    /// One subscription as "folder | title | address", to compare lists at a glance.
    static func summary(_ document: OPMLDocument) -> [String] {
        document.subscriptions.map { "\($0.folder ?? "-") | \($0.title ?? "-") | \($0.url.absoluteString)" }
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
            """, expected: ["World | Daily World | http://world.example/daily.rss", "News | Local Paper | http://local.example/atom"]),
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
        ("", 1),
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
            .init(url: URL(string: "https://b.example/rss")!, title: "Ünïcödé 日本語", folder: "Tech & Science"),
            .init(url: URL(string: "https://c.example/atom")!, title: nil, folder: "Tech & Science"),
            .init(url: URL(string: "https://d.example/feed")!, title: "D", folder: "Other"),
        ])

        let reread = try OPMLDocument(data: document.data())

        #expect(reread.title == "Mine")
        #expect(Self.summary(reread) == [
            "- | A \"quoted\" <title> & more | https://a.example/feed?x=1&y=2",
            "Tech & Science | Ünïcödé 日本語 | https://b.example/rss",
            "Tech & Science | https://c.example/atom | https://c.example/atom",
            "Other | D | https://d.example/feed",
        ])
        #expect(reread.subscriptions[0].siteURL == URL(string: "https://a.example/"))
    }

    @Test func anExportedLibraryImportsIntoAnotherAsItWas() async throws {
        let server = try TestHTTPServer { request in .ok(rss(entries: 2, title: "Feed at \(request.path)")) }
        defer { server.stop() }
        let source = FeedLibrary(store: try FeedStore.inMemory())
        let opml = OPMLDocument(subscriptions: (0..<6).map {
            .init(url: server.url("/feed\($0).xml"), title: "Feed \($0)", folder: $0 < 3 ? nil : "Folder \($0 % 2)")
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
