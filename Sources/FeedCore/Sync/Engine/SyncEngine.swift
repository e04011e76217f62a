import Foundation
import Synchronization

/// Syncs accounts with their servers for every service: owns the queue of changes made here,
/// the merge rules and storage; a `SyncService` only speaks its server's API.
///
/// A sync sends the queue first, in batches, then pulls the categories and feeds, the new
/// articles page by page and the read and starred state. Each step is stored in its own
/// transaction, so a server failing mid-sync leaves nothing half-stored and the next sync picks
/// up where it stopped; a change queued meanwhile is never overwritten by the older server state.
public final class SyncEngine: Sendable {
    public let store: FeedStore
    public let secrets: any SecretStore
    /// How much one sync may take from a server.
    public let limits: SyncLimits
    private let serviceTypes: [SyncServiceKind: any SyncService.Type]
    /// Each account's service, kept so its session lasts from one sync to the next.
    private let services = Mutex<[Int64: any SyncService]>([:])
    /// The sync running for each account: a second request waits for it rather than running beside it.
    private let running = Mutex<[Int64: Task<SyncReport, any Error>]>([:])

    /// The services this reader can add accounts of.
    public static let knownServices: [any SyncService.Type] = [TinyTinyRSSService.self, GoogleReaderService.self, FeverService.self]

    public init(store: FeedStore, secrets: any SecretStore = LibsecretStore(), services: [any SyncService.Type] = SyncEngine.knownServices,
                limits: SyncLimits = .standard) {
        self.store = store
        self.secrets = secrets
        self.limits = limits
        serviceTypes = Dictionary(services.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `kind` names a service this engine can add accounts of.
    public func knows(_ kind: SyncServiceKind) -> Bool { serviceTypes[kind] != nil }

    /// What accounts of `kind` can do, or nil for an unknown kind.
    public func capabilities(of kind: SyncServiceKind) -> SyncCapabilities? { serviceTypes[kind]?.capabilities }

    /// Logs in once to check the address and credentials, keeps the password in the secret
    /// store, then adds the account. On any failure nothing is added, here or in the secret store.
    /// An address holding a user name or password is refused before anything is sent, and one
    /// that would send the password unencrypted over another network unless `allowingInsecure`.
    public func addAccount(kind: SyncServiceKind, server: URL, user: String, password: String,
                           allowingInsecure: Bool = false) async throws(SyncFailure) -> SyncAccount {
        guard let type = serviceTypes[kind] else { throw .unknownService(kind) }
        guard !ServerAddress.holdsCredentials(server) else { throw .credentialsInAddress }
        guard allowingInsecure || !ServerAddress.sendsPasswordInClear(server) else { throw .insecureAddress }
        do {
            if try await store.accounts().contains(where: { $0.kind == kind && $0.server == server && $0.user == user }) {
                throw SyncFailure.accountExists
            }
        } catch let failure as SyncFailure {
            throw failure
        } catch {
            throw .storage(ErrorReason(error))
        }
        let service = type.init(credentials: SyncCredentials(server: server, user: user, password: password))
        do {
            try await service.logIn()
        } catch {
            throw .server(error)
        }
        let key = SecretKey(kind: kind, server: server, user: user)
        do {
            try await secrets.save(password, for: key)
        } catch {
            throw .secrets(error)
        }
        do {
            let account = try await store.addAccount(kind: kind, server: server, user: user)
            services.withLock { $0[account.id] = service }
            return account
        } catch {
            try? await secrets.remove(for: key)
            if case FeedStoreError.accountExists = error { throw .accountExists }
            throw .storage(ErrorReason(error))
        }
    }

    /// Forgets an account here: its folders, feeds, entries, queued changes and password. The
    /// server is not told.
    public func removeAccount(id: Int64) async throws(SyncFailure) {
        let account: SyncAccount
        do {
            guard let found = try await store.account(id: id) else { throw SyncFailure.notFound }
            account = found
            try await store.removeAccount(id: id)
        } catch let failure as SyncFailure {
            throw failure
        } catch {
            throw .storage(ErrorReason(error))
        }
        services.withLock { $0[id] = nil }
        do {
            try await secrets.remove(for: account.secretKey)
        } catch {
            throw .secrets(error)
        }
    }

    /// Syncs one account; a sync of it already running is waited for instead of starting another.
    /// The outcome is recorded on the account (`lastSync`, `lastError`).
    @discardableResult
    public func sync(accountID: Int64) async throws(SyncFailure) -> SyncReport {
        let task = running.withLock { running in
            if let task = running[accountID] { return task }
            let task = Task { try await self.runSyncWithinTime(accountID: accountID) }
            running[accountID] = task
            return task
        }
        defer { running.withLock { $0[accountID] = nil } }
        do {
            return try await task.value
        } catch let failure as SyncFailure {
            throw failure
        } catch {
            throw .storage(ErrorReason(error))
        }
    }

    /// Runs the sync, cancelled once `limits.syncTime` has passed: then it failed as timed out.
    private func runSyncWithinTime(accountID: Int64) async throws -> SyncReport {
        let outcome = try await withThrowingTaskGroup(of: SyncReport?.self) { group in
            group.addTask { try await self.runSync(accountID: accountID) }
            group.addTask {
                try? await Task.sleep(for: self.limits.syncTime)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let outcome else {
            let expired = SyncError(.timeout, "the sync took longer than \(limits.syncTime)")
            try? await store.recordSync(accountID: accountID, at: Date(), error: expired)
            throw SyncFailure.server(expired)
        }
        return outcome
    }

    private func runSync(accountID: Int64) async throws(SyncFailure) -> SyncReport {
        let account: SyncAccount
        do {
            guard let found = try await store.account(id: accountID) else { throw SyncFailure.notFound }
            account = found
        } catch let failure as SyncFailure {
            throw failure
        } catch {
            throw .storage(ErrorReason(error))
        }
        // Asked to wait: the server hears from us again only once the time it named has come.
        if let lastError = account.lastError, let retryAfter = lastError.retryAfter, retryAfter > Date() {
            throw .server(lastError)
        }
        let service = try await service(for: account)
        let started = Date()
        do {
            var report = try await pull(account, with: service)
            if report.newEntries > 0 {
                (report.newUnreadEntries, report.feedsWithNewUnreadEntries) = try await storing {
                    try await self.store.unreadNews(accountID: accountID, since: started)
                }
            }
            try? await store.recordSync(accountID: accountID, at: Date(), error: nil)
            return report
        } catch {
            if case let .server(serverError) = error {
                try? await store.recordSync(accountID: accountID, at: Date(), error: serverError)
            }
            throw error
        }
    }

    /// The account's kept service, or a new one with the password from the secret store.
    private func service(for account: SyncAccount) async throws(SyncFailure) -> any SyncService {
        if let service = services.withLock({ $0[account.id] }) { return service }
        guard let type = serviceTypes[account.kind] else { throw .unknownService(account.kind) }
        let password: String?
        do {
            password = try await secrets.secret(for: account.secretKey)
        } catch {
            throw .secrets(error)
        }
        guard let password else { throw .noPassword }
        let service = type.init(credentials: SyncCredentials(server: account.server, user: account.user, password: password))
        services.withLock { $0[account.id] = service }
        return service
    }

    /// Sends the queue, then pulls subscriptions, articles and state.
    private func pull(_ account: SyncAccount, with service: any SyncService) async throws(SyncFailure) -> SyncReport {
        var report = SyncReport()
        try await sendQueue(of: account.id, with: service, into: &report)
        do {
            let known = try await storing { try await self.store.remoteFeedAddresses(accountID: account.id) }
            let subscriptions = try await service.subscriptions(known: known)
            let pulled = try await pullArticlesAndState(account, after: subscriptions, with: service)
            report.newEntries += pulled.stored
            report.changedStates = try await storing {
                try await self.store.applyArticleState(unread: pulled.unread, starred: pulled.starred, accountID: account.id)
            }
            if let labels = pulled.labels {
                report.changedStates += try await storing { try await self.store.applyLabels(labels, accountID: account.id) }
            }
        } catch let error as SyncError {
            throw .server(error)
        } catch let failure as SyncFailure {
            throw failure
        } catch {
            throw .storage(ErrorReason(error))
        }
        return report
    }

    /// How many fetched pages may wait to be stored before the fetching waits for the store.
    static let pagesAhead = 2

    /// The unread and starred ids and the labels the server listed after its articles.
    private typealias ArticleState = (unread: Set<RemoteID>, starred: Set<RemoteID>, labels: RemoteLabels?)

    /// Stores `subscriptions`, then the articles the server has after the account's cursor, page
    /// by page, each page in its own transaction; the cursor moves on with the last. The pages
    /// are fetched one after another while the subscriptions and earlier pages are stored, at
    /// most `pagesAhead` of them waiting, then the unread and starred ids are listed while the
    /// last are stored: the server is never left idle waiting for our store, and never has more
    /// than one of our requests at a time. A page that fails to arrive fails the sync only once
    /// what came before it is stored whole.
    private func pullArticlesAndState(_ account: SyncAccount, after subscriptions: RemoteSubscriptions, with service: any SyncService)
        async throws -> (stored: Int, unread: Set<RemoteID>, starred: Set<RemoteID>, labels: RemoteLabels?) {
        let (pages, arriving) = AsyncThrowingStream.makeStream(of: ArticlePage.self)
        let (room, freed) = AsyncStream.makeStream(of: Void.self)
        return try await withThrowingTaskGroup(of: ArticleState.self) { fetching in
            fetching.addTask {
                do {
                    var cursor = account.cursor
                    var waiting = 0
                    var freedRoom = room.makeAsyncIterator()
                    var fetched = 0
                    let stopPaging = ContinuousClock.now + self.limits.pagingTime
                    while true {
                        if waiting == Self.pagesAhead {
                            // nil: the store failed and this task is cancelled.
                            guard await freedRoom.next() != nil else { throw CancellationError() }
                            waiting -= 1
                        }
                        var page = try await service.articles(since: cursor)
                        fetched += page.articles.count
                        // A cursor that does not move would bring the same page forever; past a
                        // limit, the next sync goes on from this page's cursor.
                        let stalled = page.nextCursor == nil || page.nextCursor == cursor
                        if !page.isLast, stalled || fetched >= self.limits.articles || ContinuousClock.now >= stopPaging {
                            page.isLast = true
                        }
                        arriving.yield(page)
                        waiting += 1
                        if page.isLast { break }
                        cursor = page.nextCursor ?? cursor
                    }
                    arriving.finish()
                    return (try await service.unreadArticleIDs(), try await service.starredArticleIDs(), try await service.labelledArticles())
                } catch {
                    arriving.finish(throwing: error)
                    throw error
                }
            }
            // Leaving early (a failed page, a failed store) cancels the fetching and waits for it.
            try await storing { try await self.store.applySubscriptions(subscriptions, accountID: account.id) }
            var cursor = account.cursor
            var stored = 0
            for try await page in pages {
                cursor = page.nextCursor ?? cursor
                let articles = page.articles, finalCursor = page.isLast ? cursor : nil
                stored += try await storing {
                    try await self.store.storeArticles(articles, accountID: account.id, cursor: finalCursor)
                }
                freed.yield()
            }
            guard let state = try await fetching.next() else { throw CancellationError() }
            return (stored, state.unread, state.starred, state.labels)
        }
    }

    /// Sends the account's queued changes oldest first, read and star changes of consecutive
    /// entries together up to the service's batch limit, forgetting each once the server made it.
    private func sendQueue(of accountID: Int64, with service: any SyncService, into report: inout SyncReport) async throws(SyncFailure) {
        let queued = try await storing { try await self.store.queuedChanges(accountID: accountID) }
        for batch in Self.batches(queued, limit: service.capabilities.articleBatchLimit) {
            guard let change = Self.change(for: batch) else { continue }
            // A service without labels keeps them here: the change leaves the queue unsent.
            if case .setLabel = change, !service.capabilities.syncsLabels {
                let ids = batch.map(\.id)
                try await storing { try await self.store.removeQueuedChanges(ids: ids) }
                continue
            }
            do {
                try await service.send(change)
            } catch where error.code == .subscriptionRefused {
                if case let .subscribe(url, _) = change {
                    report.refusedSubscriptions.append(.init(url: url.absoluteString, reason: error.detail))
                }
            } catch {
                throw .server(error)
            }
            let ids = batch.map(\.id)
            try await storing { try await self.store.removeQueuedChanges(ids: ids) }
            report.sentChanges += batch.count
        }
    }

    /// `queued` cut into what goes in one request each: runs of the same read, star or label
    /// change up to `limit` entries, every other change alone.
    static func batches(_ queued: [QueuedChange], limit: Int) -> [[QueuedChange]] {
        var batches: [[QueuedChange]] = []
        for change in queued {
            let batchable: Set<QueuedChange.Action> = [.read, .unread, .star, .unstar, .label, .unlabel]
            if batchable.contains(change.action), let last = batches.last?.last, last.action == change.action, last.argument == change.argument,
               batches[batches.count - 1].count < max(1, limit) {
                batches[batches.count - 1].append(change)
            } else {
                batches.append([change])
            }
        }
        return batches
    }

    /// The change a batch asks the server for; nil for a row that lost what it needs.
    static func change(for batch: [QueuedChange]) -> SyncChange? {
        guard let first = batch.first else { return nil }
        let ids = batch.compactMap(\.remoteID)
        switch first.action {
        case .read: return .setRead(true, articleIDs: ids)
        case .unread: return .setRead(false, articleIDs: ids)
        case .star: return .setStarred(true, articleIDs: ids)
        case .unstar: return .setStarred(false, articleIDs: ids)
        case .label, .unlabel:
            guard let name = first.argument else { return nil }
            return .setLabel(name: name, first.action == .label, articleIDs: ids)
        case .subscribe:
            guard let url = first.argument.flatMap(URL.init(string:)) else { return nil }
            return .subscribe(url: url, categoryID: first.remoteID)
        case .unsubscribe:
            return first.remoteID.map { .unsubscribe(feedID: $0) }
        case .move:
            return first.remoteID.map { .move(feedID: $0, categoryID: first.argument) }
        case .catchupFeed:
            return first.remoteID.map { .markAllRead(.feed($0), before: first.queuedAt) }
        case .catchupCategory:
            return first.remoteID.map { .markAllRead(.category($0), before: first.queuedAt) }
        case .catchupAccount:
            return .markAllRead(.account, before: first.queuedAt)
        }
    }

    /// Runs a store operation, turning its error into `.storage`.
    private func storing<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws(SyncFailure) -> T {
        do {
            return try await operation()
        } catch {
            throw .storage(ErrorReason(error))
        }
    }
}

extension SyncAccount {
    /// Where the account's password is in the secret store.
    public var secretKey: SecretKey { SecretKey(kind: kind, server: server, user: user) }
}
