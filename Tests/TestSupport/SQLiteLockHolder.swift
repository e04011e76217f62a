import Foundation
import TestProcesses

/// A second program holding an SQLite database's write lock, as another reader window or a
/// `feed-reader --import` in another session does: Python's sqlite3 in its own process, in
/// `BEGIN IMMEDIATE` until `release()` or until `seconds` have passed.
public final class SQLiteLockHolder {
    private let process: Subprocess
    private var ended = false

    /// Takes the write lock of the database at `path` and returns once it holds it; it lets go
    /// after `seconds`, or only at `release()` when nil. `exclusive` takes every lock, so that
    /// not even a reader gets in, as a program holding the file in SQLite's exclusive locking mode does.
    public init(path: String, seconds: Double? = nil, exclusive: Bool = false) throws {
        // Held until `release()` sends SIGTERM, blocked from the start so that none is lost.
        let script = """
            import signal, sqlite3, sys, time
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
            if sys.argv[3] == "exclusive":
                connection.execute("PRAGMA locking_mode = EXCLUSIVE")
                connection.execute("BEGIN EXCLUSIVE")
                connection.execute("DELETE FROM hostBackoff WHERE 0")
            else:
                connection.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            if sys.argv[2] == "-":
                signal.sigwait({signal.SIGTERM})
            else:
                time.sleep(float(sys.argv[2]))
            connection.execute("COMMIT")
            """
        process = try Subprocess("/usr/bin/python3", ["-c", script, path, seconds.map { "\($0)" } ?? "-", exclusive ? "exclusive" : "write"])
        let line = process.waitForFirstLine(timeout: 30)
        guard line == "locked\n" else {
            kill(process.pid, SIGKILL)
            let said = process.wait()
            ended = true
            throw CocoaError(.fileLocking, userInfo: [NSLocalizedDescriptionKey: "the lock holder said \(line)\(said.errors)"])
        }
    }

    /// Commits and ends the holder, waiting until it has.
    public func release() {
        guard !ended else { return }
        process.stop()
        ended = true
    }

    /// Waits until the holder has let go of its own accord.
    public func waitUntilReleased() {
        guard !ended else { return }
        _ = process.wait()
        ended = true
    }

    deinit {
        if !ended {
            kill(process.pid, SIGKILL)
            _ = process.wait()
        }
    }
}
