import Foundation

/// Where the app's bundled data is: `$FEED_READER_DATADIR`, the source tree's `data/` when run
/// from a build folder, or the installed prefix's `share/feed-reader`.
enum AppData {
    static let directory: URL = {
        let environment = ProcessInfo.processInfo.environment
        if let dir = environment["FEED_READER_DATADIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // A SwiftPM build runs from <tree>/.build/<triple>/<config>/: look upwards for data/.
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent("data/sample-feeds")
            if FileManager.default.fileExists(atPath: candidate.path) { return folder.appendingPathComponent("data") }
            folder = folder.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/feed-reader")
    }()

    static var sampleFeeds: URL { directory.appendingPathComponent("sample-feeds") }
}
