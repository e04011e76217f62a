import Foundation

/// A second program holding an SQLite database's write lock, as another reader window or a
/// `feed-reader --import` in another session does: Python's sqlite3 in its own process, in
/// `BEGIN IMMEDIATE` until `release()` or until `seconds` have passed.
public final class SQLiteLockHolder {
    private let process = Process()
    private let input = Pipe()

    /// Takes the write lock of the database at `path` and returns once it holds it; it lets go
    /// after `seconds`, or only at `release()` when nil. `exclusive` takes every lock, so that
    /// not even a reader gets in, as a program holding the file in SQLite's exclusive locking mode does.
    public init(path: String, seconds: Double? = nil, exclusive: Bool = false) throws {
        let script = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
            if sys.argv[3] == "exclusive":
                connection.execute("PRAGMA locking_mode = EXCLUSIVE")
                connection.execute("BEGIN EXCLUSIVE")
                connection.execute("DELETE FROM hostBackoff WHERE 0")
            else:
                connection.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            if sys.argv[2] == "-":
                sys.stdin.readline()
            else:
                time.sleep(float(sys.argv[2]))
            connection.execute("COMMIT")
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path, seconds.map { "\($0)" } ?? "-", exclusive ? "exclusive" : "write"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        guard line == "locked\n" else {
            process.terminate()
            throw CocoaError(.fileLocking, userInfo: [NSLocalizedDescriptionKey: "the lock holder said \(line)"])
        }
    }

    /// Commits and ends the holder, waiting until it has.
    public func release() {
        try? input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
        waitUntilReleased()
    }

    /// Waits until the holder has let go of its own accord.
    public func waitUntilReleased() {
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
