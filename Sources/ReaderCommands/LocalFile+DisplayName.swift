import CGLib
import FeedCore

extension LocalFile {
    /// The path as GLib shows file names to people (`g_filename_display_name`): converted from
    /// the file names' encoding (`G_FILENAME_ENCODING`, UTF-8 by default), with what cannot be
    /// converted shown as U+FFFD. For reading only: the file itself is named by ``path``.
    public var displayName: String {
        guard let name = g_filename_display_name(path) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }
}
