import Foundation
import RefreshCore

/// The Gif pages' image files under data/gallery: a ball that grows with the pull (idle),
/// wobbles past the threshold (pulling) and spins while loading (refreshing).
enum GalleryFrames {
    /// Where the frames are: `$REFRESH_GALLERY_DATADIR`, else `data/gallery` found upwards from
    /// the executable (a SwiftPM build folder inside the source tree), else in the source tree
    /// this file was compiled from.
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["REFRESH_GALLERY_DATADIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent("data/gallery")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("idle-00.png").path) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/gallery")
    }()

    /// Frames per state, and the file name prefix they have.
    static let counts: [(state: RefreshState, prefix: String, count: Int)] = [
        (.idle, "idle", 10), (.pulling, "pulling", 3), (.refreshing, "refreshing", 8),
    ]

    /// The image paths of `state`, in order.
    static func paths(for state: RefreshState) -> [String] {
        guard let entry = counts.first(where: { $0.state == state }) else { return [] }
        return (0..<entry.count).map { index in
            let number = index < 10 ? "0\(index)" : "\(index)"
            return directory.appendingPathComponent("\(entry.prefix)-\(number).png").path
        }
    }
}
