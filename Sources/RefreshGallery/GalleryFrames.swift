import AppSupport
import Foundation
import RefreshCore
import RefreshGtk

/// The Gif pages' image files under data/gallery: a ball that grows with the pull (idle),
/// wobbles past the threshold (pulling) and spins while loading (refreshing).
enum GalleryFrames {
    /// Where the frames are: `$REFRESH_GALLERY_DATADIR`, else `data/gallery` found upwards from
    /// the executable (a SwiftPM build folder inside the source tree).
    static let directory = DataDirectory.find(environmentVariable: "REFRESH_GALLERY_DATADIR", buildTreePath: "data/gallery",
                                              installedPath: "share/refresh-gallery")

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
