import Foundation

extension SyncEngine {
    /// Subscribes the account to `url` into its folder `folderID` (outside any category for nil):
    /// queued, and made by the server at the next sync, which brings the feed here.
    public func subscribe(accountID: Int64, to url: URL, folderID: Int64? = nil) async throws(SyncFailure) {
        try await requireCapability(of: accountID, \.canSubscribe)
        do {
            try await store.queueSubscription(accountID: accountID, url: url, folderID: folderID)
        } catch {
            throw .storage(ErrorReason(error))
        }
    }

    /// Unsubscribes from a synced feed: gone here at once with its entries, and on the server at the next sync.
    public func unsubscribe(feedID: Int64) async throws(SyncFailure) {
        let accountID = try await accountID(ofFeed: feedID)
        try await requireCapability(of: accountID, \.canUnsubscribe)
        do {
            _ = try await store.unsubscribeSynced(feedID: feedID)
        } catch {
            throw .storage(ErrorReason(error))
        }
    }

    /// Moves a synced feed into another folder of its account (out of any for nil): here at once,
    /// on the server at the next sync.
    public func moveFeed(_ feedID: Int64, toFolder folderID: Int64?) async throws(SyncFailure) {
        let accountID = try await accountID(ofFeed: feedID)
        try await requireCapability(of: accountID, \.canMoveFeeds)
        do {
            _ = try await store.moveSynced(feedID: feedID, toFolder: folderID)
        } catch {
            throw .storage(ErrorReason(error))
        }
    }

    private func accountID(ofFeed feedID: Int64) async throws(SyncFailure) -> Int64 {
        do {
            guard let remote = try await store.remoteFeed(id: feedID) else { throw SyncFailure.notFound }
            return remote.accountID
        } catch let failure as SyncFailure {
            throw failure
        } catch {
            throw .storage(ErrorReason(error))
        }
    }

    private func requireCapability(of accountID: Int64, _ capability: KeyPath<SyncCapabilities, Bool>) async throws(SyncFailure) {
        let account: SyncAccount?
        do {
            account = try await store.account(id: accountID)
        } catch {
            throw .storage(ErrorReason(error))
        }
        guard let account else { throw .notFound }
        guard let capabilities = capabilities(of: account.kind) else { throw .unknownService(account.kind) }
        guard capabilities[keyPath: capability] else { throw .unsupported }
    }
}
