import Foundation
import TestSupport
import Testing
@testable import FeedCore

extension FreshRSSTests.FreshRSSSyncTests {
    /// The account's Google Reader session token in the keyring, if any.
    func keptSession(of account: SyncAccount) async throws -> String? {
        try await secrets.secret(for: account.secretKey.sessionToken)
    }

    /// ClientLogin's token lasts: the next run of the app (a new engine, a new service) syncs with
    /// the token kept in the keyring and sends no login.
    @Test func aLaterRunSyncsWithoutLoggingIn() async throws {
        try await subscribe("kept", count: 1)
        let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)
        try await engine.sync(accountID: account.id)

        try writeFeed("kept", count: 2)
        try await server.refresh(user: user)
        let loginsBefore = server.answeredLogins()
        let report = try await SyncEngine(store: store, secrets: secrets).sync(accountID: account.id)

        #expect(server.answeredLogins() == loginsBefore)
        #expect(report.newEntries == 1)
        #expect(Set(try await store.entries().compactMap(\.title)) == ["kept-1", "kept-2"])
    }

    /// A kept token the server no longer accepts (a new API password gives a new one) costs one
    /// login, whose token replaces it in the keyring; the sync completes, and the run after it
    /// uses the new token.
    @Test func aRefusedTokenIsReplacedByOneLogin() async throws {
        try await subscribe("stale", count: 1)
        let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)
        try await engine.sync(accountID: account.id)
        let refused = try #require(try await keptSession(of: account))

        try await server.setAPIPassword(of: user, to: password)
        try writeFeed("stale", count: 2)
        try await server.refresh(user: user)
        let loginsBefore = server.answeredLogins()
        let report = try await SyncEngine(store: store, secrets: secrets).sync(accountID: account.id)

        #expect(server.answeredLogins() == loginsBefore + 1)
        #expect(report.newEntries == 1)
        let replacement = try #require(try await keptSession(of: account))
        #expect(replacement != refused)

        try await SyncEngine(store: store, secrets: secrets).sync(accountID: account.id)
        #expect(server.answeredLogins() == loginsBefore + 1)
    }

    /// Removing the account leaves neither its password nor its session token in the keyring.
    @Test func removingTheAccountForgetsItsToken() async throws {
        try await subscribe("gone", count: 1)
        let account = try await engine.addAccount(kind: GoogleReaderService.kind, server: server.base, user: user, password: password)
        try await engine.sync(accountID: account.id)
        #expect(try await keptSession(of: account) != nil)

        try await engine.removeAccount(id: account.id)

        #expect(try await keptSession(of: account) == nil)
        #expect(try await secrets.secret(for: account.secretKey) == nil)
    }
}
