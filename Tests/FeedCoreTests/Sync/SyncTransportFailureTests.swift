import Foundation
import TestSupport
import Testing
@testable import FeedCore
#if canImport(Glibc)
import Glibc
#endif

/// The two failures of adding an account that the real sync servers here cannot give: a server
/// whose TLS certificate is not trusted, and one that never answers. Each is its own error, which
/// the app words apart from "unreachable"; nothing is added.
@Suite("Sync transport failures")
struct SyncTransportFailureTests {
    /// A real TLS server (Debian's `openssl s_server`) with a self-signed certificate, which no
    /// client may trust: every service's login says the secure connection failed.
    @Test(arguments: [TinyTinyRSSService.kind, GoogleReaderService.kind, FeverService.kind])
    func anUntrustedCertificateIsATLSFailure(kind: SyncServiceKind) async throws {
        let server = try await UntrustedTLSServer()
        defer { server.stop() }
        let store = try FeedStore.inMemory()
        let engine = SyncEngine(store: store)
        await #expect {
            _ = try await engine.addAccount(kind: kind, server: server.url, user: "reader", password: "secret")
        } throws: { error in
            guard case let SyncFailure.server(serverError) = error else { return false }
            return serverError.code == .tls
        }
        #expect(try await store.accounts().isEmpty)
    }

    /// A server that takes the connection but answers only after the client's deadline: a timeout,
    /// not "unreachable", for both web APIs.
    @Test func aServerThatDoesNotAnswerInTimeIsATimeout() async throws {
        let server = try TestHTTPServer { _ in TestHTTPServer.Response(status: 200, body: Data("OK".utf8), delay: 3) }
        defer { server.stop() }
        let connection = WebAPIConnection(timeout: .seconds(1))
        let reader = GoogleReaderClient(endpoint: server.url("/api/greader.php"), user: "reader", password: "secret", connection: connection)
        let fever = FeverClient(endpoint: server.url("/api/fever.php"), user: "reader", password: "secret", connection: connection)
        do {
            try await reader.logIn()
            Issue.record("the Google Reader API login succeeded")
        } catch {
            #expect(error.syncError.code == .timeout, "\(error)")
        }
        do {
            try await fever.logIn()
            Issue.record("the Fever login succeeded")
        } catch {
            #expect(error.syncError.code == .timeout, "\(error)")
        }
    }
}

/// `openssl s_server` on a free loopback port with a certificate made for the test alone.
private struct UntrustedTLSServer {
    let url: URL
    private let process: Subprocess
    private let folder: URL

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "untrusted-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appending(path: "key.pem").path, certificate = folder.appending(path: "cert.pem").path
        let made = try await Subprocess("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                                       "-subj", "/CN=127.0.0.1", "-days", "1"]).finish()
        try #require(made.status == 0, "openssl req: \(made.errors)")
        let port = try Self.freePort()
        process = try Subprocess("/usr/bin/openssl", ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key,
                                                      "-www", "-quiet"])
        url = URL(string: "https://127.0.0.1:\(port)/")!
        let deadline = Date() + 20
        while !Self.accepts(port) {
            try #require(Date() < deadline && kill(process.pid, 0) == 0, "openssl s_server did not start")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func stop() {
        // SIGKILL: the child inherits the test thread's signal mask, in which SIGTERM may be blocked.
        kill(process.pid, SIGKILL)
        _ = process.wait()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A loopback port nothing listens on now.
    private static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")),
                                  sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        try #require(bound, "no free port")
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts a connection on the loopback port.
    private static func accepts(_ port: UInt16) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")),
                                  sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
