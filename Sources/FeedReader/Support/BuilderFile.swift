import CGtk
import RefreshGtk

/// A GtkBuilder file of the registered resource bundle (AppResources), read once, whose objects
/// are taken by id. Texts are not in the files: they are set from Swift in the language chosen
/// at run time, which gettext's lookups in GtkBuilder would not follow.
@MainActor
final class BuilderFile {
    /// The file's path under the application's resource base path, such as "views/window.ui".
    let path: String
    private let builder: OpaquePointer

    init(_ path: String) {
        self.path = path
        builder = gtk_builder_new_from_resource(AppResources.basePath + path)
    }

    isolated deinit {
        g_object_unref(cast(builder))
    }

    /// The object `id`; a file without it is a build mistake, found by the first test that loads it.
    func object<T>(_ id: String) -> UnsafeMutablePointer<T> {
        guard let object = gtk_builder_get_object(builder, id) else { preconditionFailure("\(path) has no \(id)") }
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: T.self)
    }

    /// The object `id` of a type Swift sees as opaque (libadwaita's final types, menus).
    func opaque(_ id: String) -> OpaquePointer {
        OpaquePointer(object(id) as UnsafeMutablePointer<GObject>)
    }
}
