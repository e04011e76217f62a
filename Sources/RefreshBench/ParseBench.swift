import FeedCore
import Foundation

/// `parse_mb_s_*` and `feedparser_mb_s_*`: the same generated files parsed by FeedCore and, in a
/// Python subprocess, by feedparser when it is installed. FeedCore against feedparser-rs, in
/// alternation, is `ParseBench+FeedparserRS.swift`.
enum ParseBench {
    struct Files {
        let rss: URL
        let atom: URL
        let rssBytes: Int
        let atomBytes: Int
    }

    /// Writes the two feeds of `items` items (by default the run's size), `prefix` naming the files.
    static func generate(_ options: BenchOptions, items: Int? = nil, prefix: String = "bench") throws -> Files {
        let items = items ?? options.feedItems
        let generator = FeedGenerator(items: items, targetBytes: items * 500)
        let rss = generator.rss(), atom = generator.atom()
        let rssURL = BenchFiles.directory.appendingPathComponent("\(prefix)-rss.xml")
        let atomURL = BenchFiles.directory.appendingPathComponent("\(prefix)-atom.xml")
        try rss.write(to: rssURL)
        try atom.write(to: atomURL)
        return Files(rss: rssURL, atom: atomURL, rssBytes: rss.count, atomBytes: atom.count)
    }

    /// FeedCore's throughput on `file` in MB/s (10^6 bytes), median of the runs; fails loudly
    /// when the file does not parse to every item, since a fast wrong parse proves nothing.
    static func feedCore(_ file: URL, expectedEntries: Int, _ options: BenchOptions) throws -> Double {
        let data = try Data(contentsOf: file)
        let parser = FeedParser()
        for _ in 0..<options.warmUps { _ = try parser.parse(data) }
        var rates: [Double] = []
        for _ in 0..<options.runs {
            var count = 0
            let elapsed = try Clock.time { count = try parser.parse(data).entries.count }
            guard count == expectedEntries else {
                throw BenchError("FeedCore parsed \(count) entries of \(expectedEntries) from \(file.lastPathComponent)")
            }
            rates.append(Double(data.count) / 1e6 / (Double(elapsed) / 1e9))
        }
        return Stats.median(rates)
    }

    /// The Python the bench runs: `$REFRESH_BENCH_PYTHON` (the bench script's venv), else `python3`.
    static var python: String { ProcessInfo.processInfo.environment["REFRESH_BENCH_PYTHON"] ?? "python3" }

    /// A Python module's throughput on each file in MB/s, or nil when the module (or Python) is
    /// not there.
    static func python(module: String, files: [URL], expectedEntries: Int, _ options: BenchOptions) -> [URL: Double]? {
        // feedparser is ~100 times slower than FeedCore: fewer runs keep the bench to minutes.
        let runs = options.quick ? 1 : 5, warmUps = options.quick ? 0 : 1
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-c", pythonScript, module, "\(runs)", "\(warmUps)"] + files.map(\.path)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: [String: Double]] else { return nil }
        var rates: [URL: Double] = [:]
        for file in files {
            guard let result = object[file.path], let rate = result["mb_s"], let entries = result["entries"],
                  Int(entries) == expectedEntries else { return nil }
            rates[file] = rate
        }
        return rates
    }

    /// Times `module.parse(bytes)` on each file: the document already in memory, as for FeedCore.
    private static let pythonScript = """
        import importlib, json, statistics, sys, time
        module = importlib.import_module(sys.argv[1])
        runs, warm_ups = int(sys.argv[2]), int(sys.argv[3])
        results = {}
        for path in sys.argv[4:]:
            with open(path, "rb") as f:
                data = f.read()
            for _ in range(warm_ups):
                module.parse(data)
            rates, entries = [], 0
            for _ in range(runs):
                start = time.perf_counter()
                parsed = module.parse(data)
                elapsed = time.perf_counter() - start
                entries = len(parsed["entries"])
                rates.append(len(data) / 1e6 / elapsed)
            results[path] = {"mb_s": statistics.median(rates), "entries": entries}
        print(json.dumps(results))
        """
}

/// A failure that stops the bench with a message.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
