import CGtk
import RefreshGtk

/// The language choice in the main menu: the system's, or any language the app ships.
@MainActor
enum LanguageMenu {
    /// Each language in its own name, so a person can find theirs whatever is showing.
    static let autonyms: [String: String] = [
        "ar": "العربية", "de": "Deutsch", "en": "English", "es": "Español", "fr": "Français",
        "it": "Italiano", "ja": "日本語", "ko": "한국어", "pt_BR": "Português (Brasil)", "ru": "Русский",
        "uk": "Українська", "zh_CN": "简体中文", "zh_TW": "繁體中文",
    ]

    /// The settings key the choice is kept under; an empty value means the system's language.
    static let settingsGroup = "Preferences"
    static let settingsKey = "language"

    /// The submenu: "System Default", then English and every language with a catalog.
    static func model() -> OpaquePointer {
        let menu = g_menu_new()!
        let codes = ["en"] + RefreshLocalization.availableLanguages.filter { $0 != "en" }
        for (label, code) in [(tr("System Default"), "")] + codes.map({ (autonyms[$0] ?? $0, $0) }) {
            let item = g_menu_item_new(label, nil)!
            g_menu_item_set_action_and_target_value(item, "win.language", g_variant_new_string(code))
            g_menu_append_item(menu, item)
            g_object_unref(cast(item))
        }
        return menu
    }

    /// Applies the saved choice, before any window shows a text.
    static func applySaved(from settings: SettingsStore) {
        guard let code = settings.string(forKey: settingsKey, in: settingsGroup), !code.isEmpty else { return }
        RefreshLocalization.setLanguage(code)
    }
}
