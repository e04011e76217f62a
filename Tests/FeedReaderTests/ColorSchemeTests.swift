import CGtk
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The light or dark style from the settings portal where one runs, else from GNOME's setting.
final class ColorSchemeTests: XCTestCase {
    func testPortalRepliesAreReadWhetherBoxedOnceOrTwice() {
        let cases: [(String, OpaquePointer, ColorScheme.Preference?)] = [
            ("boxed once, dark", g_variant_new_variant(g_variant_new_uint32(1)), .dark),
            ("boxed twice, dark", g_variant_new_variant(g_variant_new_variant(g_variant_new_uint32(1))), .dark),
            ("light", g_variant_new_variant(g_variant_new_uint32(2)), .light),
            ("no preference", g_variant_new_uint32(0), .noPreference),
            ("a value from a newer portal", g_variant_new_uint32(7), .noPreference),
            ("not a number", g_variant_new_variant(g_variant_new_string("dark")), nil),
        ]
        for (name, value, expected) in cases {
            g_variant_ref_sink(value)
            XCTAssertEqual(ColorScheme.preference(in: value), expected, name)
            g_variant_unref(value)
        }
    }

    func testThePortalDecidesWhileItRunsAndGnomesSettingOnceItHasGone() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { _ in
            let desktop = g_settings_new("org.gnome.desktop.interface")!
            defer {
                g_settings_reset(desktop, "color-scheme")
                g_object_unref(desktop)
            }
            let gtkIsDark = { cgtk_settings_get_boolean("gtk-application-prefer-dark-theme") != 0 }
            XCTAssertFalse(gtkIsDark(), "no portal, GNOME's default: light")

            let portal = try FakeSettingsPortal(colorScheme: .dark)
            defer { portal.stop() }
            XCTAssertTrue(GtkTestEnvironment.iterate { gtkIsDark() }, "the portal appeared and asked for dark")
            portal.change(to: .light)
            XCTAssertTrue(GtkTestEnvironment.iterate { !gtkIsDark() }, "the portal's change to light is followed")

            g_settings_set_string(desktop, "color-scheme", "prefer-dark")
            XCTAssertEqual(ColorScheme.portalPreference, .light)
            XCTAssertFalse(ColorScheme.prefersDark, "while the portal runs, GNOME's own setting does not decide")

            portal.stop()
            XCTAssertTrue(GtkTestEnvironment.iterate { gtkIsDark() }, "the portal gone, GNOME's prefer-dark decides")
            XCTAssertNil(ColorScheme.portalPreference)
        }
    }
}

/// org.freedesktop.portal.Settings on the test's session bus, answering color-scheme only, as
/// xdg-desktop-portal would on a desktop.
@MainActor
final class FakeSettingsPortal {
    private static var colorScheme = ColorScheme.Preference.noPreference
    private static let vtable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let vtable = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = { _, _, _, _, method, _, invocation, _ in
            guard let method, String(cString: method) == "Read" else {
                g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.portal.Error.NotFound", "not faked")
                return
            }
            // Boxed twice, as xdg-desktop-portal's Read answers.
            var value: OpaquePointer? = g_variant_new_variant(g_variant_new_variant(g_variant_new_uint32(
                onMainActor { FakeSettingsPortal.colorScheme.rawValue })))
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&value, 1))
        }
        return vtable
    }()

    private let connection: OpaquePointer
    private let registration: guint
    private var ownership: guint = 0

    init(colorScheme: ColorScheme.Preference) throws {
        Self.colorScheme = colorScheme
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            defer { g_clear_error(&error) }
            throw FixtureError.registration(error.map { String(cString: $0.pointee.message) } ?? "no session bus")
        }
        self.connection = connection
        let xml = """
            <node><interface name="org.freedesktop.portal.Settings">
            <method name="Read"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <signal name="SettingChanged"><arg type="s"/><arg type="s"/><arg type="v"/></signal>
            </interface></node>
            """
        let node = g_dbus_node_info_new_for_xml(xml, nil)!
        defer { g_dbus_node_info_unref(node) }
        registration = g_dbus_connection_register_object(connection, ColorScheme.portalPath, node.pointee.interfaces[0],
                                                         Self.vtable, nil, nil, &error)
        guard registration != 0 else {
            defer { g_clear_error(&error) }
            throw FixtureError.registration(error.map { String(cString: $0.pointee.message) } ?? "not registered")
        }
        ownership = g_bus_own_name_on_connection(connection, ColorScheme.portalName, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
    }

    /// Changes the scheme and tells every listener, as the portal does when the desktop's changes.
    func change(to colorScheme: ColorScheme.Preference) {
        Self.colorScheme = colorScheme
        var arguments = [g_variant_new_string(ColorScheme.appearanceNamespace), g_variant_new_string(ColorScheme.portalKey),
                         g_variant_new_variant(g_variant_new_uint32(colorScheme.rawValue))]
        g_dbus_connection_emit_signal(connection, nil, ColorScheme.portalPath, ColorScheme.portalInterface,
                                      "SettingChanged", g_variant_new_tuple(&arguments, 3), nil)
    }

    /// Leaves the bus, as a portal that quits.
    func stop() {
        guard ownership != 0 else { return }
        g_bus_unown_name(ownership)
        ownership = 0
        g_dbus_connection_unregister_object(connection, registration)
    }
}
