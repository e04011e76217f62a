import AppSupport
import CGtk
import Foundation
import RefreshGtk

/// Where the app's bundled data is: `$FEED_READER_DATADIR`, the source tree's `data/` when run
/// from a build folder, or the installed prefix's `share/feed-reader`.
enum AppData {
    static let directory = DataDirectory.find(environmentVariable: "FEED_READER_DATADIR", buildTreePath: "data",
                                              installedPath: "share/feed-reader")

    static var sampleFeeds: URL { directory.appendingPathComponent("sample-feeds") }

    /// The source tree's icons, which only an install puts where the icon theme looks.
    static var buildTreeIcons: URL { directory.appendingPathComponent("icons") }

    /// Lets the icon theme find the app's own icon when it runs from a build tree; an installed
    /// app's icons are in the theme's hicolor folder already.
    @MainActor
    static func addBuildTreeIcons() {
        guard FileManager.default.fileExists(atPath: buildTreeIcons.appendingPathComponent("hicolor").path) else { return }
        gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(gdk_display_get_default()), buildTreeIcons.path)
    }
}
