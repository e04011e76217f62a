import Foundation
import Synchronization

/// The Google Reader API as a sync service: FreshRSS (BASE/api/greader.php, or its base address),
/// Miniflux, Inoreader, The Old Reader, BazQux.
///
/// Folders are the labels subscriptions are filed under and those `tag/list` marks as folders
/// (`user/-/label/NAME` is a category's id);
/// articles are found by listing item ids oldest first, newer than the last sync's newest, and
/// their contents fetched in batches; ids here are the decimal item ids.
public struct GoogleReaderService: SyncService {
    public static let kind = SyncServiceKind(rawValue: "greader")

    public static let capabilities = SyncCapabilities(canSubscribe: true, canUnsubscribe: true, canMoveFeeds: true,
                                                      articleBatchLimit: 250, articlePageLimit: 250, syncsLabels: true)

    let client: GoogleReaderClient
    private let pending = PendingItems()
    /// The item labels the last `tag/list` named, for `labelledArticles()`.
    private let listedLabels = ListedLabels()

    public init(credentials: SyncCredentials) {
        // The session token is kept where the engine keeps the password, and removed with it.
        let key = SecretKey(kind: Self.kind, server: credentials.server, user: credentials.user, item: .sessionToken)
        client = GoogleReaderClient(endpoint: credentials.server, user: credentials.user, password: credentials.password,
                                    sessionStore: (LibsecretStore(), key))
    }

    public func logIn() async throws(SyncError) {
        try await syncing { () async throws(WebAPIError) in try await client.logIn() }
    }

    public func subscriptions(known: [RemoteID: URL]) async throws(SyncError) -> RemoteSubscriptions {
        let subscriptions = try await syncing { () async throws(WebAPIError) in try await client.subscriptions() }
        // A folder with no subscription in it is only in tag/list; one user part may be spelled
        // two ways (`-` or the user's number), so a folder is known by its name.
        let tags = try await syncing { () async throws(WebAPIError) in try await client.tags() }
        listedLabels.names.withLock { $0 = tags.labels }
        return Self.remoteSubscriptions(subscriptions, folders: tags.folders)
    }

    /// The subscriptions and the folders with none in them as the engine takes them, in one pass
    /// (a search of the folders per folder took minutes for a hundred thousand of them).
    static func remoteSubscriptions(_ subscriptions: [GoogleReaderSubscription], folders emptyToo: [GoogleReaderFolder]) -> RemoteSubscriptions {
        var categories: [RemoteCategory] = []
        var named = Set<String>()
        for folder in subscriptions.flatMap(\.folders) + emptyToo where named.insert(folder.name).inserted {
            categories.append(RemoteCategory(id: folder.id, title: folder.name))
        }
        return RemoteSubscriptions(categories: categories, feeds: subscriptions.compactMap { subscription in
            subscription.url.map { RemoteFeed(id: subscription.id, url: $0, title: subscription.title, link: subscription.siteURL,
                                              categoryID: subscription.folders.first?.id) }
        })
    }

    /// The cursor is the crawl time, in microseconds, of the newest article stored, then the ids
    /// stored of that same second. The first page lists the ids of everything the server fetched
    /// since that second (`ot` takes whole seconds), leaving out those stored, oldest first; each
    /// page then brings the contents of one batch of them. With nothing new, nothing is fetched.
    ///
    /// The next batch is asked for as soon as this one's answer is in, before it is decoded, so
    /// the server works on it while this page is decoded; the engine asks for pages one at a
    /// time, so one request is on its way at a time.
    public func articles(since cursor: SyncCursor?) async throws(SyncError) -> ArticlePage {
        let position = NewestArticles(cursor)
        let kept = await pending.take(after: cursor)
        var all = kept?.ids ?? []
        if kept == nil {
            let since = position.microseconds > 0 ? Date(timeIntervalSince1970: Double(position.microseconds / 1_000_000)) : nil
            all = try await syncing { () async throws(WebAPIError) in
                let listed = try await client.itemIDs(stream: GoogleReaderStream.readingList, newerThan: since, beyondLimit: .isCut).reversed()
                return position.ids.isEmpty ? Array(listed) : listed.filter { !position.ids.contains($0.description) }
            }
        }
        let batch = all.prefix(Self.capabilities.articlePageLimit)
        let rest = Array(all.dropFirst(batch.count))
        var items: [GoogleReaderItem] = []
        var nextAnswer: ItemsAnswer?
        if let answer = kept?.answer ?? (batch.isEmpty ? nil : ask(for: batch)) {
            let body = try await syncing { () async throws(WebAPIError) in try await answer.body() }
            nextAnswer = rest.isEmpty ? nil : ask(for: rest.prefix(Self.capabilities.articlePageLimit))
            // The next request's task runs on this thread until it has handed its transfer to a
            // thread of its own; decoding first kept it waiting for a core, and the server idle.
            await Task.yield()
            do throws(WebAPIError) {
                try GoogleReaderClient.items(in: body, into: &items)
            } catch {
                nextAnswer?.cancel()
                throw error.syncError
            }
        }
        let next = position.advanced(by: items).text
        if let nextAnswer {
            await pending.keep(rest, for: next, answer: nextAnswer)
        }
        return ArticlePage(articles: items.map(Self.article), nextCursor: next, isLast: rest.isEmpty)
    }

    /// Asks for the contents of `batch` now; the answer is awaited when its page is.
    private func ask(for batch: ArraySlice<GoogleReaderItemID>) -> ItemsAnswer {
        ItemsAnswer(Task { [client] () async -> Result<Data, WebAPIError> in
            do throws(WebAPIError) {
                return .success(try await client.itemsAnswer(batch))
            } catch {
                return .failure(error)
            }
        })
    }

    public func unreadArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        try await syncing { () async throws(WebAPIError) in
            Set(try await client.itemIDs(stream: GoogleReaderStream.readingList, excluding: GoogleReaderStream.read).map(\.description))
        }
    }

    public func starredArticleIDs() async throws(SyncError) -> Set<RemoteID> {
        try await syncing { () async throws(WebAPIError) in
            Set(try await client.itemIDs(stream: GoogleReaderStream.starred).map(\.description))
        }
    }

    /// Each label `tag/list` named, its items listed by `stream/items/ids`: one request a label
    /// (FreshRSS answers an unknown label's stream with the whole reading list, so only listed
    /// labels are asked for). Nil when the server's `tag/list` does not tell labels from folders.
    ///
    /// A label deleted on the server after `tag/list` named it would be answered with the whole
    /// reading list, and put on every article here: `tag/list` is read again once the labels'
    /// items are, and a label it no longer names is gone from the server, its items dropped.
    public func labelledArticles() async throws(SyncError) -> RemoteLabels? {
        guard let listed = listedLabels.names.withLock({ $0 }) else { return nil }
        var articles: [String: Set<RemoteID>] = [:]
        let labels = RemoteLabels.cleaned(listed.map { (id: $0, name: $0) })
        for label in labels {
            let ids = try await syncing { () async throws(WebAPIError) in
                try await client.itemIDs(stream: GoogleReaderStream.label(label.id)).map(\.description)
            }
            articles[label.name, default: []].formUnion(ids)
        }
        guard !labels.isEmpty else { return RemoteLabels(articles: articles, coversEveryLabel: true) }
        let stillListed = try await syncing { () async throws(WebAPIError) in try await client.tags().labels } ?? []
        listedLabels.names.withLock { $0 = stillListed }
        let kept = Set(RemoteLabels.cleaned(stillListed.map { (id: $0, name: $0) }).map(\.name))
        return RemoteLabels(articles: articles.filter { kept.contains($0.key) }, coversEveryLabel: true)
    }

    public func send(_ change: SyncChange) async throws(SyncError) {
        try await syncing { () async throws(WebAPIError) in
            switch change {
            case let .setLabel(name, isOn, ids):
                try await client.editTag(Self.itemIDs(ids), adding: isOn ? GoogleReaderStream.label(name) : nil,
                                         removing: isOn ? nil : GoogleReaderStream.label(name))
            case let .setRead(isRead, ids):
                try await client.editTag(Self.itemIDs(ids), adding: isRead ? GoogleReaderStream.read : nil,
                                         removing: isRead ? nil : GoogleReaderStream.read)
            case let .setStarred(isStarred, ids):
                try await client.editTag(Self.itemIDs(ids), adding: isStarred ? GoogleReaderStream.starred : nil,
                                         removing: isStarred ? nil : GoogleReaderStream.starred)
            case let .subscribe(url, category):
                _ = try await client.subscribe(to: url, folder: category.flatMap(GoogleReaderStream.labelName))
            case let .unsubscribe(feedID):
                try await client.unsubscribe(feedID)
            case let .move(feedID, category):
                // A subscription may carry several labels (Inoreader); moving takes off all the others.
                let current = try await client.subscriptions().first { $0.id == feedID }?.folders.map(\.name) ?? []
                let target = category.flatMap(GoogleReaderStream.labelName)
                try await client.move(feedID, to: target, from: current.filter { $0 != target })
            case let .markAllRead(scope, before):
                let stream = switch scope {
                case let .feed(id): id
                case let .category(id): id
                case .account: GoogleReaderStream.readingList
                }
                try await client.markAllAsRead(stream: stream, seenUpTo: before)
            }
        }
    }

    private static func itemIDs(_ ids: [RemoteID]) -> [GoogleReaderItemID] {
        ids.compactMap(GoogleReaderItemID.init)
    }

    private static func article(_ item: GoogleReaderItem) -> RemoteArticle {
        RemoteArticle(id: item.id.description, feedID: item.feedID, title: item.title, link: item.url, author: item.author,
                      published: item.published, updated: nil, content: item.html, isRead: item.isRead, isStarred: item.isStarred)
    }
}

/// Where `articles(since:)` is: the newest crawl time stored, in µs, and the ids stored of its
/// second, which `ot` lists again. Written "µs" or "µs:id,id,…"; a cursor of older versions is the
/// crawl time alone.
private struct NewestArticles {
    var microseconds: Int64
    var ids: Set<String>

    init(_ cursor: SyncCursor?) {
        let parts = (cursor ?? "").split(separator: ":", maxSplits: 1)
        microseconds = parts.first.flatMap { Int64($0) } ?? 0
        ids = parts.count == 2 ? Set(parts[1].split(separator: ",").map(String.init)) : []
    }

    private init(microseconds: Int64, ids: Set<String>) {
        self.microseconds = microseconds
        self.ids = ids
    }

    /// With `items` stored too.
    func advanced(by items: [GoogleReaderItem]) -> NewestArticles {
        var next = self
        for item in items {
            guard let crawled = item.crawled.map({ Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) }) else { continue }
            if crawled / 1_000_000 > next.microseconds / 1_000_000 { next.ids = [] }
            if crawled / 1_000_000 >= next.microseconds / 1_000_000 { next.ids.insert(item.id.description) }
            next.microseconds = max(next.microseconds, crawled)
        }
        return next
    }

    var text: String { ids.isEmpty ? String(microseconds) : "\(microseconds):" + ids.sorted().joined(separator: ",") }
}

/// The item labels of the last `tag/list`, nil when it did not tell labels from folders.
private final class ListedLabels: Sendable {
    let names = Mutex<[String]?>(nil)
}

/// The answer to one `stream/items/contents` request, asked for before it is awaited.
private struct ItemsAnswer: Sendable {
    let task: Task<Result<Data, WebAPIError>, Never>

    init(_ task: Task<Result<Data, WebAPIError>, Never>) {
        self.task = task
    }

    /// The answer's body; leaving the wait cancels the request.
    func body() async throws(WebAPIError) -> Data {
        try await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }.get()
    }

    func cancel() {
        task.cancel()
    }
}

/// The ids listed for a sync that later pages fetch, kept under the cursor the last page returned,
/// with the answer for the first batch of them, already asked for.
private actor PendingItems {
    struct Kept {
        var ids: [GoogleReaderItemID]
        var answer: ItemsAnswer
    }

    private var cursor: SyncCursor?
    private var kept: Kept?

    func keep(_ ids: [GoogleReaderItemID], for cursor: SyncCursor, answer: ItemsAnswer) {
        kept?.answer.cancel()
        self.cursor = cursor
        kept = Kept(ids: ids, answer: answer)
    }

    /// What was kept for `cursor`, once; nil when nothing was, so the ids are listed anew. What
    /// was kept for another cursor is dropped, its request cancelled.
    func take(after cursor: SyncCursor?) -> Kept? {
        defer {
            self.cursor = nil
            kept = nil
        }
        guard let cursor, cursor == self.cursor else {
            kept?.answer.cancel()
            return nil
        }
        return kept
    }
}
