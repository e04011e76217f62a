import CGLib
import Foundation
import Synchronization

/// A gettext text domain bound to a folder of compiled catalogs: the library's own
/// (`refreshgtk`) and an app's.
///
/// Lookups follow the language chosen with ``ChosenLanguage/set(_:)`` (which RefreshGtk's
/// `RefreshLocalization.setLanguage` calls), read from the domain's catalogs directly; with none
/// chosen, gettext's: `LANGUAGE` or the locale.
public struct GettextDomain: Sendable, Hashable {
    /// The domain's name: its catalogs are `LANG/LC_MESSAGES/<name>.mo`.
    public let name: String
    /// The folder the domain is bound to.
    public let localeDirectory: String

    /// Binds `name` to `localeDirectory` (by default ``LocaleDirectory/find()``), in UTF-8.
    public init(_ name: String, localeDirectory: String = LocaleDirectory.find()) {
        self.name = name
        self.localeDirectory = localeDirectory
        bindtextdomain(name, localeDirectory)
        bind_textdomain_codeset(name, "UTF-8")
    }

    /// The translation of `msgid`, or `msgid` itself when there is none.
    public func string(_ msgid: String) -> String {
        // An empty msgid would return the catalog's header.
        guard !msgid.isEmpty else { return msgid }
        if let catalogs = ChosenLanguage.catalogs(of: self) {
            return catalogs.lazy.compactMap { $0.string(msgid) }.first ?? msgid
        }
        // dgettext returns its msgid argument when there is no translation: the bridged C string
        // must stay alive until it is copied, so the copy happens inside withCString.
        return msgid.withCString { String(cString: dgettext(name, $0)) }
    }

    /// The translation of `msgid` said in `context` (gettext's msgctxt, as GtkBuilder's
    /// `context` attribute gives it), or `msgid` itself when there is none.
    public func string(_ msgid: String, context: String) -> String {
        guard !msgid.isEmpty else { return msgid }
        // A catalog keys a message with a context as "context EOT msgid".
        let key = context + "\u{4}" + msgid
        let translated = string(key)
        return translated == key ? msgid : translated
    }

    /// The translation of the plural form for `count`: the language's own plural rules choose
    /// among its forms (English: `singular` for 1, else `plural`).
    public func plural(_ singular: String, _ plural: String, count: Int) -> String {
        if let catalogs = ChosenLanguage.catalogs(of: self) {
            return catalogs.lazy.compactMap { $0.plural(singular, count: count) }.first ?? (count == 1 ? singular : plural)
        }
        return singular.withCString { one in
            plural.withCString { many in
                String(cString: dngettext(name, one, many, UInt(count.magnitude)))
            }
        }
    }

    /// The languages with a compiled catalog of this domain in its folder, sorted.
    public var catalogLanguages: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: localeDirectory)) ?? []
        return entries.filter { language in
            FileManager.default.fileExists(atPath: "\(localeDirectory)/\(language)/LC_MESSAGES/\(name).mo")
        }.sorted()
    }
}

/// The languages chosen for every ``GettextDomain``, and the catalogs read for them.
///
/// Lookups come from any thread (an app translates in its tasks too), so both sit behind a lock.
public enum ChosenLanguage {
    private struct State: Sendable {
        var languages: [String]?
        /// Catalogs by path, nil where none could be read.
        var catalogs: [String: MessageCatalog?] = [:]
    }

    private static let state = Mutex(State())

    /// Chooses `languages`, most wanted first (nil: the system's, through gettext).
    public static func set(_ languages: [String]?) {
        state.withLock { $0.languages = languages }
    }

    /// The languages texts are shown in now, most wanted first, each followed by the ones gettext
    /// falls back to (`pt_BR`, `pt`): the chosen ones, else the system's (`LANGUAGE`, the locale).
    public static var languageNames: [String] {
        if let chosen = state.withLock({ $0.languages }) { return chosen.flatMap(fallbacks) }
        var names: [String] = []
        var name = g_get_language_names()
        while let text = name?.pointee {
            names.append(String(cString: text))
            name = name?.successor()
        }
        return names
    }

    /// The catalogs of `domain` to look in, in order; nil when gettext decides.
    static func catalogs(of domain: GettextDomain) -> [MessageCatalog]? {
        state.withLock { state in
            guard let languages = state.languages else { return nil }
            return languages.flatMap(fallbacks).compactMap { language in
                let path = "\(domain.localeDirectory)/\(language)/LC_MESSAGES/\(domain.name).mo"
                if let known = state.catalogs[path] { return known }
                let catalog = MessageCatalog(path: path)
                state.catalogs[path] = .some(catalog)
                return catalog
            }
        }
    }

    /// The catalog folders gettext would try for `language`: `pt_BR@x`, `pt_BR`, `pt@x`, `pt`.
    private static func fallbacks(_ language: String) -> [String] {
        let modifier = language.firstIndex(of: "@").map { String(language[$0...]) } ?? ""
        let name = String(language.prefix { $0 != "@" })
        let base = String(name.prefix { $0 != "_" })
        var candidates = [language, name, base + modifier, base]
        var seen = Set<String>()
        candidates.removeAll { !seen.insert($0).inserted }
        return candidates
    }
}

/// Where compiled catalogs are: `$REFRESHGTK_LOCALEDIR`; else `locale` beside the executable,
/// where meson-helpers/compile-po puts them in the build tree; else the installed prefix's
/// `share/locale` (PREFIX/bin/program -> PREFIX/share/locale); else /usr/share/locale.
public enum LocaleDirectory {
    public static func find() -> String {
        let folder = DataDirectory.find(environmentVariable: "REFRESHGTK_LOCALEDIR", buildTreePath: "locale",
                                        installedPath: "share/locale")
        return FileManager.default.fileExists(atPath: folder.path) ? folder.path : "/usr/share/locale"
    }
}
