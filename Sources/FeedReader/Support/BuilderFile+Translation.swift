import CGtk
import ReaderCommands

extension BuilderFile {
    /// `xml`, a GtkBuilder file, with each text marked `translatable="yes"` replaced by its
    /// translation through the app's catalogs (``tr(_:)``, or ``tr(_:context:)`` where it has a
    /// `context`), and the marks dropped, so that GtkBuilder does not look it up again.
    ///
    /// GtkBuilder would translate through gettext itself, in the language the process started
    /// in; the app's catalogs follow the language chosen in Preferences while the app runs.
    /// Nil when `xml` is not well-formed.
    static func translated(_ xml: String) -> String? {
        let writer = TranslatingWriter()
        var parser = GMarkupParser()
        parser.start_element = { _, name, names, values, data, _ in
            TranslatingWriter.from(data).start(String(cString: name!), names: names, values: values)
        }
        parser.end_element = { _, name, data, _ in
            TranslatingWriter.from(data).end(String(cString: name!))
        }
        parser.text = { _, text, length, data, _ in
            TranslatingWriter.from(data).text(String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self))
        }
        let box = Unmanaged.passUnretained(writer).toOpaque()
        let context = g_markup_parse_context_new(&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, box, nil)
        defer { g_markup_parse_context_free(context) }
        var error: UnsafeMutablePointer<GError>?
        defer { g_clear_error(&error) }
        let parsed = xml.withCString { g_markup_parse_context_parse(context, $0, -1, &error) != 0 }
        guard parsed, g_markup_parse_context_end_parse(context, &error) != 0 else { return nil }
        return writer.output
    }
}

/// Writes a GtkBuilder file back out as GMarkup reads it, its translatable texts translated.
private final class TranslatingWriter {
    /// What becomes of each open element's text.
    private enum Text {
        case kept
        case translated(context: String?)
    }

    private var open: [Text] = []
    private var pendingText = ""
    private(set) var output = ""

    static func from(_ data: gpointer?) -> TranslatingWriter {
        Unmanaged<TranslatingWriter>.fromOpaque(data!).takeUnretainedValue()
    }

    func start(_ name: String, names: UnsafeMutablePointer<UnsafePointer<gchar>?>?, values: UnsafeMutablePointer<UnsafePointer<gchar>?>?) {
        flushText()
        var attributes: [(String, String)] = []
        var index = 0
        while let name = names?[index], let value = values?[index] {
            attributes.append((String(cString: name), String(cString: value)))
            index += 1
        }
        let isTranslatable = attributes.contains { $0.0 == "translatable" && ["yes", "true", "1"].contains($0.1.lowercased()) }
        if isTranslatable {
            open.append(.translated(context: attributes.first { $0.0 == "context" }?.1))
            attributes.removeAll { ["translatable", "context", "comments"].contains($0.0) }
        } else {
            open.append(.kept)
        }
        output += "<" + name + attributes.map { " \($0.0)=\"\(Self.escaped($0.1))\"" }.joined() + ">"
    }

    func text(_ text: String) {
        pendingText += text
    }

    func end(_ name: String) {
        if case let .translated(context) = open.popLast() ?? .kept {
            output += Self.escaped(context.map { tr(pendingText, context: $0) } ?? tr(pendingText))
            pendingText = ""
        } else {
            flushText()
        }
        output += "</" + name + ">"
    }

    private func flushText() {
        output += Self.escaped(pendingText)
        pendingText = ""
    }

    private static func escaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
