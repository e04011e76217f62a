import FeedCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `parse_vs_feedparser_rs_ratio_rss` and `_atom` (`--only=feedparser-rs`): FeedCore against the
/// Rust-backed feedparser-rs on the same file, like for like and in alternation.
///
/// Each parser runs in a worker process of its own (refresh-bench's `--parse-worker`, and
/// Python with feedparser_rs imported) that reads the file into memory once and parses it as many
/// times as it is warmed up; from then on, asked on its standard input, it parses once and
/// answers the parse's time on the monotonic clock. No process start, import, file reading or
/// freeing of the previous result is timed on either side (Python's cycle collector runs
/// before each parse, untimed, so each starts from the same heap). The bench asks the two in turn,
/// which one first alternating, so both meet the same load, and reports the median of the pairs'
/// ratios. Beside the times, the instructions each parser spends a byte, counted by callgrind
/// as the difference between a worker asked for three parses and one asked for one (on the
/// 1,000-item files, as callgrind runs some fifty times slower): a figure no load changes.
extension ParseBench {
    /// The first argument that makes refresh-bench a parse worker: `--parse-worker FILE ENTRIES WARM-UPS`.
    static let workerFlag = "--parse-worker"

    /// One format's comparison.
    struct Comparison {
        /// The median of feedparser-rs's time over FeedCore's, pair by pair.
        var ratio: Double
        var pairs: Int
        /// The lowest and highest pair's ratio: how far one pair, or two figures taken apart, can stray.
        var lowest: Double, highest: Double
        /// Each side's median throughput in MB/s (10^6 bytes).
        var oursMBs: Double, theirsMBs: Double
        /// Instructions a byte of the 1,000-item file, each side; nil without valgrind.
        var oursInstructionsPerByte: Double? = nil, theirsInstructionsPerByte: Double? = nil
    }

    /// Pairs timed in each format.
    static func pairs(_ options: BenchOptions) -> Int { options.quick ? 3 : 15 }

    /// The RSS and Atom comparisons, or nil when feedparser_rs cannot be imported.
    static func compareWithFeedparserRS(_ files: Files, _ options: BenchOptions) throws -> (rss: Comparison, atom: Comparison)? {
        guard feedparserRSIsInstalled() else { return nil }
        let counted = try generate(options, items: countedItems(options), prefix: "counted")
        return (try compare(files.rss, counted: counted.rss, expectedEntries: options.feedItems, options),
                try compare(files.atom, counted: counted.atom, expectedEntries: options.feedItems, options))
    }

    /// The items of the files callgrind counts: 1,000, or 100 for `--quick`, which only checks that the rows come out.
    private static func countedItems(_ options: BenchOptions) -> Int { options.quick ? 100 : 1_000 }

    private static func feedparserRSIsInstalled() -> Bool {
        guard let child = try? ChildProcess.run(pythonPath, ["-c", "import feedparser_rs"],
                                                environment: ProcessInfo.processInfo.environment) else { return false }
        return child.status == 0
    }

    private static func compare(_ file: URL, counted: URL, expectedEntries: Int, _ options: BenchOptions) throws -> Comparison {
        var comparison = try timeInTurn(file, expectedEntries: expectedEntries, options)
        let items = countedItems(options)
        comparison.oursInstructionsPerByte = try instructionsPerByte(counted) { ourWorker(counted, expectedEntries: items, warmUps: $0) }
        comparison.theirsInstructionsPerByte = try instructionsPerByte(counted) { theirWorker(counted, expectedEntries: items, warmUps: $0) }
        return comparison
    }

    /// The two workers asked in turn, which one first alternating from pair to pair.
    private static func timeInTurn(_ file: URL, expectedEntries: Int, _ options: BenchOptions) throws -> Comparison {
        let bytes = Double(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0)
        let ours = try Worker(ourWorker(file, expectedEntries: expectedEntries, warmUps: options.warmUps))
        defer { ours.finish() }
        let theirs = try Worker(theirWorker(file, expectedEntries: expectedEntries, warmUps: options.warmUps))
        defer { theirs.finish() }
        var ratios: [Double] = [], ourTimes: [Double] = [], theirTimes: [Double] = []
        for pair in 0..<pairs(options) {
            let (first, second) = pair % 2 == 0 ? (ours, theirs) : (theirs, ours)
            let firstTime = try first.parseOnce(), secondTime = try second.parseOnce()
            let (our, their) = pair % 2 == 0 ? (firstTime, secondTime) : (secondTime, firstTime)
            ourTimes.append(our)
            theirTimes.append(their)
            ratios.append(their / our)
        }
        return Comparison(ratio: Stats.median(ratios), pairs: ratios.count, lowest: ratios.min() ?? 0, highest: ratios.max() ?? 0,
                          oursMBs: bytes / 1e6 / Stats.median(ourTimes), theirsMBs: bytes / 1e6 / Stats.median(theirTimes))
    }

    /// refresh-bench itself as FeedCore's worker.
    private static func ourWorker(_ file: URL, expectedEntries: Int, warmUps: Int) -> [String] {
        [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, workerFlag, file.path, "\(expectedEntries)", "\(warmUps)"]
    }

    /// Python with feedparser_rs as its worker, by its path: callgrind follows no `env` into it.
    private static func theirWorker(_ file: URL, expectedEntries: Int, warmUps: Int) -> [String] {
        [pythonPath, "-c", pythonWorker, "feedparser_rs", file.path, "\(expectedEntries)", "\(warmUps)"]
    }

    /// `python`, looked up in `PATH` unless it is a path.
    private static var pythonPath: String {
        guard !python.contains("/") else { return python }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return folders.map { "\($0)/\(python)" }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? python
    }

    /// The worker's loop in Python, answering as `serveIfWorker` does.
    private static let pythonWorker = """
        import gc, importlib, sys, time
        module = importlib.import_module(sys.argv[1])
        with open(sys.argv[2], "rb") as f:
            data = f.read()
        expected, warm_ups = int(sys.argv[3]), int(sys.argv[4])
        for _ in range(warm_ups):
            module.parse(data)
        print("ready", flush=True)
        for _ in sys.stdin:
            gc.collect()
            start = time.perf_counter_ns()
            parsed = module.parse(data)
            elapsed = time.perf_counter_ns() - start
            entries = len(parsed["entries"])
            del parsed
            print(elapsed if entries == expected else f"parsed {entries} entries of {expected}", flush=True)
        """

    /// When refresh-bench was started as a parse worker, serves as FeedCore's and exits.
    static func serveIfWorker() {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, arguments[1] == workerFlag, let expected = Int(arguments[3]), let warmUps = Int(arguments[4]),
              let data = FileManager.default.contents(atPath: arguments[2]) else { return }
        let parser = FeedParser()
        for _ in 0..<warmUps { _ = try? parser.parse(data) }
        answer("ready")
        var parsed: ParsedFeed?
        while readLine() != nil {
            parsed = nil
            let start = Clock.nanoseconds()
            parsed = try? parser.parse(data)
            let elapsed = Clock.nanoseconds() - start
            let entries = parsed?.entries.count ?? 0
            answer(entries == expected ? "\(elapsed)" : "parsed \(entries) entries of \(expected)")
        }
        exit(0)
    }

    /// A line to the bench, unbuffered.
    private static func answer(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Instructions a parse spends a byte of `file`, by callgrind: a worker asked for three
    /// parses less one asked for one, both after one warm-up, halved. nil without valgrind.
    private static func instructionsPerByte(_ file: URL, worker: (Int) -> [String]) throws -> Double? {
        let valgrind = "/usr/bin/valgrind"
        guard FileManager.default.isExecutableFile(atPath: valgrind) else { return nil }
        let bytes = Double(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0)
        func instructions(parses: Int) throws -> Double {
            let command = worker(1)
            let child = try ChildProcess.run(valgrind, ["--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                                             environment: ProcessInfo.processInfo.environment,
                                             input: String(repeating: "parse\n", count: parses))
            let answers = child.output.split(separator: "\n").dropFirst()
            guard child.status == 0, answers.count == parses, answers.allSatisfy({ UInt64($0) != nil }),
                  let line = child.errors.split(separator: "\n").first(where: { $0.contains("Collected :") }),
                  let count = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
                throw BenchError("callgrind on \(command[0]) failed (\(child.status)): \(child.output) \(child.errors.suffix(500))")
            }
            return count
        }
        return (try instructions(parses: 3) - instructions(parses: 1)) / 2 / bytes
    }

    /// A worker process, asked for one parse at a time through pipes.
    private final class Worker {
        private let pid: pid_t
        private let requests: UnsafeMutablePointer<FILE>
        private let answers: UnsafeMutablePointer<FILE>
        private let command: String

        /// Starts `arguments` (the executable first) and waits for its `ready` after the warm-ups.
        init(_ arguments: [String]) throws {
            command = arguments[0]
            var toWorker: [Int32] = [0, 0], fromWorker: [Int32] = [0, 0]
            // Close-on-exec, so no other child inherits an end and holds a pipe open.
            guard pipe(&toWorker) == 0, pipe(&fromWorker) == 0 else { throw BenchError("no pipe for \(command)") }
            for end in toWorker + fromWorker { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, toWorker[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromWorker[1], 1)
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
            close(toWorker[0])
            close(fromWorker[1])
            guard spawned == 0 else {
                close(toWorker[1])
                close(fromWorker[0])
                throw BenchError("cannot start \(command): error \(spawned)")
            }
            self.pid = pid
            requests = fdopen(toWorker[1], "w")
            answers = fdopen(fromWorker[0], "r")
            guard try readAnswer() == "ready" else { throw BenchError("\(command) did not start its parse worker") }
        }

        /// One parse's time in seconds.
        func parseOnce() throws -> Double {
            fputs("parse\n", requests)
            fflush(requests)
            let answer = try readAnswer()
            guard let nanoseconds = UInt64(answer) else { throw BenchError("\(command)'s parse worker: \(answer)") }
            return Double(nanoseconds) / 1e9
        }

        private func readAnswer() throws -> String {
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            defer { free(line) }
            guard getline(&line, &capacity, answers) > 0, let line else { throw BenchError("\(command)'s parse worker stopped") }
            return String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Closes its input, which ends it, and reaps it.
        func finish() {
            fclose(requests)
            fclose(answers)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}

extension ParseBench {
    /// The comparison's figures and table rows; zeros, and a row saying so, without feedparser-rs.
    static func addRows(_ comparison: (rss: Comparison, atom: Comparison)?, to table: inout BenchTable,
                        _ report: (String, Double) -> Void) {
        guard let comparison else {
            for key in ["parse_vs_feedparser_rs_ratio_rss", "parse_vs_feedparser_rs_ratio_atom"] { report(key, 0) }
            table.add("FeedCore / feedparser-rs", "feedparser-rs not installed (figures 0)", "")
            return
        }
        for (format, result) in [("rss", comparison.rss), ("atom", comparison.atom)] {
            report("parse_vs_feedparser_rs_ratio_\(format)", result.ratio)
            report("parse_alternated_mb_s_\(format)", result.oursMBs)
            report("feedparser_rs_mb_s_\(format)", result.theirsMBs)
            report("parse_instructions_per_byte_\(format)", result.oursInstructionsPerByte ?? 0)
            report("feedparser_rs_instructions_per_byte_\(format)", result.theirsInstructionsPerByte ?? 0)
            let name = format == "rss" ? "RSS" : "Atom"
            table.add("FeedCore / feedparser-rs, \(name), median of \(result.pairs) alternated pairs",
                      String(format: "%.2f× (%.1f / %.1f MB/s)", result.ratio, result.oursMBs, result.theirsMBs), "≥ 3×")
            table.add("  the pairs' ratios, lowest to highest", String(format: "%.2f× to %.2f×", result.lowest, result.highest), "")
            if let ours = result.oursInstructionsPerByte, let theirs = result.theirsInstructionsPerByte {
                table.add("  instructions a byte (callgrind), FeedCore / feedparser-rs",
                          String(format: "%.0f / %.0f (%.2f×)", ours, theirs, theirs / ours), "")
            } else {
                table.add("  instructions a byte", "valgrind not installed", "")
            }
        }
    }
}
