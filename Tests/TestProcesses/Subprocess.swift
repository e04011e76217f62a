import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child program run with posix_spawn and reaped with waitpid on the calling thread: Foundation's
/// Process misses its children's end once GLib handles SIGCHLD in the test process, and its
/// waitUntilExit then never returns (a mount once held a test until the pass's time limit).
public struct Subprocess: Sendable {
    public let pid: pid_t
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `path` with `arguments` and `environment`, `input` on its standard input.
    public init(_ path: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, input: String = "") throws {
        let folder = FileManager.default.temporaryDirectory
        let name = UUID().uuidString
        outputFile = folder.appendingPathComponent("subprocess-\(name).out")
        errorFile = folder.appendingPathComponent("subprocess-\(name).err")
        let inputFile = folder.appendingPathComponent("subprocess-\(name).in")
        try Data(input.utf8).write(to: inputFile)
        defer { try? FileManager.default.removeItem(at: inputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputFile.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of the test process: a client's socket a child inherits stays open after the
        // client closes it, and the test's server never sees the hang-up.
        guard Self.addCloseFrom(&actions, 3) == 0 else { throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: path]) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, nil, argv, envp)
        guard status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: path]) }
        pid = child
    }

    /// Waits for the end without holding a thread of the few the tests' tasks share (on two cores a
    /// blocked one stalls every suite running beside it): for runs that take seconds.
    public func finish() async -> (status: Int32, output: String, errors: String) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: wait()) }
        }
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34), which Swift's Glibc module does not declare.
    private static let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 =
        unsafeBitCast(dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")!,
                      to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// Whether the child has ended; it is left to be reaped by `wait()` all the same.
    public var hasEnded: Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// What the child has written to its standard output so far.
    public var outputSoFar: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    /// Waits until the child has printed a whole line, ended, or `timeout` seconds have passed;
    /// what it has printed by then: the line a server or a lock holder says it is ready with.
    public func waitForFirstLine(timeout: Double) -> String {
        let deadline = Date() + timeout
        while !outputSoFar.contains("\n"), !hasEnded, Date() < deadline {
            usleep(1000)
        }
        return outputSoFar
    }

    /// Asks the child to end (SIGTERM) and waits until it has.
    public func stop() {
        kill(pid, SIGTERM)
        _ = wait()
    }

    /// Waits for the end: the exit status (128 + the signal for a killed child), standard output and error.
    public func wait() -> (status: Int32, output: String, errors: String) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return ended(status)
    }

    /// What a child that ended with wait status `status` left.
    private func ended(_ status: Int32) -> (status: Int32, output: String, errors: String) {
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        return (exit, (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "", (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }
}
