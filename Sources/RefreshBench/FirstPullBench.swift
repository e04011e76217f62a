import Foundation

/// The first pull frame in a freshly started process, where fonts, glyph caches and the
/// indicator's first render are cold. Each run is a new `refresh-bench --first-pull-frame`
/// process that shows the pull bench's window for as long as a person takes to reach for the
/// touchpad, then times one frame from the first delta to its render.
@MainActor
enum FirstPullBench {
    static let childFlag = "--first-pull-frame"
    /// How long the window shows before the first delta.
    static let secondsBeforeFirstDelta = 0.5

    /// In the parent: the median over `options.runs` fresh processes, in milliseconds.
    static func run(_ options: BenchOptions) throws -> Double {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var times: [Double] = []
        for _ in 0..<options.runs {
            let process = Process()
            let output = Pipe()
            process.executableURL = me
            process.arguments = [childFlag]
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0,
                  let milliseconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError("\(childFlag) exited with \(process.terminationStatus): \(text)")
            }
            times.append(milliseconds)
        }
        return Stats.median(times)
    }

    /// In the child: the first pull frame's milliseconds.
    static func measureInThisProcess() -> Double {
        let ours = PullBench.OurWindow(content: .listView)
        ours.window.settle(seconds: secondsBeforeFirstDelta)
        return ours.firstPullFrame()
    }
}
