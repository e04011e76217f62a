import Foundation
import Synchronization
import Testing
import TestSupport
@testable import FeedCore

/// Answers no real tt-rss gives: malformed, endless and absurdly nested JSON, an empty 500. A
/// fake server stands in here, as only one can produce these faults; each is a clear error and
/// the sync stores nothing.
@Suite("tt-rss client against hostile answers")
struct TinyTinyRSSHostileServerTests {
    enum Fault: CaseIterable {
        case malformed, endless, deeplyNested, emptyServerError, notTheAPI
    }

    /// The answer to every call after the login.
    static func answer(_ fault: Fault) -> TestHTTPServer.Response {
        let json = [("Content-Type", "text/json")]
        switch fault {
        case .malformed:
            return TestHTTPServer.Response(status: 200, headers: json, body: Data(#"{"seq":0,"status":0,"content":[{"id":1,"title":"#.utf8))
        case .endless:
            let piece = Data(String(repeating: #"{"id":1,"title":"x"},"#, count: 5_000).utf8)
            return TestHTTPServer.Response(status: 200, headers: json, body: Data(#"{"seq":0,"status":0,"content":["#.utf8), chunks: { piece })
        case .deeplyNested:
            return TestHTTPServer.Response(status: 200, headers: json,
                                           body: Data((#"{"seq":0,"status":0,"content":"# + String(repeating: "[", count: 200_000)).utf8))
        case .emptyServerError:
            return .status(500)
        case .notTheAPI:
            return TestHTTPServer.Response(status: 200, headers: [("Content-Type", "text/html")], body: Data("<html>Welcome</html>".utf8))
        }
    }

    static func expectedCode(_ fault: Fault) -> ErrorCode {
        fault == .emptyServerError ? .serverError : .badResponse
    }

    @Test(arguments: Fault.allCases)
    func aHostileAnswerIsAClearErrorAndStoresNothing(_ fault: Fault) async throws {
        let calls = Mutex(0)
        let server = try TestHTTPServer { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            guard call > 1 else {
                return TestHTTPServer.Response(status: 200, headers: [("Content-Type", "text/json")],
                                               body: Data(#"{"seq":0,"status":0,"content":{"session_id":"s1","api_level":15}}"#.utf8))
            }
            return Self.answer(fault)
        }
        defer { server.stop() }
        let store = try FeedStore.inMemory()
        let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: server.url("/"), user: "ann")
        let secrets = KnownSecret(password: "pw")
        let engine = SyncEngine(store: store, secrets: secrets)
        do {
            try await engine.sync(accountID: account.id)
            Issue.record("the sync succeeded")
        } catch {
            guard case let .server(serverError) = error else {
                Issue.record("not a server error: \(error)")
                return
            }
            #expect(serverError.code == Self.expectedCode(fault), "\(serverError)")
        }
        #expect(try await store.feeds(accountID: account.id).isEmpty)
        #expect(try await store.entryCount() == 0)
        #expect(try await store.account(id: account.id)?.lastError?.code == Self.expectedCode(fault))
    }
}

/// A secret store holding one password: these tests are about the server's answers, and a
/// Secret Service may not run where they do (the tt-rss tests use the real one).
struct KnownSecret: SecretStore {
    let password: String

    func save(_ secret: String, for key: SecretKey) async throws(SecretStoreError) {}
    func secret(for key: SecretKey) async throws(SecretStoreError) -> String? { password }
    func remove(for key: SecretKey) async throws(SecretStoreError) {}
}
