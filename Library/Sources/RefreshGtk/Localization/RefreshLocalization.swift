import CGtk
import Foundation
import RefreshCore

/// The one lookup every refresh string goes through: gettext in the library's own text domain.
///
/// Like GTK's own domain, the library's catalogs ship with it, so apps that embed the components
/// get their translations without copying strings.
///
/// The language can change while the app runs: ``setLanguage(_:)`` switches the library's
/// texts, sets GTK's default text direction, and re-renders every component at once. Custom
/// indicators and app widgets re-render from ``addObserver(_:)``.
@MainActor
public enum RefreshLocalization {
    /// The library's gettext domain.
    public static let domain = "refreshgtk"
    /// Texts the app replaced, by key.
    private static var overrides: [RefreshText: String] = [:]
    private static var boundDomain: LibraryDomain?
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
        return libraryDomain.string(key.english)
    }

    /// Replaces a text for every component (nil restores the translation).
    public static func override(_ key: RefreshText, with text: String?) {
        overrides[key] = text
        textsChanged()
    }

    /// Points the domain at a folder of `LANG/LC_MESSAGES/refreshgtk.mo` catalogs.
    public static func bind(localeDirectory: String) {
        boundDomain = LibraryDomain(domain, localeDirectory: localeDirectory)
        textsChanged()
    }

    // MARK: - Language

    /// The language chosen with ``setLanguage(_:)``, or nil for the system's.
    public private(set) static var language: String?

    /// The languages the library has catalogs for, as gettext codes (`de`, `pt_BR`, `zh_CN`...),
    /// sorted. English, the source language, needs none and is always available as `en`.
    public static var availableLanguages: [String] { libraryDomain.catalogLanguages }

    /// Switches the language of every text, without a restart; nil returns to the system's.
    ///
    /// The library then reads that language's catalogs itself rather than through gettext, so
    /// no environment variable changes while other threads may read the environment; GTK's own
    /// texts keep the language the app started in. Sets GTK's default text direction (right to left for Arabic, Hebrew, Persian,
    /// Urdu...), and re-renders every component and observer before returning, so all visible
    /// texts change in the same main-loop iteration.
    ///
    /// `code` is a gettext language code (`de`, `pt_BR`, `zh_TW`) or a BCP 47 tag (`pt-BR`,
    /// `zh-Hans`), or a `LANGUAGE`-style list (`pt_BR:pt`).
    public static func setLanguage(_ code: String?) {
        let chosen = code.map(normalizedLanguage).flatMap { $0.isEmpty ? nil : $0 }
        ChosenCatalogs.set(chosen.map { $0.split(separator: ":").map(String.init) })
        language = chosen
        let direction = isRightToLeft(chosen ?? systemLanguage()) ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR
        gtk_widget_set_default_direction(direction)
        textsChanged()
    }

    /// Whether `language` (a code such as `ar`, `he_IL` or `fa:en`) is written right to left.
    public static func isRightToLeft(_ language: String) -> Bool {
        let first = language.split(separator: ":").first.map(String.init) ?? ""
        let base = first.prefix { $0.isLetter }.lowercased()
        return rightToLeftLanguages.contains(base)
    }

    static let rightToLeftLanguages: Set = ["ar", "he", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"]

    /// The gettext form of a language code: `pt-BR` -> `pt_BR`, `zh-Hans` -> `zh_CN`,
    /// `zh-Hant`/`zh-HK`/`zh` -> `zh_TW` (MJRefresh's rule), `de_DE.UTF-8` -> `de_DE`, an
    /// `@modifier` kept, each entry of a `:` list.
    static func normalizedLanguage(_ code: String) -> String {
        code.split(separator: ":").map { entry -> String in
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            let modifier = trimmed.firstIndex(of: "@").map { String(trimmed[$0...]) } ?? ""
            let name = trimmed.prefix { $0 != "." && $0 != "@" }
            let normalized = normalizedName(name)
            return normalized.isEmpty ? "" : normalized + modifier
        }.filter { !$0.isEmpty }.joined(separator: ":")
    }

    private static func normalizedName(_ name: Substring) -> String {
        let parts = name.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first else { return "" }
        let base = first.lowercased()
        let rest = parts.dropFirst().map(String.init)
        if base == "zh" {
            let tags = Set(rest.map { $0.lowercased() })
            if tags.contains("hans") || tags.contains("cn") || tags.contains("sg") { return "zh_CN" }
            return "zh_TW"
        }
        let isRegion = { (part: String) in
            (part.count == 2 && part.allSatisfy(\.isLetter)) || (part.count == 3 && part.allSatisfy(\.isNumber))
        }
        guard let region = rest.first(where: isRegion) else { return base }
        return "\(base)_\(region.uppercased())"
    }

    /// The language the system asks for: what gettext itself reads when no language is set.
    private static func systemLanguage() -> String {
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environmentValue(name), !value.isEmpty { return value }
        }
        return "C"
    }

    private static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    // MARK: - Library lookups

    /// The library's domain, bound to the folder `LibraryDomain.defaultLocaleDirectory()` names
    /// unless ``bind(localeDirectory:)`` chose.
    static var libraryDomain: LibraryDomain {
        if let boundDomain { return boundDomain }
        let bound = LibraryDomain(domain)
        boundDomain = bound
        return bound
    }

    /// The translation of one of RefreshGtk's own msgids (literals marked with `N_`).
    static func translate(_ msgid: String) -> String { libraryDomain.string(msgid) }

    /// The app's replacement for `key`, if any.
    static func overrideText(_ key: RefreshText) -> String? { overrides[key] }
}
