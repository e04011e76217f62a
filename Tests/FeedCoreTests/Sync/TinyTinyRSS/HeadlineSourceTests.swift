import Testing
@testable import FeedCore

/// What a first tt-rss sync pages through: categories while they are small, a category's feeds one
/// by one once it holds more than `feedsPagedTogether` (tt-rss sorts a whole category at each of
/// its pages), then the archived articles; and how the cursor keeps them.
@Suite struct HeadlineSourceTests {
    typealias Feed = (id: RemoteID, title: String?, categoryID: RemoteID?)

    /// `count` feeds numbered from `first`, all in `category` (nil: uncategorized).
    static func feeds(_ count: Int, from first: Int, in category: String?) -> [Feed] {
        (first..<first + count).map { (id: String($0), title: nil, categoryID: category) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var categories: [(count: Int, category: String?)]
        var expected: String

        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "small categories are paged whole", categories: [(3, "5"), (3, "7")], expected: "c5,c7,f0"),
        Case(name: "a category at the limit is still paged whole", categories: [(4, "5")], expected: "c5,f0"),
        Case(name: "a category over the limit is paged feed by feed from its lowest, in its place",
             categories: [(2, "5"), (5, "7"), (1, nil)], expected: "c5,c7>3,c0,f0"),
        Case(name: "uncategorized feeds over the limit too", categories: [(5, nil)], expected: "c0>1,f0"),
    ]

    @Test(arguments: cases)
    func sourcesCoverEveryArticle(_ test: Case) {
        var feeds: [Feed] = []
        for (count, category) in test.categories {
            feeds += Self.feeds(count, from: feeds.count + 1, in: category)
        }

        // The tree lists a feed once; the same feed twice must not be paged twice.
        let sources = HeadlineSource.covering(feeds + feeds, feedsPagedTogether: 4)

        #expect(sources.map(\.text).joined(separator: ",") == test.expected)
    }

    @Test func eachCategorysFeedsAreListedLowestFirstOnce() {
        let feeds = [(id: "9", title: String?.none, categoryID: RemoteID?("2")), ("4", nil, "2"), ("9", nil, "2"), ("6", nil, nil)]

        let listed = HeadlineSource.feeds(inCategories: feeds)

        #expect(listed == [2: [4, 9], 0: [6]])
    }

    /// The cursor keeps the sources left, so a sync stopped among a category's feeds goes on there;
    /// a text that is no source starts over.
    @Test(arguments: [
        ("900:200:c2>13,f0", true), ("900:0:c2,c0>7,f0", true),
        ("900:0:f5>3", false), ("900:0:c>3", false), ("900:0:c2>", false), ("900:0:c2>x", false),
    ])
    func cursorsAmongFeedSourcesReadBack(_ text: String, _ isBySource: Bool) {
        let cursor = ArticlesCursor(text)

        if case .bySource = cursor {
            #expect(isBySource)
            #expect(cursor.text == text)
        } else {
            #expect(!isBySource)
        }
    }
}
