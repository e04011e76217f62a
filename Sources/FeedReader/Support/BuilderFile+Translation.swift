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
    static func translated(_ xml: String) -> String? { translating(xml)?.xml }

    /// `xml` translated as ``translated(_:)`` does, and the texts it translated on its objects'
    /// properties and accessible names, by object id, for ``LanguageTexts`` to show again after a
    /// language switch. An object without an id is given one.
    static func translating(_ xml: String) -> (xml: String, texts: [TranslatedText])? {
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
        return (writer.output, writer.texts)
    }
}

/// A text of a GtkBuilder file marked for translation, on an object's property or accessible name.
struct TranslatedText {
    let objectID: String
    let place: LanguageTexts.Place
    /// The text as written in the file, and its context.
    let source: String
    let context: String?

    /// The text in the current language.
    var translation: String { context.map { tr(source, context: $0) } ?? tr(source) }
}

/// Writes a GtkBuilder file back out as GMarkup reads it, its translatable texts translated.
private final class TranslatingWriter {
    /// What becomes of each open element's text.
    private enum Text {
        case kept
        case translated(context: String?)
    }

    private var open: [Text] = []
    /// The names of the elements open, outermost first, and the ids of the objects open.
    private var elements: [String] = []
    private var objectIDs: [String] = []
    private var generatedIDs = 0
    private var pendingText = ""
    /// Where the text being read goes, when it is a property or accessible name to keep.
    private var pendingPlace: LanguageTexts.Place?
    private(set) var output = ""
    private(set) var texts: [TranslatedText] = []

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
        if name == "object" {
            if let id = attributes.first(where: { $0.0 == "id" })?.1 {
                objectIDs.append(id)
            } else {
                generatedIDs += 1
                let id = "translated-object-\(generatedIDs)"
                attributes.append(("id", id))
                objectIDs.append(id)
            }
        }
        let isTranslatable = attributes.contains { $0.0 == "translatable" && ["yes", "true", "1"].contains($0.1.lowercased()) }
        pendingPlace = isTranslatable && name == "property" ? place(of: attributes.first { $0.0 == "name" }?.1 ?? "") : nil
        elements.append(name)
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
        elements.removeLast()
        if case let .translated(context) = open.popLast() ?? .kept {
            if let pendingPlace, let objectID = objectIDs.last {
                texts.append(TranslatedText(objectID: objectID, place: pendingPlace, source: pendingText, context: context))
            }
            output += Self.escaped(context.map { tr(pendingText, context: $0) } ?? tr(pendingText))
            pendingText = ""
            pendingPlace = nil
        } else {
            flushText()
        }
        output += "</" + name + ">"
        if name == "object" { objectIDs.removeLast() }
    }

    /// Where a translatable property `name` of the element open goes: an object's property, or
    /// its name or description for screen readers inside its `<accessibility>`.
    private func place(of name: String) -> LanguageTexts.Place? {
        switch elements.last {
        case "object": .property(name)
        case "accessibility" where name == "label": .accessibleLabel
        case "accessibility" where name == "description": .accessibleDescription
        default: nil
        }
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
