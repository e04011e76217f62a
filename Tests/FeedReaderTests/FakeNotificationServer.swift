import CGtk
import Foundation
import RefreshGtk
import TestSupport

/// A desktop notification service on the session bus (org.freedesktop.Notifications, as
/// GApplication's freedesktop backend calls it) that records what it is asked to show and can
/// click a notification.
@MainActor
final class FakeNotificationServer {
    /// One Notify call.
    struct Shown: Equatable {
        var id: UInt32
        var summary: String
        var body: String
        var actions: [String]
    }

    enum Failure: Error {
        case bus(String)
    }

    private static let name = "org.freedesktop.Notifications"
    private static let path = "/org/freedesktop/Notifications"
    private static let introspection = """
        <node><interface name="org.freedesktop.Notifications">
          <method name="Notify">
            <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
            <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
            <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
          </method>
          <method name="CloseNotification"><arg type="u" direction="in"/></method>
        </interface></node>
        """

    private(set) var shown: [Shown] = []
    private(set) var closed: [UInt32] = []
    private let connection: OpaquePointer
    private var registration: guint = 0
    private let vtable: UnsafeMutablePointer<GDBusInterfaceVTable>

    /// Registers the service on the session bus (run the test under dbus-run-session).
    init() throws {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw Failure.bus(Self.consume(&error))
        }
        self.connection = connection
        vtable = .allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = { _, _, _, _, method, parameters, invocation, data in
            let server = Unmanaged<FakeNotificationServer>.fromOpaque(data!).takeUnretainedValue()
            nonisolated(unsafe) let call = (method.map { String(cString: $0) } ?? "", parameters, invocation)
            onMainActor { server.handle(call.0, parameters: call.1!, invocation: call.2!) }
        }
        let node = g_dbus_node_info_new_for_xml(Self.introspection, &error)
        guard let node else { throw Failure.bus(Self.consume(&error)) }
        defer { g_dbus_node_info_unref(node) }
        registration = g_dbus_connection_register_object(connection, Self.path, g_dbus_node_info_lookup_interface(node, Self.name),
                                                         vtable, Unmanaged.passUnretained(self).toOpaque(), nil, &error)
        guard registration != 0 else { throw Failure.bus(Self.consume(&error)) }
        let reply = callBus("RequestName", g_variant_new_tuple([g_variant_new_string(Self.name), g_variant_new_uint32(4)], 2))
        guard reply == 1 else { throw Failure.bus("could not own \(Self.name): reply \(String(describing: reply))") }
    }

    /// Gives the name back and stops answering.
    func stop() {
        _ = callBus("ReleaseName", g_variant_new_tuple([g_variant_new_string(Self.name)], 1))
        g_dbus_connection_unregister_object(connection, registration)
        vtable.deallocate()
        g_object_unref(cast(connection))
    }

    /// Clicks notification `id`'s `action` ("default" is a click on the notification itself).
    func invoke(_ action: String, on id: UInt32) {
        g_dbus_connection_emit_signal(connection, nil, Self.path, Self.name, "ActionInvoked",
                                      g_variant_new_tuple([g_variant_new_uint32(id), g_variant_new_string(action)], 2), nil)
    }

    private func handle(_ method: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        switch method {
        case "Notify":
            let id = UInt32(shown.count + 1)
            shown.append(Shown(id: id, summary: string(parameters, 3), body: string(parameters, 4), actions: strings(parameters, 5)))
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple([g_variant_new_uint32(id)], 1))
        case "CloseNotification":
            let child = g_variant_get_child_value(parameters, 0)!
            closed.append(g_variant_get_uint32(child))
            g_variant_unref(child)
            g_dbus_method_invocation_return_value(invocation, nil)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", method)
        }
    }

    private func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        let child = g_variant_get_child_value(tuple, gsize(index))!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    private func strings(_ tuple: OpaquePointer, _ index: Int) -> [String] {
        let child = g_variant_get_child_value(tuple, gsize(index))!
        defer { g_variant_unref(child) }
        var length: gsize = 0
        guard let array = g_variant_get_strv(child, &length) else { return [] }
        defer { g_free(array) }
        return (0..<Int(length)).compactMap { array[$0].map { String(cString: $0) } }
    }

    /// Calls the bus daemon's `method`; its uint32 answer, if any.
    private func callBus(_ method: String, _ arguments: OpaquePointer) -> UInt32? {
        var error: UnsafeMutablePointer<GError>?
        let type = g_variant_type_new("(u)")
        defer { g_variant_type_free(type) }
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      method, arguments, type, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        let child = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(child) }
        return g_variant_get_uint32(child)
    }

    private static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }
}
