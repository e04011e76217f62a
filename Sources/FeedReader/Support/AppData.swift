import Foundation
import RefreshGtk

/// Where the app's bundled data is: `$FEED_READER_DATADIR`, the source tree's `data/` when run
/// from a build folder, or the installed prefix's `share/feed-reader`.
enum AppData {
    static let directory = DataDirectory.find(environmentVariable: "FEED_READER_DATADIR", buildTreePath: "data",
                                              installedPath: "share/feed-reader")

    static var sampleFeeds: URL { directory.appendingPathComponent("sample-feeds") }
}
