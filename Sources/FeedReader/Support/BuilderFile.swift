import CGtk
import Foundation
import RefreshGtk

/// A GtkBuilder file of the registered resource bundle (AppResources), read once, whose objects
/// are taken by id.
///
/// Its `translatable="yes"` texts are translated as it loads, through the app's catalogs in the
/// language chosen at run time (`tr`, with the element's `context`): GtkBuilder's own lookups go
/// through gettext, which follows only the process's locale, not a language switched live. A part
/// built again from its file after a switch therefore speaks the new language.
@MainActor
final class BuilderFile {
    /// The file's path under the application's resource base path, such as "views/window.ui".
    let path: String
    private let builder: OpaquePointer

    init(_ path: String) {
        self.path = path
        builder = gtk_builder_new()
        AppResources.register()
        let text = Self.translated(Self.resourceText(AppResources.basePath + path))
        var error: UnsafeMutablePointer<GError>?
        if gtk_builder_add_from_string(builder, text, -1, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "?"
            g_clear_error(&error)
            preconditionFailure("\(path) does not load: \(message)")
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

    /// The text of the resource at `path`; a missing one is a build mistake.
    private static func resourceText(_ path: String) -> String {
        guard let bytes = g_resources_lookup_data(path, GResourceLookupFlags(0), nil) else {
            preconditionFailure("the resource bundle has no \(path)")
        }
        defer { g_bytes_unref(bytes) }
        var size = 0
        let data = g_bytes_get_data(bytes, &size)
        return String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    }

    /// An element marked for translation: `<name … translatable="yes" …>text</name>`, its text
    /// free of markup (GtkBuilder allows none inside a translatable property either).
    private static let translatable =
        /<(?<name>[A-Za-z][\w:-]*)(?<attributes>[^>]*?\stranslatable="yes"[^>]*)>(?<text>[^<]*)<\/\k<name>>/

    /// `xml` with every translatable text translated, and the marks that asked for it dropped,
    /// so GtkBuilder shows the text as it is.
    static func translated(_ xml: String) -> String {
        xml.replacing(translatable) { match in
            let attributes = String(match.output.attributes)
            let context = attribute("context", in: attributes)
            let text = unescaped(String(match.output.text))
            let translation = context.map { tr(context: $0, text) } ?? tr(text)
            let kept = attributes.replacing(/\s(translatable|context|comments)="[^"]*"/, with: "")
            return "<\(match.output.name)\(kept)>\(escaped(translation))</\(match.output.name)>"
        }
    }

    private static func attribute(_ name: String, in attributes: String) -> String? {
        attributes.firstMatch(of: try! Regex("\\s\(name)=\"([^\"]*)\""))
            .flatMap { $0.output[1].substring.map { unescaped(String($0)) } }
    }

    /// XML's five named entities and its numeric references, as text.
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacing(/&(#x[0-9A-Fa-f]+|#[0-9]+|amp|lt|gt|quot|apos);/) { match in
            let name = match.output.1
            switch name {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst())
                return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? String(match.output.0)
            }
        }
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
