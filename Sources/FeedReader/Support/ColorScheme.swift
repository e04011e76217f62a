import CGtk
import RefreshGtk

/// Follows the desktop's light or dark style, as GNOME apps do.
///
/// GNOME keeps the choice in `org.gnome.desktop.interface color-scheme`; GTK 4.8 does not read
/// it, but its Adwaita theme has a dark variant behind `gtk-application-prefer-dark-theme`,
/// and WebKit takes the article's `prefers-color-scheme` from the same setting. Without that
/// schema (another desktop), the app stays as GTK's own settings say.
@MainActor
enum ColorScheme {
    private static var settings: UnsafeMutablePointer<GSettings>?

    /// Starts following the desktop's choice; later calls change nothing.
    static func follow() {
        guard settings == nil, let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, key) != 0, let settings = g_settings_new(schemaID) else { return }
        self.settings = settings
        Signal.connectIgnoringArgument(settings, "changed::\(key)") { apply() }
        apply()
    }

    /// Whether the desktop asks for the dark style ("prefer-dark"); "default" and
    /// "prefer-light" both mean light.
    static var prefersDark: Bool {
        guard let settings else { return false }
        return g_settings_get_enum(settings, key) == preferDark
    }

    private static func apply() {
        cgtk_settings_set_boolean("gtk-application-prefer-dark-theme", prefersDark.gboolean)
    }

    private static let schemaID = "org.gnome.desktop.interface"
    private static let key = "color-scheme"
    /// `G_DESKTOP_COLOR_SCHEME_PREFER_DARK` in gsettings-desktop-schemas.
    private static let preferDark: Int32 = 1
}
