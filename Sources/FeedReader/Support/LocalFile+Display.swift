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
}
