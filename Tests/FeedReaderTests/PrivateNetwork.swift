import CGtk
import Foundation
import Glibc
import RefreshGtk

/// A network of the test's own: a Linux network namespace holding only a loopback device, watched
/// by GLib's netlink GNetworkMonitor (the one `g_network_monitor_get_default()` gives on a desktop
/// without NetworkManager). It starts offline, with no default route, and `goOnline()` adds one, as
/// plugging a cable in does; the monitor learns of it from the kernel. Needs CAP_SYS_ADMIN, as the
/// test machines' root has.
/// Unchecked: its two handles are set once, and are used from the main thread and its own threads in turn.
final class PrivateNetwork: @unchecked Sendable {
    enum Failure: Error {
        case namespace(String)
        case monitor(String)
        case command([String], Int32)
    }

    /// The GNetworkMonitor watching the namespace.
    let monitor: OpaquePointer
    /// The namespace, held open so that it lives as long as this.
    private let namespace: Int32

    init() throws {
        // Registers GIO's implementations, so the netlink one can be asked for by name.
        _ = g_network_monitor_get_default()
        guard let point = g_io_extension_point_lookup("gio-network-monitor"),
              let netlink = g_io_extension_point_get_extension_by_name(point, "netlink") else {
            throw Failure.monitor("GIO has no netlink network monitor")
        }
        let type = g_io_extension_get_type(netlink)
        (monitor, namespace) = try Self.onOwnThread {
            guard Self.unshare(Self.newNetworkNamespace) == 0 else { throw Failure.namespace("unshare: \(String(cString: strerror(errno)))") }
            let namespace = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
            guard namespace >= 0 else { throw Failure.namespace("open: \(String(cString: strerror(errno)))") }
            try Self.run(["ip", "link", "set", "lo", "up"])
            // Made on this thread, the monitor's netlink socket is in the new namespace; its
            // signals are still dispatched by the main context, this thread having none of its own.
            let object = g_object_new_with_properties(type, 0, nil, nil)!
            var error: UnsafeMutablePointer<GError>?
            guard g_initable_init(cast(object), nil, &error) != 0 else {
                defer { g_clear_error(&error) }
                throw Failure.monitor(error.map { String(cString: $0.pointee.message) } ?? "unknown error")
            }
            return (OpaquePointer(object), namespace)
        }
    }

    /// Adds a default route: the monitor says the network is available.
    func goOnline() throws {
        try Self.onOwnThread { [namespace] in
            guard Self.setns(namespace, Self.newNetworkNamespace) == 0 else {
                throw Failure.namespace("setns: \(String(cString: strerror(errno)))")
            }
            try Self.run(["ip", "route", "add", "default", "dev", "lo"])
        }
    }

    func close() {
        g_object_unref(cast(monitor))
        Glibc.close(namespace)
    }

    /// CLONE_NEWNET: Swift's Glibc module leaves the namespace flags out.
    private static let newNetworkNamespace: Int32 = 0x4000_0000

    /// glibc's unshare(2) and setns(2), which Swift's Glibc module leaves out (they need _GNU_SOURCE).
    private static func unshare(_ flags: Int32) -> Int32 {
        typealias Unshare = @convention(c) (Int32) -> Int32
        return unsafeBitCast(dlsym(nil, "unshare"), to: Unshare.self)(flags)
    }

    private static func setns(_ namespace: Int32, _ type: Int32) -> Int32 {
        typealias Setns = @convention(c) (Int32, Int32) -> Int32
        return unsafeBitCast(dlsym(nil, "setns"), to: Setns.self)(namespace, type)
    }

    /// Runs `body` on a new thread and waits for it: a thread entering a namespace leaves the
    /// rest of the process where it was.
    private static func onOwnThread<T>(_ body: @escaping () throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, any Error>?
        nonisolated(unsafe) let work = body
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = Result { try work() }
            done.signal()
        }
        thread.start()
        done.wait()
        return try result!.get()
    }

    /// Runs a command from the calling thread, so it starts in that thread's namespace.
    /// posix_spawn and waitpid rather than Process, whose exit watch missed a child started off the main thread.
    private static func run(_ command: [String]) throws {
        var arguments = (["/usr/bin/env"] + command).map { strdup($0) }
        arguments.append(nil)
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/env", nil, nil, arguments, environ) == 0 else { throw Failure.command(command, -1) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import: exited normally, with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { throw Failure.command(command, status) }
    }
}
