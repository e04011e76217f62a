import XCTest
@testable import FeedReader

/// The sidebar's rows as a flattened tree, and the one splice that turns one list of rows into
/// another: no display needed.
final class SidebarOutlineTests: XCTestCase {
    private typealias Feed = (id: Int64, folderID: Int64?)
    private typealias Folder = (id: Int64, parentID: Int64?)

    /// Tech (10) holds feed 2 and Linux (11), which holds feed 3 and Kernel (12), which holds
    /// feed 4; World (13) holds feed 5; feed 1 is in no folder.
    private static let feeds: [Feed] = [(1, nil), (2, 10), (3, 11), (4, 12), (5, 13)]
    private static let folders: [Folder] = [(10, nil), (11, 10), (12, 11), (13, nil)]

    private static func row(_ item: FeedSelection, _ depth: Int) -> SidebarRow { SidebarRow(item: item, depth: depth) }

    func testRowsAreTheTreeFlattenedWithCollapsedFoldersHidingAllBelowThem() {
        let top = [Self.row(.all, 0), Self.row(.starred, 0)]
        let cases: [(name: String, feeds: [Feed], folders: [Folder], collapsed: Set<Int64>, rows: [SidebarRow])] = [
            ("no feeds", [], [], [], top),
            ("feeds only, in their order", [(2, nil), (1, nil)], [], [], top + [Self.row(.feed(2), 0), Self.row(.feed(1), 0)]),
            ("three levels open", Self.feeds, Self.folders, [],
             top + [Self.row(.feed(1), 0), Self.row(.folder(10), 0), Self.row(.feed(2), 1), Self.row(.folder(11), 1), Self.row(.feed(3), 2),
                    Self.row(.folder(12), 2), Self.row(.feed(4), 3), Self.row(.folder(13), 0), Self.row(.feed(5), 1)]),
            ("Linux closed hides Kernel and its feed too", Self.feeds, Self.folders, [11],
             top + [Self.row(.feed(1), 0), Self.row(.folder(10), 0), Self.row(.feed(2), 1), Self.row(.folder(11), 1),
                    Self.row(.folder(13), 0), Self.row(.feed(5), 1)]),
            ("Tech closed, and a closed folder no longer listed", Self.feeds, Self.folders, [10, 99],
             top + [Self.row(.feed(1), 0), Self.row(.folder(10), 0), Self.row(.folder(13), 0), Self.row(.feed(5), 1)]),
            ("an empty folder", [], [(7, nil)], [], top + [Self.row(.folder(7), 0)]),
            ("a feed and a folder in a folder not listed show at the top", [(1, 42)], [(7, 42)], [],
             top + [Self.row(.feed(1), 0), Self.row(.folder(7), 0)]),
            ("a folder inside itself shows once", [], [(7, nil), (8, 7), (7, 8)], [], top + [Self.row(.folder(7), 0), Self.row(.folder(8), 1)]),
        ]
        for test in cases {
            XCTAssertEqual(SidebarOutline.rows(feeds: test.feeds, folders: test.folders, collapsed: test.collapsed), test.rows, test.name)
        }
    }

    func testTheSpliceKeepsTheRowsSharedAtBothEnds() {
        let rows = SidebarOutline.rows(feeds: Self.feeds, folders: Self.folders, collapsed: [])
        let linuxClosed = SidebarOutline.rows(feeds: Self.feeds, folders: Self.folders, collapsed: [11])
        let withoutFeed1 = SidebarOutline.rows(feeds: Array(Self.feeds.dropFirst()), folders: Self.folders, collapsed: [])
        let kernelInWorld = SidebarOutline.rows(feeds: Self.feeds, folders: [(10, nil), (11, 10), (13, nil), (12, 13)], collapsed: [])
        let cases: [(name: String, old: [SidebarRow], new: [SidebarRow], splice: SidebarOutline.Splice?)] = [
            ("the same rows", rows, rows, nil),
            ("the first rows shown", [], rows, .init(position: 0, removed: 0, added: rows.count)),
            ("Linux closed: Feed 3, Kernel and Feed 4 go", rows, linuxClosed, .init(position: 6, removed: 3, added: 0)),
            ("Linux opened again", linuxClosed, rows, .init(position: 6, removed: 0, added: 3)),
            ("the first feed removed", rows, withoutFeed1, .init(position: 2, removed: 1, added: 0)),
            ("Kernel moved into World: the rows between change", rows, kernelInWorld, .init(position: 7, removed: 4, added: 4)),
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
