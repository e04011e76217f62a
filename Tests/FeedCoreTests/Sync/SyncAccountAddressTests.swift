import Foundation
import Testing
import TestSupport
@testable import FeedCore

/// An account's address decides where its password goes (red team 2, cases 28 and 29): one
/// holding a password is refused before anything is sent, and plain http to another network
/// only when asked for, with a warning.
@Suite("Sync account addresses")
struct SyncAccountAddressTests {
    @Test(arguments: [
        ("https://rss.example.org/", false),
        ("http://rss.example.org/", true),
        ("http://127.0.0.1:8080/", false),
        ("http://localhost/tt-rss/", false),
        ("http://nas.local/", false),
        ("http://192.168.1.20/", false),
        ("http://10.1.2.3/", false),
        ("http://172.20.0.5/", false),
        ("http://172.32.0.5/", true),
        ("http://169.254.10.1/", false),
        ("http://[::1]:8080/", false),
        ("http://[fd12:3456::1]/", false),
        ("http://[2001:db8::1]/", true),
        ("http://192.168.1.20.example.org/", true),
    ])
    func plainHTTPIsUnencryptedUnlessTheHostIsLocal(address: String, inClear: Bool) throws {
        #expect(ServerAddress.sendsPasswordInClear(try #require(URL(string: address))) == inClear)
    }

    @Test(arguments: SyncRedirectTests.kinds)
    func anAddressHoldingAPasswordIsRefusedBeforeAnythingIsSent(kind: SyncServiceKind) async throws {
        let server = try TestHTTPServer { _ in .status(500) }
        defer { server.stop() }
        let store = try FeedStore.inMemory()
        let engine = SyncEngine(store: store, secrets: KnownSecret(password: "pw"))
        let address = try #require(URL(string: "http://bob:UrlPassw0rd@127.0.0.1:\(server.port)/"))

        await #expect(throws: SyncFailure.credentialsInAddress) {
            _ = try await engine.addAccount(kind: kind, server: address, user: "ann", password: "secret")
        }
        #expect(server.requests.isEmpty)
        #expect(try await store.accounts().isEmpty)
    }

    /// An account stored before such addresses were refused is shown without its password.
    @Test func anAddressIsShownWithoutItsPassword() throws {
        #expect(ServerAddress.shown(try #require(URL(string: "http://bob:UrlPassw0rd@127.0.0.1:8080/tt-rss/"))) == "http://127.0.0.1:8080/tt-rss/")
        #expect(ServerAddress.shown(try #require(URL(string: "https://rss.example.org/api/fever.php"))) == "https://rss.example.org/api/fever.php")
    }

    @Test func plainHTTPToAnotherNetworkIsRefusedUnlessAllowed() async throws {
        let engine = SyncEngine(store: try FeedStore.inMemory(), secrets: KnownSecret(password: "pw"))
        // Refused before any request: this address is never reached.
        await #expect(throws: SyncFailure.insecureAddress) {
            _ = try await engine.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "http://rss.example.org/")!, user: "ann", password: "secret")
        }
        #expect(try await engine.store.accounts().isEmpty)
    }

    /// The command line: refused with the way to allow it; allowed, with a warning on standard
    /// error. The allowed request goes through a proxy on 127.0.0.1 (libcurl's `http_proxy`),
    /// which answers as tt-rss: nothing leaves this computer.
    @Test func theCommandLineRefusesPlainHTTPUnlessAllowedAndThenWarns() async throws {
        let proxy = try TestHTTPServer { request in
            let body = String(decoding: request.body, as: UTF8.self)
            let content = body.contains(#""op":"login""#) ? #"{"session_id":"s1","api_level":15}"# : "[]"
            return TestHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")],
                                           body: Data(#"{"seq":0,"status":0,"content":\#(content)}"#.utf8))
        }
        defer { proxy.stop() }
        let reader = try TinyTinyRSSSyncTests.Reader()
        let address = "http://rss.example.org/"
        let viaProxy = ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": ""]

        let refused = try await reader.run(["--add-account", address, "--service", "tt-rss", "--user", "ann"], input: "secret\n", environment: viaProxy)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("--allow-insecure"), "\(refused.errors)")
        #expect(proxy.requests.isEmpty)

        let allowed = try await reader.run(["--add-account", address, "--service", "tt-rss", "--user", "ann", "--allow-insecure"],
                                           input: "secret\n", environment: viaProxy)
        #expect(allowed.errors.contains("Warning: the password goes to") && allowed.errors.contains(address), "\(allowed.errors)")
        #expect(proxy.requests.first?.path == "http://rss.example.org/api/")

        let withPassword = try await reader.run(["--add-account", "http://bob:UrlPassw0rd@127.0.0.1:\(proxy.port)/", "--service", "tt-rss", "--user", "ann"],
                                                input: "secret\n")
        #expect(withPassword.status == 1)
        #expect(withPassword.errors.contains("user name or password"), "\(withPassword.errors)")
        #expect(!withPassword.errors.contains("UrlPassw0rd"))
        let listed = try await reader.run(["--list-accounts"])
        #expect(!listed.output.contains("UrlPassw0rd"))
    }
}
