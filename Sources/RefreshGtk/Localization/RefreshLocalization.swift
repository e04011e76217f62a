import CGtk
import Foundation
import RefreshCore

/// The one lookup every refresh string goes through: gettext in the library's own text domain.
///
/// Like GTK's own domain, the library's catalogs ship with it, so apps that embed the components
/// get their translations without copying strings.
@MainActor
public enum RefreshLocalization {
    /// The library's gettext domain.
    public static let domain = "refreshgtk"
    /// Texts the app replaced, by key.
    private static var overrides: [RefreshText: String] = [:]
    private static var isBound = false
    private static var observers: [UUID: @MainActor () -> Void] = [:]

    /// Calls `handler` whenever the texts change (a new language, an override); keep the token
    /// to stop with ``removeObserver(_:)``.
    @discardableResult
    public static func addObserver(_ handler: @escaping @MainActor () -> Void) -> UUID {
        let token = UUID()
        observers[token] = handler
        return token
    }

    public static func removeObserver(_ token: UUID) {
        observers[token] = nil
    }

    /// Tells every observer, and so every component, to render its texts again.
    public static func textsChanged() {
        for handler in observers.values { handler() }
    }

    /// The translated text for `key`.
    public static func text(_ key: RefreshText) -> String {
        if let override = overrides[key] { return override }
        bindIfNeeded()
        // dgettext returns its msgid argument when there is no translation: keep it alive until copied.
        return key.english.withCString { String(cString: dgettext(domain, $0)) }
    }

    /// Replaces a text for every component (nil restores the translation).
    public static func override(_ key: RefreshText, with text: String?) {
        overrides[key] = text
        textsChanged()
    }

    /// Points the domain at a folder of `LANG/LC_MESSAGES/refreshgtk.mo` catalogs.
    public static func bind(localeDirectory: String) {
        bindtextdomain(domain, localeDirectory)
        bind_textdomain_codeset(domain, "UTF-8")
        isBound = true
    }

    private static func bindIfNeeded() {
        guard !isBound else { return }
        bind(localeDirectory: LocaleDirectory.find())
    }
}

/// Where compiled catalogs are: `$REFRESHGTK_LOCALEDIR`, else beside the executable in the
/// build tree, else the installed prefix's share/locale.
public enum LocaleDirectory {
    public static func find() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let dir = environment["REFRESHGTK_LOCALEDIR"], !dir.isEmpty { return dir }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let binDir = executable.deletingLastPathComponent()
        for candidate in [binDir.appendingPathComponent("locale"),
                          binDir.deletingLastPathComponent().appendingPathComponent("share/locale")]
        where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate.path
        }
        return "/usr/share/locale"
    }
}
