import AppSupport
import CGtk
import Foundation

/// What the About window shows from the AppStream metainfo the app ships: its web addresses,
/// its developer and the newest release's notes, in the language shown where the metainfo has it
/// (its paragraphs and items carry `xml:lang` once installed, one copy per language).
struct Metainfo {
    var homepage: String?
    var issueTracker: String?
    var developer: String?
    /// The newest release's version, and its notes as the markup AdwAboutWindow takes.
    var release: (version: String, notes: String)?

    /// The metainfo the app ships, if it is found and well-formed.
    @MainActor
    static var shipped: Metainfo? {
        file(in: AppData.directory).flatMap { try? String(contentsOf: $0, encoding: .utf8) }.flatMap { read($0) }
    }

    /// Where the metainfo is: beside the data when run from a build tree, in share/metainfo when
    /// installed (the data folder is share/feed-reader).
    @MainActor
    static func file(in dataDirectory: URL) -> URL? {
        let name = "\(FeedReaderApp.applicationID).metainfo.xml"
        return [dataDirectory.appendingPathComponent(name),
                dataDirectory.deletingLastPathComponent().appendingPathComponent("metainfo").appendingPathComponent(name)]
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The metainfo in `text`, its notes in the first of `languages` (gettext's names, most wanted
    /// first) that each paragraph has, else untranslated; nil when it is not well-formed.
    static func read(_ text: String, languages: [String] = ChosenLanguage.languageNames) -> Metainfo? {
        let reader = Reader(languages: languages)
        var parser = GMarkupParser(
            start_element: { _, name, names, values, data, _ in
                guard let name, let data else { return }
                Unmanaged<Reader>.fromOpaque(data).takeUnretainedValue().start(String(cString: name), Reader.attributes(names, values))
            },
            end_element: { _, name, data, _ in
                guard let name, let data else { return }
                Unmanaged<Reader>.fromOpaque(data).takeUnretainedValue().end(String(cString: name))
            },
            text: { _, text, length, data, _ in
                guard let text, let data else { return }
                let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
                Unmanaged<Reader>.fromOpaque(data).takeUnretainedValue().text(String(decoding: bytes, as: UTF8.self))
            },
            passthrough: nil, error: nil)
        let context = g_markup_parse_context_new(&parser, GMarkupParseFlags(0), Unmanaged.passUnretained(reader).toOpaque(), nil)
        defer { g_markup_parse_context_free(context) }
        var error: UnsafeMutablePointer<GError>?
        defer { g_clear_error(&error) }
        guard g_markup_parse_context_parse(context, text, -1, &error) != 0, g_markup_parse_context_end_parse(context, &error) != 0 else {
            return nil
        }
        return reader.metainfo
    }

    /// Follows the elements as GMarkup reports them.
    private final class Reader {
        var metainfo = Metainfo()
        /// The languages wanted, most wanted first.
        private let languages: [String]
        /// Inside an element of a language not shown, or not better than one shown already: how
        /// deep, so its text and children are left out.
        private var skippedDepth = 0
        /// Where in `notes` the paragraph or item being translated began, with how well the
        /// copy kept there matches (`Int.max`: untranslated), so a better copy replaces it.
        private var translatable: (start: Int, rank: Int)?
        private var path: [String] = []
        private var urlType: String?
        private var text = ""
        private var version: String?
        private var notes = ""
        /// Whether the first release was read already: the newest comes first.
        private var releaseDone = false

        /// The elements release notes may hold, as AdwAboutWindow accepts them.
        private static let noteElements: Set<String> = ["p", "ul", "ol", "li", "em", "code"]
        /// The notes' elements a translation copies, each copy with its `xml:lang`.
        private static let translatedElements: Set<String> = ["p", "li"]

        init(languages: [String]) {
            self.languages = languages
        }

        /// How well `language` (an `xml:lang`, "pt-BR" or "pt_BR") matches the languages wanted:
        /// 0 best; nil when it is not wanted.
        private func rank(of language: String) -> Int? {
            languages.firstIndex(of: language.replacingOccurrences(of: "-", with: "_"))
        }

        static func attributes(_ names: UnsafeMutablePointer<UnsafePointer<gchar>?>?,
                               _ values: UnsafeMutablePointer<UnsafePointer<gchar>?>?) -> [String: String] {
            var result: [String: String] = [:]
            guard let names, let values else { return result }
            var index = 0
            while let name = names[index], let value = values[index] {
                result[String(cString: name)] = String(cString: value)
                index += 1
            }
            return result
        }

        private var inNotes: Bool { !releaseDone && version != nil && path.contains("description") && path.contains("release") }

        func start(_ name: String, _ attributes: [String: String]) {
            path.append(name)
            if skippedDepth > 0 || !choose(name, language: attributes["xml:lang"]) {
                skippedDepth += 1
                return
            }
            if inNotes, Self.noteElements.contains(name) { notes += "<\(name)>" }
            text = ""
            switch path {
            case ["component", "url"]: urlType = attributes["type"]
            case ["component", "releases", "release"] where !releaseDone: version = attributes["version"]
            default: break
            }
        }

        /// Whether the element `name` in `language` (nil: untranslated) is read: an untranslated
        /// paragraph is, until a copy in a language wanted replaces it; other languages are not.
        private func choose(_ name: String, language: String?) -> Bool {
            guard let language else {
                if inNotes, Self.translatedElements.contains(name) { translatable = (notes.utf8.count, Int.max) }
                return true
            }
            guard let rank = rank(of: language) else { return false }
            guard inNotes, Self.translatedElements.contains(name) else { return true }
            guard let shown = translatable, rank < shown.rank else { return false }
            notes = String(notes.utf8.prefix(shown.start))!
            translatable = (shown.start, rank)
            return true
        }

        func end(_ name: String) {
            let ended = path
            path.removeLast()
            if skippedDepth > 0 {
                skippedDepth -= 1
                return
            }
            if inNotes, Self.noteElements.contains(name) { notes += "</\(name)>" }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            text = ""
            switch ended {
            case ["component", "url"] where urlType == "homepage": metainfo.homepage = value
            case ["component", "url"] where urlType == "bugtracker": metainfo.issueTracker = value
            case ["component", "developer", "name"], ["component", "developer_name"]: metainfo.developer = value
            case ["component", "releases", "release"] where !releaseDone:
                releaseDone = true
                if let version { metainfo.release = (version, notes) }
            default: break
            }
        }

        func text(_ chunk: String) {
            guard skippedDepth == 0 else { return }
            text += chunk
            guard inNotes, chunk.contains(where: { !$0.isWhitespace }) else { return }
            // GMarkup hands text unescaped; the notes are markup again.
            let collapsed = chunk.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let atBlockStart = ["<p>", "<li>", "<ul>", "<ol>"].contains { notes.hasSuffix($0) }
            let leading = chunk.first?.isWhitespace == true && !atBlockStart ? " " : ""
            let trailing = chunk.last?.isWhitespace == true ? " " : ""
            notes += leading + Self.escaped(collapsed) + trailing
        }

        private static func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
    }
}
