import CGtk
import RefreshGtk

/// Follows the desktop's light or dark style, on GNOME and elsewhere.
///
/// Where a settings portal runs (xdg-desktop-portal: GNOME, KDE, sway setups and sandboxes),
/// its `org.freedesktop.appearance` `color-scheme` decides, as libadwaita's AdwStyleManager
/// reads it; without one, GNOME's `org.gnome.desktop.interface color-scheme` does. (The app
/// does not use AdwStyleManager itself: adw_init would restyle every widget of the window.)
/// GTK 4.8 reads neither, but its Adwaita theme has a dark variant behind
/// `gtk-application-prefer-dark-theme`, and WebKit takes the article's `prefers-color-scheme`
/// from the same setting.
@MainActor
enum ColorScheme {
    /// A desktop's choice, in the settings portal's numbering.
    enum Preference: UInt32 {
        case noPreference = 0, dark = 1, light = 2
    }

    /// What the portal says; nil while no portal answers, and GNOME's setting decides.
    private(set) static var portalPreference: Preference?
    private static var settings: UnsafeMutablePointer<GSettings>?
    private static var isFollowing = false
    /// Increases whenever the portal comes or goes, so an answer of a portal gone is dropped.
    private static var portalGeneration = 0

    /// Starts following the desktop's choice; later calls change nothing.
    static func follow() {
        guard !isFollowing else { return }
        isFollowing = true
        followGnomeSetting()
        followPortal()
        apply()
    }

    /// Whether the desktop asks for the dark style: the portal's "prefer dark" when it runs, else
    /// GNOME's "prefer-dark"; no preference and "prefer light" both mean light.
    static var prefersDark: Bool {
        if let portalPreference { return portalPreference == .dark }
        guard let settings else { return false }
        return g_settings_get_enum(settings, gnomeKey) == gnomePreferDark
    }

    private static func apply() {
        cgtk_settings_set_boolean("gtk-application-prefer-dark-theme", prefersDark.gboolean)
    }

    // MARK: - GNOME

    private static func followGnomeSetting() {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, gnomeSchema, 1) else { return }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, gnomeKey) != 0, let settings = g_settings_new(gnomeSchema) else { return }
        self.settings = settings
        Signal.connectIgnoringArgument(settings, "changed::\(gnomeKey)") { apply() }
    }

    private static let gnomeSchema = "org.gnome.desktop.interface"
    private static let gnomeKey = "color-scheme"
    /// `G_DESKTOP_COLOR_SCHEME_PREFER_DARK` in gsettings-desktop-schemas.
    private static let gnomePreferDark: Int32 = 1

    // MARK: - Settings portal

    nonisolated static let portalName = "org.freedesktop.portal.Desktop"
    nonisolated static let portalPath = "/org/freedesktop/portal/desktop"
    nonisolated static let portalInterface = "org.freedesktop.portal.Settings"
    nonisolated static let appearanceNamespace = "org.freedesktop.appearance"
    nonisolated static let portalKey = "color-scheme"

    /// Asks the portal whenever it appears on the session bus (started before the app or after),
    /// listens for its changes, and goes back to GNOME's setting when it leaves.
    private static func followPortal() {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        let changed: GDBusSignalCallback = { _, _, _, _, _, parameters, _ in
            guard let parameters, let preference = ColorScheme.changedPreference(in: parameters) else { return }
            onMainActor { ColorScheme.portalAnswered(preference, generation: ColorScheme.portalGeneration) }
        }
        g_dbus_connection_signal_subscribe(bus, portalName, portalInterface, "SettingChanged", portalPath,
                                           appearanceNamespace, G_DBUS_SIGNAL_FLAGS_NONE, changed, nil, nil)
        let appeared: GBusNameAppearedCallback = { connection, _, _, _ in
            guard let connection else { return }
            onMainActor { ColorScheme.readPortal(on: connection) }
        }
        let vanished: GBusNameVanishedCallback = { _, _, _ in
            onMainActor {
                ColorScheme.portalGeneration += 1
                guard ColorScheme.portalPreference != nil else { return }
                ColorScheme.portalPreference = nil
                ColorScheme.apply()
            }
        }
        g_bus_watch_name_on_connection(bus, portalName, G_BUS_NAME_WATCHER_FLAGS_AUTO_START, appeared, vanished, nil, nil)
    }

    private static func readPortal(on connection: OpaquePointer) {
        portalGeneration += 1
        var arguments = [g_variant_new_string(appearanceNamespace), g_variant_new_string(portalKey)]
        let parameters = g_variant_new_tuple(&arguments, 2)
        let generation = UnsafeMutableRawPointer(bitPattern: portalGeneration)
        let answered: GAsyncReadyCallback = { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
            // An older portal without the key, or one that failed: GNOME's setting stays in charge.
            g_clear_error(&error)
            guard let reply else { return }
            defer { g_variant_unref(reply) }
            let value = g_variant_get_child_value(reply, 0)
            defer { g_variant_unref(value) }
            guard let preference = ColorScheme.preference(in: value) else { return }
            let generation = Int(bitPattern: data)
            onMainActor { ColorScheme.portalAnswered(preference, generation: generation) }
        }
        g_dbus_connection_call(connection, portalName, portalPath, portalInterface, "Read", parameters, nil,
                               G_DBUS_CALL_FLAGS_NONE, -1, nil, answered, generation)
    }

    private static func portalAnswered(_ preference: Preference, generation: Int) {
        guard generation == portalGeneration else { return }
        portalPreference = preference
        apply()
    }

    /// The preference in SettingChanged's (namespace, key, value), if it is the color scheme.
    nonisolated static func changedPreference(in parameters: OpaquePointer) -> Preference? {
        guard g_variant_n_children(parameters) == 3 else { return nil }
        let namespace = g_variant_get_child_value(parameters, 0), key = g_variant_get_child_value(parameters, 1)
        let value = g_variant_get_child_value(parameters, 2)
        defer { for child in [namespace, key, value] { g_variant_unref(child) } }
        guard string(namespace) == appearanceNamespace, string(key) == portalKey, let value else { return nil }
        return preference(in: value)
    }

    /// The preference a portal reply holds: a uint32, boxed in one variant or, as older portals
    /// answer Read, in two.
    nonisolated static func preference(in value: OpaquePointer?) -> Preference? {
        guard var current = value.map({ g_variant_ref($0)! }) else { return nil }
        defer { g_variant_unref(current) }
        while String(cString: g_variant_get_type_string(current)) == "v" {
            let inner = g_variant_get_variant(current)!
            g_variant_unref(current)
            current = inner
        }
        guard String(cString: g_variant_get_type_string(current)) == "u" else { return nil }
        return Preference(rawValue: g_variant_get_uint32(current)) ?? .noPreference
    }

    private nonisolated static func string(_ variant: OpaquePointer?) -> String? {
        guard let variant, String(cString: g_variant_get_type_string(variant)) == "s" else { return nil }
        return String(cString: g_variant_get_string(variant, nil))
    }
}
