import XCTest
@testable import FeedReader

/// The sidebar's tree, level by level, and the one splice that turns one level's rows into
/// another's: no display needed.
final class SidebarOutlineTests: XCTestCase {
    private typealias Feed = SidebarOutline.Feed
    private typealias Folder = SidebarOutline.Folder

    /// Tech (10) holds feed 2 and Linux (11), which holds feed 3 and Kernel (12), which holds
    /// feed 4; World (13) holds feed 5; feed 1 is in no folder.
    private static let feeds: [Feed] = [(1, nil), (2, 10), (3, 11), (4, 12), (5, 13)]
    private static let folders: [Folder] = [(10, nil), (11, 10), (12, 11), (13, nil)]

    func testEachLevelHoldsItsFeedsThenItsFolders() {
        let top: [FeedSelection] = [.all, .starred]
        let cases: [(name: String, feeds: [Feed], folders: [Folder], top: [FeedSelection], children: [FeedSelection: [FeedSelection]])] = [
            ("no feeds", [], [], top, [:]),
            ("feeds only, in their order", [(2, nil), (1, nil)], [], top + [.feed(2), .feed(1)], [:]),
            ("three levels", Self.feeds, Self.folders, top + [.feed(1), .folder(10), .folder(13)],
             [.folder(10): [.feed(2), .folder(11)], .folder(11): [.feed(3), .folder(12)], .folder(12): [.feed(4)], .folder(13): [.feed(5)]]),
            ("an empty folder can be opened", [], [(7, nil)], top + [.folder(7)], [.folder(7): []]),
            ("a feed and a folder in a folder not listed show at the top", [(1, 42)], [(7, 42)], top + [.feed(1), .folder(7)],
             [.folder(7): []]),
            ("a folder inside itself shows once", [], [(7, nil), (8, 7), (7, 8)], top + [.folder(7)],
             [.folder(7): [.folder(8)], .folder(8): []]),
        ]
        for test in cases {
            let outline = SidebarOutline(feeds: test.feeds, folders: test.folders)
            XCTAssertEqual(outline.top, test.top, test.name)
            XCTAssertEqual(outline.children, test.children, test.name)
        }
    }

    func testEachAccountIsASectionAfterTheLocalFeedsHoldingItsCategoriesAsFolders() {
        let accounts = [
            SidebarOutline.Account(id: 1, feeds: [(20, 30), (21, nil), (22, 31)], folders: [(30, nil), (31, nil)]),
            SidebarOutline.Account(id: 2, feeds: [(40, 50)], folders: [(50, nil)]),
            SidebarOutline.Account(id: 3, feeds: [], folders: []),
        ]
        let outline = SidebarOutline(feeds: [(1, nil), (2, 10)], folders: [(10, nil)], accounts: accounts)
        XCTAssertEqual(outline.top, [.all, .starred, .feed(1), .folder(10), .account(1), .account(2), .account(3)])
        XCTAssertEqual(outline.children[.account(1)], [.feed(21), .folder(30), .folder(31)], "its feeds outside categories, then its categories")
        XCTAssertEqual(outline.children[.folder(30)], [.feed(20)])
        XCTAssertEqual(outline.children[.folder(31)], [.feed(22)])
        XCTAssertEqual(outline.children[.account(2)], [.folder(50)])
        XCTAssertEqual(outline.children[.account(3)], [], "an account without feeds can still be opened")
        XCTAssertTrue(outline.isExpandable(.account(3)))
        XCTAssertFalse(outline.isExpandable(.feed(20)))
        XCTAssertEqual(outline.ancestors(of: .feed(20)), [.folder(30), .account(1)])
        XCTAssertEqual(outline.account(of: .feed(20)), 1)
        XCTAssertEqual(outline.account(of: .folder(50)), 2)
        XCTAssertEqual(outline.account(of: .account(3)), 3)
        XCTAssertNil(outline.account(of: .feed(2)), "a local feed")
        XCTAssertNil(outline.account(of: .folder(10)))
    }

    func testTheSpliceKeepsTheRowsSharedAtBothEnds() {
        let rows: [FeedSelection] = [.all, .starred, .feed(1), .folder(10), .folder(13)]
        let cases: [(name: String, old: [FeedSelection], new: [FeedSelection], splice: SidebarOutline.Splice?)] = [
            ("the same rows", rows, rows, nil),
            ("the first rows shown", [], rows, .init(position: 0, removed: 0, added: rows.count)),
            ("the first feed removed", rows, [.all, .starred, .folder(10), .folder(13)], .init(position: 2, removed: 1, added: 0)),
            ("a feed added at the end", rows, rows + [.account(1)], .init(position: 5, removed: 0, added: 1)),
            ("two folders swapped: the rows between change", rows, [.all, .starred, .feed(1), .folder(13), .folder(10)],
             .init(position: 3, removed: 2, added: 2)),
            ("everything removed", rows, [], .init(position: 0, removed: rows.count, added: 0)),
        ]
        for test in cases {
            let splice = SidebarOutline.splice(from: test.old, to: test.new)
            XCTAssertEqual(splice, test.splice, test.name)
            if let splice {
                var spliced = test.old
                spliced.replaceSubrange(splice.position..<splice.position + splice.removed,
                                        with: test.new[splice.position..<splice.position + splice.added])
                XCTAssertEqual(spliced, test.new, "\(test.name): the splice gives the new rows")
            }
        }
    }
}
