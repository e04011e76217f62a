import Foundation

extension FeedLibrary {
    /// What importing a subscription list did.
    public struct ImportReport: Sendable, Equatable {
        /// Subscriptions added to the list.
        public var added = 0
        /// Subscriptions left out because they were in the list already or twice in the file.
        public var duplicates = 0
        /// New feeds whose first fetch failed; they stay subscribed and show their error.
        public var failedFetches = 0
    }

    /// Reads an OPML file and subscribes to every feed in it not in the list yet, with its
    /// folder, in one transaction: a broken file adds nothing. The new feeds are then fetched,
    /// at most `fetcher.configuration.maxFetchesOfAnyHost` at a time; `progress` hears how many
    /// of them are done after each.
    ///
    /// - Throws: `OPMLDocument.ReadError` for a file that is not OPML, or the store's error.
    public func importSubscriptions(from data: Data, progress: @escaping @Sendable (_ done: Int, _ total: Int) async -> Void = { _, _ in })
        async throws -> ImportReport {
        let document = try OPMLDocument(data: data)
        var seen = Set<URL>()
        let unique = document.subscriptions.filter { seen.insert($0.url).inserted }
        let result = try await store.addSubscriptions(unique)
        var report = ImportReport(added: result.added.count, duplicates: document.subscriptions.count - unique.count + result.duplicates)
        report.failedFetches = await fetchNew(result.added, progress: progress)
        await store.saveSubscriptionsCopy()
        return report
    }

    /// Reads the OPML file at `file` off the calling thread, then imports it as `importSubscriptions(from:)` does.
    ///
    /// - Throws: `SubscriptionFile.Failure` for a file that cannot be read or is far too large,
    ///   `OPMLDocument.ReadError` for one that is not OPML, or the store's error.
    public func importSubscriptions(fromFile file: LocalFile, progress: @escaping @Sendable (_ done: Int, _ total: Int) async -> Void = { _, _ in })
        async throws -> ImportReport {
        let data = try await Task.detached(priority: .userInitiated) { () throws -> Data in
            try SubscriptionFile.read(file)
        }.value
        return try await importSubscriptions(from: data, progress: progress)
    }

    /// Fetches and stores `feeds` with bounded parallelism; returns how many failed.
    private func fetchNew(_ feeds: [StoredFeed], progress: @escaping @Sendable (Int, Int) async -> Void) async -> Int {
        await progress(0, feeds.count)
        return await withTaskGroup(of: Bool.self) { group in
            var next = 0
            func startNext() {
                guard next < feeds.count else { return }
                let feed = feeds[next]
                next += 1
                group.addTask { [fetcher, store] in
                    let result = await fetcher.fetch(feed.request)
                    let saved = (try? await store.apply(result, toFeed: feed.id)) != nil
                    return saved && result.error == nil
                }
            }
            for _ in 0..<fetcher.configuration.maxFetchesOfAnyHost { startNext() }
            var done = 0, failed = 0
            for await succeeded in group {
                done += 1
                if !succeeded { failed += 1 }
                await progress(done, feeds.count)
                startNext()
            }
            return failed
        }
    }

    /// The subscriptions as an OPML 2.0 file, with their folders.
    public func exportSubscriptions() async throws -> Data {
        try await store.subscriptionsDocument().data()
    }

    /// Writes the subscriptions to the file at `file` off the calling thread (a pipe may make
    /// the write wait for its reader), as `SubscriptionFile.write(_:to:)` does; returns how many.
    ///
    /// - Throws: the store's error, or `SubscriptionFile.Failure`.
    @discardableResult
    public func exportSubscriptions(to file: LocalFile) async throws -> Int {
        let document = try await store.subscriptionsDocument()
        let data = document.data()
        try await Task.detached(priority: .userInitiated) { () throws -> Void in
            try SubscriptionFile.write(data, to: file)
        }.value
        return document.subscriptions.count
    }
}
