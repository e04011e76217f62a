import CGtk
import Foundation

/// What the About window shows from the AppStream metainfo the app ships: its web addresses,
/// its developer and the newest release's notes.
struct Metainfo {
    var homepage: String?
    var issueTracker: String?
    var developer: String?
    /// The newest release's version, and its notes as the markup AdwAboutWindow takes.
    var release: (version: String, notes: String)?

    /// The metainfo the app ships, if it is found and well-formed.
    @MainActor
    static var shipped: Metainfo? {
        file(in: AppData.directory).flatMap { try? String(contentsOf: $0, encoding: .utf8) }.flatMap(read)
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

    /// The metainfo in `text`; nil when it is not well-formed.
    static func read(_ text: String) -> Metainfo? {
        let reader = Reader()
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
        private var path: [String] = []
        private var urlType: String?
        private var text = ""
        private var version: String?
        private var notes = ""
        /// Whether the first release was read already: the newest comes first.
        private var releaseDone = false

        /// The elements release notes may hold, as AdwAboutWindow accepts them.
        private static let noteElements: Set<String> = ["p", "ul", "ol", "li", "em", "code"]

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
            if inNotes, Self.noteElements.contains(name) { notes += "<\(name)>" }
            path.append(name)
            text = ""
            switch path {
            case ["component", "url"]: urlType = attributes["type"]
            case ["component", "releases", "release"] where !releaseDone: version = attributes["version"]
            default: break
            }
        }

        func end(_ name: String) {
            let ended = path
            path.removeLast()
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
