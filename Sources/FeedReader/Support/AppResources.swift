import AppSupport
import CGtk
import Foundation
import RefreshGtk

/// The window's layout, dialogs and style sheet, compiled into one GResource bundle
/// (meson-helpers/compile-resources) and registered under the application's base path.
@MainActor
enum AppResources {
    /// The application's resource base path: GtkApplication finds gtk/help-overlay.ui under it,
    /// AdwApplication style.css.
    static let basePath = "/io/github/refreshgtk/FeedReader/"

    static let fileName = "feed-reader.gresource"

    /// Makes `application` look under ``basePath`` whatever its id, before it starts: GtkApplication
    /// loads gtk/help-overlay.ui from there as each window is added, AdwApplication style.css at startup.
    static func attach(to application: UnsafeMutablePointer<GtkApplication>) {
        g_application_set_resource_base_path(cast(application), String(basePath.dropLast()))
    }

    /// The bundle: `$FEED_READER_GRESOURCE`, else beside the executable in a build tree, else
    /// PREFIX/share/feed-reader/feed-reader.gresource for an executable installed as PREFIX/bin/feed-reader.
    static var file: URL {
        DataDirectory.findFile(environmentVariable: "FEED_READER_GRESOURCE", buildTreePath: fileName,
                           installedPath: "share/feed-reader/" + fileName)
    }

    /// Why the bundle could not be registered, or nil once it is.
    private(set) static var failure: String?
    private static var isRegistered = false

    /// Loads and registers the bundle once, before anything builds from it; returns whether it is there.
    /// Cheap: GLib maps the file.
    @discardableResult
    static func register() -> Bool {
        if isRegistered { return true }
        let path = file.path
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_load(path, &error) else {
            failure = error.map { String(cString: $0.pointee.message) } ?? path
            g_clear_error(&error)
            return false
        }
        g_resources_register(resource)
        g_resource_unref(resource)
        isRegistered = true
        failure = nil
        return true
    }

    /// What the window says when the bundle is missing, in the current language.
    static var missingMessage: String {
        // TRANSLATORS: %@ is the path of the file holding the window's layout, which was not found.
        tr("Feed Reader is not installed completely: %@ is missing or damaged. Build it with meson-helpers/run, or install it again.")
            .filling(file.path)
    }
}
