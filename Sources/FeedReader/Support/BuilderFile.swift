import CGtk
import Foundation
import RefreshGtk

/// A GtkBuilder file of the registered resource bundle (AppResources), read once, whose objects
/// are taken by id. Its texts marked `translatable="yes"` come out in the language chosen at
/// run time (``translated(_:)``), which gettext's lookups in GtkBuilder would not follow; a part
/// that outlives a language switch builds its file again, or has its file's texts on properties
/// and accessible names follow the language (``LanguageTexts``).
@MainActor
final class BuilderFile {
    /// The file's path under the application's resource base path, such as "views/window.ui".
    let path: String
    private let builder: OpaquePointer

    /// The file at `path`; when `followingLanguage`, its texts on properties and accessible names
    /// are shown again in the new language after each language switch, as long as their objects live.
    init(_ path: String, followingLanguage: Bool = false) {
        self.path = path
        builder = gtk_builder_new()
        _ = AppResources.register()
        // A file missing from the bundle or not well-formed is a build mistake, found by the
        // first test that loads it.
        guard let xml = Self.resourceText(AppResources.basePath + path), let translated = Self.translating(xml) else {
            preconditionFailure("\(path) is not a well-formed file of the resource bundle")
        }
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_string(builder, translated.xml, -1, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? ""
            preconditionFailure("\(path): \(message)")
        }
        guard followingLanguage else { return }
        for text in translated.texts {
            LanguageTexts.keep(object(text.objectID) as UnsafeMutablePointer<GObject>, text.place) { text.translation }
        }
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

    /// The widget `id`.
    func widget(_ id: String) -> UnsafeMutablePointer<GtkWidget> { object(id) }

    /// The UTF-8 text of the resource at `path`, nil when the bundle has none.
    private static func resourceText(_ path: String) -> String? {
        guard let bytes = g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    }
}
