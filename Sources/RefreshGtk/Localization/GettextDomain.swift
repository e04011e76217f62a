import CGtk
import Foundation

/// A gettext text domain bound to a folder of compiled catalogs: the library's own
/// (`refreshgtk`) and an app's.
///
/// Lookups follow the process's language: `LANGUAGE`, the locale, or
/// ``RefreshLocalization/setLanguage(_:)``.
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
        // dgettext returns its msgid argument when there is no translation: the bridged C string
        // must stay alive until it is copied, so the copy happens inside withCString.
        return msgid.withCString { String(cString: dgettext(name, $0)) }
    }

    /// The translation of the plural form for `count`: the language's own plural rules choose
    /// among its forms (English: `singular` for 1, else `plural`).
    public func plural(_ singular: String, _ plural: String, count: Int) -> String {
        singular.withCString { one in
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

/// Where compiled catalogs are: `$REFRESHGTK_LOCALEDIR`; else `locale` beside the executable,
/// where meson-helpers/compile-po puts them in the build tree; else the installed prefix's
/// `share/locale` (PREFIX/bin/program -> PREFIX/share/locale); else /usr/share/locale.
public enum LocaleDirectory {
    public static func find() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let dir = environment["REFRESHGTK_LOCALEDIR"], !dir.isEmpty { return dir }
        let binDir = executable().deletingLastPathComponent()
        for candidate in [binDir.appendingPathComponent("locale"),
                          binDir.deletingLastPathComponent().appendingPathComponent("share/locale")]
        where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate.path
        }
        return "/usr/share/locale"
    }

    /// The running executable: /proc/self/exe, which also holds when it was started through
    /// PATH (argv[0] is then a bare name) or a symbolic link.
    private static func executable() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    }
}
