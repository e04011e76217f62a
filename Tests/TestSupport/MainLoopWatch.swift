import CGtk
import Foundation
import RefreshGtk

/// Measures how long the main loop goes without running a short timer, while it is watched:
/// the time a person would see the window frozen.
@MainActor
public final class MainLoopWatch {
    /// The longest time between two runs of the timer, in seconds.
    public private(set) var longestGap = 0.0
    private var last = MainThread.now
    private var isWatching = true
    private static let interval = 0.01

    public init() {
        schedule()
    }

    /// Stops watching; `longestGap` stays as it was.
    public func stop() {
        isWatching = false
    }

    private func schedule() {
        MainThread.after(Self.interval) { [weak self] in
            guard let self, self.isWatching else { return }
            let now = MainThread.now
            self.longestGap = max(self.longestGap, now - self.last)
            self.last = now
            self.schedule()
        }
    }
}

/// The test process's memory as the kernel counts it.
public enum ProcessMemory {
    /// Resident memory now, in bytes.
    public static var resident: Int { status("VmRSS") }

    /// The most resident memory since the process started or `resetPeak()`, in bytes.
    public static var peak: Int { status("VmHWM") }

    /// Starts counting the peak again from the resident memory now.
    public static func resetPeak() {
        // "5" resets the peak resident set size (proc(5), clear_refs).
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        file.write(Data("5".utf8))
        try? file.close()
    }

    private static func status(_ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return kilobytes * 1024
    }
}
