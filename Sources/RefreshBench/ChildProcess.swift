import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end with what the bench compares: its output, its wall time and its peak
/// resident memory as the kernel counts it for any process, so every program is measured the
/// same way and none needs to report on itself.
///
/// The peak comes from GNU time (`/usr/bin/time -f %M`), not from this process's own `wait4`:
/// a child spawned from the bench records the bench's resident size as its own peak when it
/// calls exec (Linux keeps the peak of the memory it replaces, which a vfork child shares with
/// its parent). GNU time is small, so the program it starts inherits no such peak.
struct ChildProcess {
    var status: Int32
    var output: String
    /// Its standard error, for the reason of a failure.
    var errors: String
    var seconds: Double
    var peakRSSMegabytes: Double

    /// Runs `executable` with `arguments` in `environment`, `input` on its standard input.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    input: String = "") throws -> ChildProcess {
        let scratch = BenchFiles.directory.appendingPathComponent("child-\(UUID().uuidString)").path
        // Files, not pipes: a server a script leaves running would hold a pipe open.
        let peakFile = scratch + ".peak", outputFile = scratch + ".out", errorFile = scratch + ".err", inputFile = scratch + ".in"
        try input.write(toFile: inputFile, atomically: false, encoding: .utf8)
        defer { [peakFile, outputFile, errorFile, inputFile].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 0, inputFile, O_RDONLY, 0)
        let argv = ([Self.time, "-f", "%M", "-o", peakFile, executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = Clock.nanoseconds()
        let spawned = posix_spawn(&pid, Self.time, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot start \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Double(Clock.nanoseconds() - started) / 1e9
        // Exited normally: the exit code; killed: 128 + the signal, as a shell reports it.
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let peakText = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
        // GNU time writes "Command exited with non-zero status N" first when the program failed.
        guard let kilobytes = peakText.split(separator: "\n").last.flatMap({ Double($0) }) else {
            throw BenchError("GNU time reported no peak memory for \(executable): \(peakText)")
        }
        let errors = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        return ChildProcess(status: exitCode, output: output, errors: errors, seconds: seconds,
                            peakRSSMegabytes: kilobytes / 1024)
    }

    /// GNU time, which starts the program and reports its peak resident memory.
    static let time = "/usr/bin/time"
}
