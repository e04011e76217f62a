import Foundation
import TestProcesses

/// Python's own `http.server` serving a folder on 127.0.0.1: a real file server that ignores
/// `Range` and says nothing of byte ranges, as many small podcast hosts do.
public final class PythonFileServer: @unchecked Sendable {
    public let port: UInt16
    private let process: Subprocess

    /// Starts serving `folder`; throws when Python does not start or names no port.
    public init(serving folder: URL) throws {
        process = try Subprocess("/usr/bin/python3", ["-u", "-c", """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """, folder.path])
        guard let port = UInt16(process.waitForFirstLine(timeout: 30).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.stop()
            throw POSIXError(.EIO)
        }
        self.port = port
    }

    /// The server's URL for `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops the server and waits for it to end.
    public func stop() {
        process.stop()
    }
}
