import Foundation

/// How much one sync may take, so that a broken or hostile server cannot make it endless: past a
/// limit the sync stops paging, keeps what it stored with the cursor of the last page, and the
/// next sync goes on from there. Each is one comparison per page or per id list page.
public struct SyncLimits: Sendable, Hashable {
    /// The most articles one sync fetches: a heavy reader's first sync of 200,000 articles comes
    /// whole, a server's endless pages stop here.
    public var articles: Int
    /// How long one sync pages articles before it stops, to go on at the next.
    public var pagingTime: Duration
    /// How long a whole sync may take, state lists and changes included; past it the sync fails
    /// as timed out, with every page stored before kept.
    public var syncTime: Duration

    public init(articles: Int, pagingTime: Duration, syncTime: Duration) {
        self.articles = articles
        self.pagingTime = pagingTime
        self.syncTime = syncTime
    }

    /// As many articles as a list of ids may name; the time a first sync of 200,000 articles from
    /// a tt-rss paged feed by feed takes, with room for a slow server.
    public static let standard = SyncLimits(articles: listedIDs, pagingTime: .seconds(900), syncTime: .seconds(1_200))

    /// The most ids one list from a server may hold (unread, starred, new articles). A longer
    /// state list fails the sync, as taking part of it would mark the rest read or unstarred.
    static let listedIDs = 500_000

    /// The error of a list longer than `listedIDs`.
    static var tooManyIDs: SyncError { SyncError(.badResponse, "the server listed more than \(listedIDs) ids") }
}
