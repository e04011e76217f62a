import AppSupport
import CGtk
import RefreshGtk

/// The language the app speaks: the system's, or any language it ships, chosen in Preferences.
@MainActor
enum LanguageChoice {
    /// Each language in its own name, so a person can find theirs whatever is showing.
    static let autonyms: [String: String] = [
        "ar": "العربية", "de": "Deutsch", "en": "English", "es": "Español", "fr": "Français",
        "it": "Italiano", "ja": "日本語", "ko": "한국어", "pt_BR": "Português (Brasil)", "ru": "Русский",
        "uk": "Українська", "zh_CN": "简体中文", "zh_TW": "繁體中文",
    ]

    /// The settings key the choice is kept under; an empty value means the system's language.
    static let settingsGroup = "Preferences"
    static let settingsKey = "language"

    /// What can be chosen, in order: "System Default" (the empty code), then English and every
    /// language with a catalog, each named in itself.
    static var choices: [(label: String, code: String)] {
        let codes = ["en"] + RefreshLocalization.availableLanguages.filter { $0 != "en" }
        return [(tr("System Default"), "")] + codes.map { (autonyms[$0] ?? $0, $0) }
    }

    /// The saved choice; empty for the system's language.
    static func saved(in settings: SettingsStore) -> String {
        settings.string(forKey: settingsKey, in: settingsGroup) ?? ""
    }

    /// Applies the saved choice, before any window shows a text.
    static func applySaved(from settings: SettingsStore) {
        let code = saved(in: settings)
        guard !code.isEmpty else { return }
        RefreshLocalization.setLanguage(code)
    }
}
