import Foundation
import GRDB

/// Each feed's icon, fetched once and kept on disk in `directory` under a name made from the feed's
/// address (so stores sharing the folder never mix icons up), with the validators to ask the server
/// cheaply whether it changed.
///
/// The icon is the feed's own image or icon, else the one its web page names in `<link rel="icon">`,
/// else the site's `/favicon.ico`. A feed read from a file (the bundled samples) has only the icon
/// it names, usually a file beside it: the site its links name is not where it came from, and no
/// server is asked. A found icon is asked for again after `recheckAfter`; a feed without one is
/// searched again after `retryAfter`.
public final class FeedIcons: Sendable {
    /// Where the image files are.
    public let directory: URL
    private let store: FeedStore
    private let now: @Sendable () -> Date
    private let userAgent: String
    /// How long a found icon is used before the server is asked whether it changed.
    public static let recheckAfter: TimeInterval = 7 * 86400
    /// How long a feed without an icon waits before it is searched again.
    public static let retryAfter: TimeInterval = 86400
    /// The largest icon file accepted.
    public static let maxIconSize = 512 * 1024
    private static let timeout: Duration = .seconds(15)

    /// Icons for `store`'s feeds, kept in `directory`.
    public init(directory: URL, store: FeedStore, userAgent: String = FeedFetcher.Configuration().userAgent,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.directory = directory
        self.store = store
        self.userAgent = userAgent
        self.now = now
    }

    /// The folder the app keeps icons in: `$XDG_CACHE_HOME/<appDirectory>/icons`, else `~/.cache/...`.
    public static func cacheDirectory(appDirectory: String = "feed-reader",
                                      environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let cacheHome: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cacheHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            cacheHome = home.appendingPathComponent(".cache", isDirectory: true)
        }
        return cacheHome.appendingPathComponent(appDirectory, isDirectory: true).appendingPathComponent("icons", isDirectory: true)
    }

    /// The icon file of `feed`, when one was found.
    public func file(for feed: StoredFeed) -> URL? {
        let file = path(for: feed)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    /// Where `feed`'s icon is kept.
    func path(for feed: StoredFeed) -> URL {
        Self.path(forFeedAt: feed.url, in: directory)
    }

    /// The icon file of the feed at `url` in `directory`, when one was found: for a reader of
    /// the cache that has no store open.
    public static func file(forFeedAt url: URL, in directory: URL) -> URL? {
        let file = path(forFeedAt: url, in: directory)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    /// Where the icon of the feed at `url` is kept: a 64-bit FNV-1a hash of its address, in hex.
    private static func path(forFeedAt url: URL, in directory: URL) -> URL {
        let hash = url.absoluteString.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return directory.appendingPathComponent(String(hash, radix: 16) + ".icon")
    }

    /// How many feeds' icons are looked for at once.
    static let parallelFeeds = 4

    /// Fetches the icons that are missing or due for a check, a few feeds at a time; returns the
    /// feeds whose icon file changed, in the order of `feeds`.
    public func update(_ feeds: [StoredFeed]) async -> [Int64] {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var due: [(StoredFeed, IconRecord?)] = []
        for feed in feeds {
            let record = try? await store.iconRecord(feedID: feed.id)
            if let record, now().timeIntervalSince(record.checkedAt) < (record.url == nil ? Self.retryAfter : Self.recheckAfter) {
                continue
            }
            due.append((feed, record))
        }
        let changed = await withTaskGroup(of: Int64?.self) { group in
            var next = 0
            func startNext() {
                guard next < due.count else { return }
                let (feed, record) = due[next]
                next += 1
                group.addTask { await self.update(feed, record: record) ? feed.id : nil }
            }
            for _ in 0..<Self.parallelFeeds { startNext() }
            var changed = Set<Int64>()
            for await id in group {
                if let id { changed.insert(id) }
                startNext()
            }
            return changed
        }
        return feeds.map(\.id).filter(changed.contains)
    }

    /// Asks for one feed's icon; true when its file changed.
    private func update(_ feed: StoredFeed, record: IconRecord?) async -> Bool {
        if let record, let url = record.url, file(for: feed) != nil {
            switch await download(url, validators: record.validators) {
            case .notModified, .failed, .page:
                try? await store.setIconRecord(IconRecord(url: url, validators: record.validators, checkedAt: now()), feedID: feed.id)
                return false
            case let .image(data, validators):
                return await save(data, url: url, validators: validators, feed: feed)
            }
        }
        var tried = Set<URL>()
        // Each source is looked at only when the ones before it hold no image: a feed naming its
        // icon costs one request, not also its site's page.
        for source in Self.sources(for: feed) {
            for candidate in await candidates(from: source, for: feed) where tried.insert(candidate).inserted {
                if case let .image(data, validators) = await download(candidate, validators: CacheValidators()) {
                    return await save(data, url: candidate, validators: validators, feed: feed)
                }
            }
        }
        try? await store.setIconRecord(IconRecord(url: nil, validators: CacheValidators(), checkedAt: now()), feedID: feed.id)
        return false
    }

    private func save(_ data: Data, url: URL, validators: CacheValidators, feed: StoredFeed) async -> Bool {
        guard (try? data.write(to: path(for: feed), options: .atomic)) != nil else { return false }
        try? await store.setIconRecord(IconRecord(url: url, validators: validators, checkedAt: now()), feedID: feed.id)
        return true
    }

    /// Where an icon may be, in the order tried.
    enum IconSource: CaseIterable {
        /// The feed's own image or icon.
        case feed
        /// The `<link rel="icon">`s of the feed's site's page.
        case sitePage
        /// `/favicon.ico` at the site (or, without one, the feed's host).
        case favicon
    }

    /// The places `feed`'s icon is looked for, in order: a feed read from a file has only its own,
    /// as the site its links name is not where it came from.
    static func sources(for feed: StoredFeed) -> [IconSource] {
        feed.url.isFileURL ? [.feed] : IconSource.allCases
    }

    private func candidates(from source: IconSource, for feed: StoredFeed) async -> [URL] {
        let site = feed.link.flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") ? $0 : nil }
        switch source {
        case .feed:
            // A file is read only for a feed that is itself a file: a feed from the web naming
            // file:///etc/shadow as its icon must not make the reader read local files.
            return feed.iconURL.flatMap { !$0.isFileURL || feed.url.isFileURL ? [$0] : nil } ?? []
        case .sitePage:
            guard let site, case let .page(html, pageURL) = await download(site, validators: CacheValidators(), acceptsPage: true) else {
                return []
            }
            return IconLinks.find(inPage: html, url: pageURL)
        case .favicon:
            guard let root = site ?? (["http", "https"].contains(feed.url.scheme?.lowercased() ?? "") ? feed.url : nil),
                  let favicon = URL(string: "/favicon.ico", relativeTo: root)?.absoluteURL else { return [] }
            return [favicon]
        }
    }

    private enum Download {
        case image(Data, CacheValidators)
        case page(Data, URL)
        case notModified
        case failed
    }

    /// GETs `url`, following up to five redirects; an answer counts as an image only when its bytes are one.
    /// A file is read instead, its modification time standing for Last-Modified.
    private func download(_ url: URL, validators: CacheValidators, acceptsPage: Bool = false) async -> Download {
        if url.isFileURL { return Self.read(url, validators: validators) }
        var url = url
        for _ in 0..<6 {
            var headers: [(String, String)] = []
            if let etag = validators.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = validators.lastModified { headers.append(("If-Modified-Since", lastModified)) }
            let limit = acceptsPage ? IconLinks.scannedBytes * 4 : Self.maxIconSize
            guard case let .success(hop) = await HTTPTransfer(url: url, headers: headers, userAgent: userAgent, limit: limit,
                                                               timeout: Self.timeout).perform() else { return .failed }
            switch hop.status {
            case 301, 302, 303, 307, 308:
                guard let location = hop.headers["location"], let next = URL(string: location, relativeTo: url)?.absoluteURL,
                      ["http", "https"].contains(next.scheme?.lowercased() ?? "") else { return .failed }
                url = next
            case 304:
                return .notModified
            case 200..<300:
                if acceptsPage { return .page(hop.body, url) }
                // A small file can declare a picture that takes gigabytes to decode: such an
                // icon is refused here, before it is saved for the sidebar to decode.
                guard IconImage.isDecodable(hop.body) else { return .failed }
                return .image(hop.body, CacheValidators(etag: hop.headers["etag"], lastModified: hop.headers["last-modified"]))
            default:
                return .failed
            }
        }
        return .failed
    }
}

extension FeedIcons {
    /// An icon file on this computer, unless it is unchanged since `validators` were taken.
    private static func read(_ file: URL, validators: CacheValidators) -> Download {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let size = attributes[.size] as? Int, size <= maxIconSize,
              let modified = attributes[.modificationDate] as? Date else { return .failed }
        let stamp = String(modified.timeIntervalSince1970)
        if validators.lastModified == stamp { return .notModified }
        guard let data = try? Data(contentsOf: file), IconImage.isDecodable(data) else { return .failed }
        return .image(data, CacheValidators(lastModified: stamp))
    }
}

/// What the store keeps about a feed's icon.
struct IconRecord: Sendable, Hashable {
    /// Where the icon was found; nil when none was.
    var url: URL?
    var validators: CacheValidators
    /// When the icon was last fetched, checked or searched for.
    var checkedAt: Date
}

extension FeedStore {
    func iconRecord(feedID: Int64) async throws -> IconRecord? {
        try await reading { db in
            try Row.fetchOne(db, sql: "SELECT url, etag, lastModified, checkedAt FROM feedIcons WHERE feedId = ?", arguments: [feedID])
                .map { IconRecord(url: $0["url"], validators: CacheValidators(etag: $0["etag"], lastModified: $0["lastModified"]),
                                  checkedAt: $0["checkedAt"]) }
        }
    }

    func setIconRecord(_ record: IconRecord, feedID: Int64) async throws {
        try await writing { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO feedIcons (feedId, url, etag, lastModified, checkedAt)
                SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM feeds WHERE id = ?)
                """, arguments: [feedID, record.url, record.validators.etag, record.validators.lastModified, record.checkedAt, feedID])
        }
    }
}
