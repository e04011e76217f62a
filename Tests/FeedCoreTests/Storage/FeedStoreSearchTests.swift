import Foundation
import Testing
@testable import FeedCore

@Suite("Searching stored entries")
struct FeedStoreSearchTests {
    let store: FeedStore

    init() throws {
        store = try FeedStore.inMemory()
    }

    private func add(_ entries: [Entry], to address: String = "https://a.example/feed") async throws -> Int64 {
        let feed = try await store.addFeed(url: URL(string: address)!)
        try await store.apply(fetched(entries), toFeed: feed.id)
        return feed.id
    }

    @Test func findsTitleAuthorAndTextRankedWithTitlesFirst() async throws {
        try await add([
            Entry(id: "body", title: "Weekly notes", published: utc("2024-01-03T00:00:00Z"),
                  content: "<p>We planted <b>tomatoes</b> today.</p>"),
            Entry(id: "title", title: "Tomatoes in November", published: utc("2024-01-01T00:00:00Z"), summary: "Late harvest"),
            Entry(id: "author", title: "Soup", author: "Tomás Tomatoes", published: utc("2024-01-02T00:00:00Z")),
            Entry(id: "other", title: "Beans", summary: "Nothing red here"),
        ])

        let found = try await store.search("tomatoes").map(\.entryID)

        #expect(found == ["title", "author", "body"])
    }

    /// A word nearly every entry holds ranks only the newest matches, so a keystroke never
    /// scores the whole store.
    @Test func onlyTheNewestCandidatesAreRanked() async throws {
        try await add([Entry(id: "old", title: "Tomatoes tomatoes tomatoes")])
        try await add((1...3).map { Entry(id: "new\($0)", title: "Garden notes", summary: "tomatoes") }, to: "https://b.example/feed")

        #expect(Set(try await store.search("tomatoes", limit: 3, candidates: 3).map(\.entryID)) == ["new1", "new2", "new3"])
        #expect(try await store.search("tomatoes", limit: 3, candidates: 4).first?.entryID == "old", "within the window the title ranks first")
    }

    /// Within a column, more of the words and a shorter entry rank first; each pair's better
    /// match is the older entry, so newest-first would put it second.
    @Test(arguments: [
        (better: "Tomatoes tomatoes notes", worse: "Tomatoes other notes", text: "tomatoes"),
        (better: "Tomatoes", worse: "Tomatoes and many other words about a garden", text: "tomatoes"),
        (better: "Green tomatoes", worse: "Green beans and tomatoes", text: "green tom"),
    ])
    func moreOfTheWordsAndShorterEntriesRankFirst(better: String, worse: String, text: String) async throws {
        try await add([Entry(id: "better", title: better)])
        try await add([Entry(id: "worse", title: worse)], to: "https://b.example/feed")

        #expect(try await store.search(text).map(\.entryID) == ["better", "worse"])
    }

    @Test func aListingLeavesTheArticleOut() async throws {
        let summary = Array(repeating: "tomatoes", count: 100).joined(separator: " ")
        try await add([Entry(id: "1", title: "Tomatoes", summary: summary, content: "<p>Tomatoes</p>")])

        let listed = try #require(try await store.search("tomatoes", fields: .listing).first)
        let whole = try #require(try await store.search("tomatoes").first)

        #expect(listed.content == nil && listed.summary?.count == EntryFields.listingSummaryLength)
        #expect(whole.content == "<p>Tomatoes</p>" && whole.summary == summary)
    }

    @Test func everyWordMustMatchAndTheLastOneAsAPrefix() async throws {
        try await add([
            Entry(id: "1", title: "Swift on Linux", summary: "Building with SwiftPM"),
            Entry(id: "2", title: "Swift on Windows"),
            Entry(id: "3", title: "Linux kernels"),
        ])

        #expect(try await store.search("swift lin").map(\.entryID) == ["1"])
        #expect(try await store.search("Swi").count == 2)
        #expect(try await store.search("linux swift").map(\.entryID) == ["1"])
    }

    @Test func matchesIgnoreCaseAndAccentsButNotTagNames() async throws {
        try await add([Entry(id: "1", title: "Café notes", content: "<a href=\"https://x.example/\">link</a> <strong>bold</strong>")])

        #expect(try await store.search("CAFE").count == 1)
        #expect(try await store.search("bold").count == 1)
        #expect(try await store.search("href").isEmpty, "markup is not text")
        #expect(try await store.search("strong").isEmpty)
    }

    @Test(arguments: ["\"", "title:", "a OR", "NEAR(", "*", "-x", "'; DROP TABLE entries; --", "", "   ", "AND"])
    func searchSyntaxInTheTextIsJustText(text: String) async throws {
        try await add([Entry(id: "1", title: "An entry about AND and OR")])
        _ = try await store.search(text)
        #expect(try await store.entryCount() == 1)
    }

    @Test func theIndexFollowsUpdatesAndRemovals() async throws {
        let feedID = try await add([Entry(id: "1", title: "Old words")])
        try await store.apply(fetched([Entry(id: "1", title: "Fresh words")]), toFeed: feedID)

        #expect(try await store.search("old").isEmpty)
        #expect(try await store.search("fresh").count == 1)

        try await store.removeFeed(id: feedID)
        #expect(try await store.search("fresh").isEmpty)
    }

    @Test func searchesEveryFeedAndPages() async throws {
        try await add((0..<30).map { Entry(id: "a\($0)", title: "Garden \($0)") })
        try await add((0..<30).map { Entry(id: "b\($0)", title: "Garden b\($0)") }, to: "https://b.example/feed")

        let first = try await store.search("garden", limit: 50)
        let rest = try await store.search("garden", limit: 50, offset: 50)

        #expect(first.count == 50)
        #expect(rest.count == 10)
        #expect(Set((first + rest).map(\.id)).count == 60)
    }

    @Test func termsAreWordsOnly() {
        #expect(FeedStore.searchTerms(in: "  \"swift\" OR-lin*  ") == ["swift", "OR", "lin"])
        #expect(SearchQuery("a b").matchExpression == "(\"a\" AND \"b\" *)")
        #expect(SearchQuery("title:\"a b\" -c* author:d").matchExpression == "(title : \"a b\" AND author : \"d\" *) NOT \"c\" *")
        #expect(SearchQuery("::").matchExpression == nil)
    }

    /// A prefix longer than the index's prefix indexes is matched as the words it begins, each
    /// read lazily, newest first: the expression a search runs.
    static let expansions: [(query: String, expansions: [String: [String]], match: String?)] = [
        (query: "ref", expansions: ["ref": ["refresh", "refreshing"]], match: "((\"refresh\" OR \"refreshing\"))"),
        (query: "title:Ref", expansions: ["Ref": ["refresh"]], match: "(title : \"refresh\")"),
        (query: "\"green tom", expansions: ["tom": ["tomato", "tomatoes"]], match: "((\"green tomato\" OR \"green tomatoes\"))"),
        (query: "tomatoes -bas*", expansions: ["bas": ["basil"]], match: "(\"tomatoes\") NOT \"basil\""),
        (query: "tomatoes -bas*", expansions: ["bas": []], match: "(\"tomatoes\")"),
        (query: "zzz", expansions: ["zzz": []], match: nil),
        (query: "ref", expansions: [:], match: "(\"ref\" *)"),
    ]

    @Test(arguments: expansions)
    func prefixesAreMatchedAsTheWordsTheyBegin(query: String, expansions: [String: [String]], match: String?) {
        #expect(SearchQuery(query).matchExpression(expanding: expansions) == match)
    }

    /// The words a prefix begins come from the index, folded as it folds them; a prefix of
    /// other letters, or one beginning more words than are looked up, is matched as a prefix.
    @Test func theWordsAPrefixBeginsComeFromTheIndex() async throws {
        let many = (1...FeedStore.prefixExpansionLimit + 1).map { "Tomato\($0)" }.joined(separator: " ")
        try await add([
            Entry(id: "1", title: "Refresh, refreshing, REFRESHED", summary: "Réfléchir refrain"),
            Entry(id: "2", title: many),
        ])
        let expansions = try await store.reading { db in
            try FeedStore.prefixExpansions(of: SearchQuery("re* ref* refre* tomato* réf* Refr"), in: db)
        }

        #expect(expansions == ["re": ["reflechir", "refrain", "refresh", "refreshed", "refreshing"],
                               "ref": ["reflechir", "refrain", "refresh", "refreshed", "refreshing"],
                               "refre": ["refresh", "refreshed", "refreshing"], "Refr": ["refrain", "refresh", "refreshed", "refreshing"]])
        #expect(try await store.search("tomato").map(\.entryID) == ["2"], "beyond the words looked up, a prefix")
        #expect(try await store.search("réf").map(\.entryID) == ["1"])
        #expect(try await store.search("refres").map(\.entryID) == ["1"])
        #expect(try await store.search("refz").isEmpty)
    }

    /// The index keeps no index of prefixes (`v31-search-words-only`): one or two letters being
    /// typed match that word alone, where FTS5 would read most of the index first; typed with `*`
    /// they are a prefix, and from the third letter the word being typed is one.
    @Test func oneOrTwoLettersBeingTypedAreThatWord() async throws {
        let many = (1...FeedStore.prefixExpansionLimit + 1).map { "To\($0)" }.joined(separator: " ")
        let feedID = try await add([
            Entry(id: "many", title: many),
            Entry(id: "word", title: "To be or not"),
            Entry(id: "longer", title: "Toast", summary: "With butter"),
        ])

        #expect(try await store.search("to").map(\.entryID) == ["word"])
        #expect(try await store.search("TÓ").map(\.entryID) == ["word"], "folded as the index folds it")
        #expect(try await store.search("butter t").isEmpty, "no word t")
        #expect(try await store.search("to*").map(\.entryID).sorted() == ["longer", "many", "word"])
        #expect(try await store.search("toa").map(\.entryID) == ["longer"])
        #expect(try await store.search("b").isEmpty, "no word b")
        #expect(try await store.search("b*").map(\.entryID).sorted() == ["longer", "word"], "be, butter")
        var listed = EntryQuery(feedID: feedID)
        listed.search = "to"
        #expect(try await store.entries(listed).map(\.entryID) == ["word"], "a list's search")
    }

    /// Each part of the syntax docs/feed-reader.md describes, against the same entries.
    static let syntax: [(query: String, found: [String])] = [
        (query: "tomatoes", found: ["red", "green", "soup", "notes"]),
        (query: "tomatoes basil", found: ["soup"]),
        (query: "tom", found: ["red", "green", "soup", "notes"]),
        (query: "tom basil", found: []),
        (query: "tom* basil", found: ["soup"]),
        (query: "\"green tomatoes\"", found: ["green"]),
        (query: "\"tomatoes green\"", found: []),
        (query: "tomatoes -green", found: ["red", "soup", "notes"]),
        (query: "tomatoes -\"red tomatoes\"", found: ["green", "soup", "notes"]),
        (query: "title:tomatoes", found: ["red", "green", "soup"]),
        (query: "title:\"tomato soup\"", found: ["soup"]),
        (query: "author:ana", found: ["notes"]),
        (query: "author:tomatoes", found: []),
        (query: "tomatoes feed:kitchen", found: ["soup"]),
        (query: "tomatoes feed:\"KITCHEN notes\"", found: ["soup"]),
        (query: "tomatoes feed:nowhere", found: []),
        (query: "-tomatoes", found: []),
        // Not the syntax: read as the words typed.
        (query: "\"green tomat", found: ["green"]),
        (query: "green:tomatoes", found: ["green"]),
        (query: "title: tomatoes", found: ["red", "green", "soup", "notes"]),
        (query: "title:tom", found: ["red", "green", "soup"]),
        (query: "tomatoes AND OR NOT ( ) ^ NEAR", found: []),
        (query: "-", found: []),
    ]

    @Test(arguments: syntax)
    func theQuerySyntax(query: String, found: [String]) async throws {
        try await add([
            Entry(id: "red", title: "Red tomatoes", summary: "Ripe"),
            Entry(id: "green", title: "Green tomatoes", summary: "Fried"),
            Entry(id: "notes", title: "Garden notes", author: "Ana Gardener", summary: "We planted tomatoes"),
        ], to: "https://garden.example/feed")
        let kitchen = try await store.addFeed(url: URL(string: "https://kitchen.example/feed")!)
        try await store.apply(fetched([Entry(id: "soup", title: "Tomato soup with tomatoes", summary: "Basil on top")], title: "Kitchen Notes"),
                              toFeed: kitchen.id)

        #expect(Set(try await store.search(query).map(\.entryID)) == Set(found), "\(query)")
    }
}
