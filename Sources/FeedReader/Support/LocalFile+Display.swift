import CGtk
import FeedCore

extension LocalFile {
    /// The file a GFile names (from a file chooser or a drop), by the bytes of its path; nil
    /// when it is not a local file.
    init?(_ file: OpaquePointer) {
        guard let path = g_file_get_path(file) else { return nil }
        defer { g_free(path) }
        self.init(fileSystemPath: path)
    }

    /// The path as GLib shows file names to people (`g_filename_display_name`): converted from
    /// the file names' encoding (`G_FILENAME_ENCODING`, UTF-8 by default), with what cannot be
    /// converted shown as U+FFFD. For reading only: the file itself is named by ``path``.
    var displayName: String {
        guard let name = g_filename_display_name(path) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }
}
