import Foundation

/// The probe (ReaderProbe/reader-probe.c) that the bench loads into the release feed-reader with
/// `LD_PRELOAD`: it watches the reader's frames through GTK's public API and reports what the
/// bench measures, so the app itself carries no bench code.
@MainActor
enum ReaderProbe {
    /// What the probe does in the reader.
    enum Mode: String {
        /// Reports the first painted frame showing entries, then quits the reader.
        case firstFrame = "first-frame"
        /// Scrolls to the end flick by flick, then reports peak memory and quits.
        case scrollToEnd = "scroll-to-end"
        /// Types texts into the search bar a key at a time, then reports each keystroke's main-thread CPU time and latency.
        case search
        /// Shows the first entry's article, then its full article; reports the time and memory of each.
        case article
    }

    private static var compiled: URL?

    /// The probe built for this run: compiled once with the system's C compiler against GTK 4's headers.
    static func library() throws -> URL {
        if let compiled { return compiled }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ReaderProbe/reader-probe.c")
        let output = BenchFiles.directory.appendingPathComponent("reader-probe.so")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // GTK's functions come from the window program when the probe calls them: linked to GTK,
        // the probe would load it into feed-reader's launcher too, and the bench would time that.
        process.arguments = ["-c", "cc -shared -fPIC -O2 -o \"$1\" \"$2\" $(pkg-config --cflags gtk4) $(pkg-config --libs gobject-2.0)", "sh",
                             output.path, source.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the reader probe did not compile (\(source.path)): cc exited with \(process.terminationStatus)")
        }
        compiled = output
        return output
    }

    /// The environment that loads the probe into a process in `mode`; `entries` is how many the
    /// list must hold before the scroll ends, `typed` what the search mode types.
    static func environment(_ mode: Mode, entries: Int, typed: [String] = []) throws -> [String: String] {
        ["LD_PRELOAD": try library().path, "REFRESH_BENCH_PROBE": mode.rawValue,
         "REFRESH_BENCH_PROBE_ENTRIES": String(entries), "REFRESH_BENCH_PROBE_TYPED": typed.joined(separator: "|")]
    }
}
