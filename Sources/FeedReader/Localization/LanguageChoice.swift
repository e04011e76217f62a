import AppSignals
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

    /// Speaks `code` (empty: the system's language) from now on, and after the next start.
    static func choose(_ code: String, in settings: SettingsStore) {
        settings.setString(code, forKey: settingsKey, in: settingsGroup)
        speak(code.isEmpty ? nil : code)
    }

    /// Switches the app's texts (its own domain), the refresh components' (the library's) and
    /// gettext's (GTK's, libadwaita's) to `code`, a gettext language code or a `:` list of them; nil returns to the system's.
    static func speak(_ code: String?) {
        // The app's first: the library's switch re-renders every observer, app widgets among them.
        let languages = code.map { $0.split(separator: ":").map(String.init) }
        ChosenLanguage.set(languages)
        // GTK's and libadwaita's own texts, in what they make from now on.
        GettextLanguage.follow(languages)
        RefreshLocalization.setLanguage(code)
    }

    /// Adds the choice to `window` as the stateful action `language`, holding `saved`, which
    /// Preferences activates with a language code (empty: the system's); `chosen` switches to it.
    static func addAction(to window: UnsafeMutablePointer<GtkWidget>, saved: String, chosen: @escaping @MainActor (String) -> Void) {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new_stateful("language", type, g_variant_new_string(saved))!
        Signal.connectObjectOrNil(cast(action), "activate") { parameter in
            guard let parameter else { return }
            let code = String(cString: g_variant_get_string(OpaquePointer(parameter), nil))
            g_simple_action_set_state(action, g_variant_new_string(code))
            chosen(code)
        }
        g_action_map_add_action(cast(window), cast(action))
        g_object_unref(cast(action))
    }

    /// Applies the saved choice, before any window shows a text.
    static func applySaved(from settings: SettingsStore) {
        let code = saved(in: settings)
        guard !code.isEmpty else { return }
        speak(code)
    }
}
