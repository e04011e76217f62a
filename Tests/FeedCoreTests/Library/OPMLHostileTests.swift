import Foundation
import Testing
@testable import FeedCore

/// OPML files made to hurt: entity bombs, nesting deeper than any folder tree, files far too
/// large, legacy encodings, and addresses of local files. Each is refused or bounded, quickly.
@Suite("OPML: hostile files")
struct OPMLHostileTests {
    /// The 876-byte billion laughs of issue 25: ten levels of ten, used in an outline's attribute.
    static let entityBomb = """
        <?xml version="1.0"?>
        <!DOCTYPE opml [
          <!ENTITY a "lol">
          <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
          <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
          <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
          <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
          <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
          <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
          <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
          <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
          <!ENTITY j "&i;&i;&i;&i;&i;&i;&i;&i;&i;&i;">
        ]>
        <opml version="2.0"><head><title>Bomb</title></head><body>
          <outline text="&j;" title="&j;" xmlUrl="https://bomb.example/feed"/>
        </body></opml>
        """

    /// `levels` outlines each inside the one before, each folder also holding one feed.
    static func nested(levels: Int, feedAtEachLevel: Bool) -> Data {
        var text = #"<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>Deep</title></head><body>"#
        for level in 0..<levels {
            text += #"<outline text="L\#(level)">"#
            if feedAtEachLevel { text += #"<outline text="F\#(level)" xmlUrl="https://deep.example/\#(level)"/>"# }
        }
        text += String(repeating: "</outline>", count: levels) + "</body></opml>"
        return Data(text.utf8)
    }

    @Test func entityDeclarationsAreRefusedBeforeAnyExpands() {
        let clock = ContinuousClock()
        let growth = peakMemoryGrowth {
            let elapsed = clock.measure {
                #expect(throws: OPMLDocument.ReadError.declaresEntities) { try OPMLDocument(data: Data(Self.entityBomb.utf8)) }
            }
            #expect(elapsed < .seconds(5), "refused at once, not after expanding (119 s before)")
        }
        #expect(growth < 1 << 30, "\(growth) bytes more at the peak (3.3 GB before)")
    }

    @Test func evenAHarmlessEntityIsRefused() throws {
        let declared = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY site "https://one.example">]>
            <opml version="2.0"><body><outline text="One" xmlUrl="&site;/feed"/></body></opml>
            """
        #expect(throws: OPMLDocument.ReadError.declaresEntities) { try OPMLDocument(data: Data(declared.utf8)) }
        // A DOCTYPE that declares nothing is only a name: read as before.
        let plain = #"<?xml version="1.0"?><!DOCTYPE opml><opml version="2.0"><body><outline text="One" xmlUrl="https://one.example/feed"/></body></opml>"#
        #expect(try OPMLDocument(data: Data(plain.utf8)).subscriptions.map(\.url.absoluteString) == ["https://one.example/feed"])
    }

    @Test func nestingBeyondWhatLibxml2ReadsIsRefusedWithoutOverflowingTheStack() {
        // 10,000 levels overflowed the stack of the recursive walk (SIGSEGV) before.
        #expect(throws: OPMLDocument.ReadError.tooDeep) { try OPMLDocument(data: Self.nested(levels: 10_000, feedAtEachLevel: false)) }
    }

    @Test func foldersDeeperThanTheCapGoIntoTheDeepestKeptFolder() throws {
        let document = try OPMLDocument(data: Self.nested(levels: 200, feedAtEachLevel: true))
        let cap = OPMLDocument.maxFolderDepth
        let kept = (0..<cap).map { "L\($0)" }
        #expect(document.subscriptions.count == 200, "every feed is kept")
        for (level, subscription) in document.subscriptions.enumerated() {
            #expect(subscription.url.absoluteString == "https://deep.example/\(level)")
            #expect(subscription.folderPath == Array(kept.prefix(min(level + 1, cap))), "level \(level)")
        }
    }

    @Test func theWrittenFileGrowsLinearlyWithTheFolderDepth() {
        // A tree made in the store by hand can be deeper than a file is read: its indentation
        // must not grow with it (5,000 levels wrote 50 MB before).
        let path = (0..<2_000).map { "Folder \($0)" }
        let subscriptions = (1...path.count).map { depth in
            OPMLDocument.Subscription(url: URL(string: "https://deep.example/\(depth)")!, folderPath: Array(path.prefix(depth)))
        }
        let written = OPMLDocument(subscriptions: subscriptions).data()
        let perLevel = written.count / path.count
        #expect(perLevel < 300, "\(written.count) bytes for \(path.count) levels")
    }

    @Test func aFileFarLargerThanAnyListIsRefusedBeforeParsing() {
        let huge = Data(count: OPMLDocument.maxFileSize + 1)
        #expect(throws: OPMLDocument.ReadError.tooLarge(bytes: huge.count)) { try OPMLDocument(data: huge) }
    }

    @Test func anEmptyFileIsNoListRatherThanABrokenOne() {
        #expect(throws: OPMLDocument.ReadError.notOPML(root: "")) { try OPMLDocument(data: Data()) }
    }

    @Test func latin1WithoutADeclarationIsReadInItsEncoding() throws {
        let text = #"<?xml version="1.0"?><opml version="1.0"><head><title>Über Cafés</title></head><body>"#
            + #"<outline text="Nachrichten für Köln" xmlUrl="https://koeln.example/feed"/></body></opml>"#
        let latin1 = try #require(text.data(using: .isoLatin1))
        let document = try OPMLDocument(data: latin1)
        #expect(document.title == "Über Cafés")
        #expect(document.subscriptions.map(\.title) == ["Nachrichten für Köln"])
    }

    @Test func localFilesAreFeedsOnlyInTheStoresOwnCopy() throws {
        let text = """
            <opml version="2.0"><body>
              <outline text="Secret" xmlUrl="file:///etc/shadow"/>
              <outline text="Environment" xmlUrl="FILE:///proc/self/environ" htmlUrl="file:///etc/passwd"/>
              <outline text="Web" xmlUrl="https://web.example/feed" htmlUrl="file:///etc/passwd"/>
            </body></opml>
            """
        let imported = try OPMLDocument(data: Data(text.utf8))
        #expect(imported.subscriptions.map(\.url.absoluteString) == ["https://web.example/feed"])
        #expect(imported.subscriptions.first?.siteURL == nil)
        let ownCopy = try OPMLDocument(data: Data(text.utf8), allowingLocalFiles: true)
        #expect(ownCopy.subscriptions.count == 3)
    }
}

/// How much higher the process's peak resident memory is after `body` than before, in bytes.
/// The peak never falls, so a bound on the growth bounds what `body` itself used at most.
func peakMemoryGrowth(_ body: () throws -> Void) rethrows -> Int {
    func peak() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
    let before = peak()
    try body()
    return peak() - before
}
