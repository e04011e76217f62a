import CGtk
import Foundation
import Synchronization

/// The library's own gettext domain, `refreshgtk`, bound to a folder of compiled catalogs.
///
/// Lookups follow the languages chosen with ``RefreshLocalization/setLanguage(_:)``, read from
/// the domain's catalogs directly: glibc's gettext picks the language from `LANGUAGE`, which only
/// `setenv` changes, and `setenv` is undefined behaviour while other threads may call `getenv`.
/// With none chosen, gettext's: `LANGUAGE` or the locale.
struct LibraryDomain: Sendable {
    let name: String
    /// The folder the domain is bound to.
    let localeDirectory: String

    /// Binds `name` to `localeDirectory` (by default ``defaultLocaleDirectory()``), in UTF-8.
    init(_ name: String, localeDirectory: String = Self.defaultLocaleDirectory()) {
        self.name = name
        self.localeDirectory = localeDirectory
        bindtextdomain(name, localeDirectory)
        bind_textdomain_codeset(name, "UTF-8")
    }

    /// The translation of `msgid`, or `msgid` itself when there is none.
    func string(_ msgid: String) -> String {
        // An empty msgid would return the catalog's header.
        guard !msgid.isEmpty else { return msgid }
        if let catalogs = ChosenCatalogs.catalogs(of: self) {
            return catalogs.lazy.compactMap { $0[msgid] }.first ?? msgid
        }
        // dgettext returns its msgid argument when there is no translation: the bridged C string
        // must stay alive until it is copied, so the copy happens inside withCString.
        return msgid.withCString { String(cString: dgettext(name, $0)) }
    }

    /// The languages with a compiled catalog of this domain in its folder, sorted.
    var catalogLanguages: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: localeDirectory)) ?? []
        return entries.filter { FileManager.default.fileExists(atPath: catalogPath($0)) }.sorted()
    }

    func catalogPath(_ language: String) -> String {
        "\(localeDirectory)/\(language)/LC_MESSAGES/\(name).mo"
    }

    /// Where the library's catalogs are: `$REFRESHGTK_LOCALEDIR`; else `locale` in the
    /// executable's folder or one of the three above it (a SwiftPM build folder in the source
    /// tree, where meson-helpers/compile-po puts them); else the installed prefix's `share/locale`
    /// (PREFIX/bin/program or PREFIX/libexec/package/program); else /usr/share/locale.
    static func defaultLocaleDirectory() -> String {
        if let folder = ProcessInfo.processInfo.environment["REFRESHGTK_LOCALEDIR"], !folder.isEmpty { return folder }
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "")
        let programFolder = executable.deletingLastPathComponent()
        var folder = programFolder
        for _ in 0..<4 where folder.path != "/" {
            // A folder, not anything by that name: installed as /usr/bin/program, `locale` beside
            // it is glibc's program.
            var isFolder: ObjCBool = false
            let candidate = folder.appendingPathComponent("locale").path
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), isFolder.boolValue { return candidate }
            folder.deleteLastPathComponent()
        }
        let prefix = programFolder.deletingLastPathComponent().lastPathComponent == "libexec"
            ? programFolder.deletingLastPathComponent().deletingLastPathComponent()
            : programFolder.deletingLastPathComponent()
        let installed = prefix.appendingPathComponent("share/locale").path
        return FileManager.default.fileExists(atPath: installed) ? installed : "/usr/share/locale"
    }
}

/// The languages chosen for the library's texts, and the catalogs read for them.
///
/// Lookups come from any thread (an app's tasks format texts too), so both sit behind a lock.
enum ChosenCatalogs {
    private struct State: Sendable {
        var languages: [String]?
        /// Catalogs by path, nil where none could be read.
        var catalogs: [String: [String: String]?] = [:]
    }

    private static let state = Mutex(State())

    /// Chooses `languages`, most wanted first (nil: the system's, through gettext).
    static func set(_ languages: [String]?) {
        state.withLock { $0.languages = languages }
    }

    /// The translations of `domain` to look in, in order; nil when gettext decides.
    static func catalogs(of domain: LibraryDomain) -> [[String: String]]? {
        state.withLock { state in
            guard let languages = state.languages else { return nil }
            return languages.flatMap(fallbacks).compactMap { language in
                let path = domain.catalogPath(language)
                if let known = state.catalogs[path] { return known }
                let catalog = CompiledCatalog.translations(at: path)
                state.catalogs[path] = .some(catalog)
                return catalog
            }
        }
    }

    /// The catalog folders gettext would try for `language`: `pt_BR@x`, `pt_BR`, `pt@x`, `pt`.
    static func fallbacks(_ language: String) -> [String] {
        let modifier = language.firstIndex(of: "@").map { String(language[$0...]) } ?? ""
        let name = String(language.prefix { $0 != "@" })
        let base = String(name.prefix { $0 != "_" })
        var candidates = [language, name, base + modifier, base]
        var seen = Set<String>()
        candidates.removeAll { !seen.insert($0).inserted }
        return candidates
    }
}

/// A compiled gettext catalog (`.mo`): the library's texts have no plural forms, so each
/// message's first translation is all it needs.
enum CompiledCatalog {
    /// The translations by msgid of the catalog at `path`; nil when it is missing or not a catalog.
    static func translations(at path: String) -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 20 else { return nil }
        let bytes = [UInt8](data)
        let bigEndian: Bool
        switch word(bytes, 0, bigEndian: false) {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: return nil
        }
        let count = Int(word(bytes, 8, bigEndian: bigEndian))
        let originals = Int(word(bytes, 12, bigEndian: bigEndian)), translated = Int(word(bytes, 16, bigEndian: bigEndian))
        guard originals + count * 8 <= bytes.count, translated + count * 8 <= bytes.count else { return nil }
        // The text of entry `index` of the table at `table`, up to its first NUL (a plural's first form).
        func text(_ table: Int, _ index: Int) -> String? {
            let length = Int(word(bytes, table + index * 8, bigEndian: bigEndian))
            let start = Int(word(bytes, table + index * 8 + 4, bigEndian: bigEndian))
            guard start + length <= bytes.count else { return nil }
            return String(decoding: bytes[start..<start + length].prefix { $0 != 0 }, as: UTF8.self)
        }
        var messages: [String: String] = [:]
        for index in 0..<count {
            guard let msgid = text(originals, index), let translation = text(translated, index) else { return nil }
            if !msgid.isEmpty, !translation.isEmpty { messages[msgid] = translation }
        }
        return messages
    }

    private static func word(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        let value = bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bigEndian ? value.byteSwapped : value
    }
}
