import CGtk
import FeedCore
import Foundation

/// `shell_search_ms_100k`: GNOME Shell's search of the reader over 100,000 stored entries: the
/// release feed-reader started as D-Bus starts it (`--gapplication-service`) on the bench's
/// session bus, asked `GetInitialResultSet` then `GetResultMetas` for its ids, a key at a time,
/// as the Shell asks; the time of both round trips, which the Shell waits for.
@MainActor
enum ShellSearchBench {
    static let name = "io.github.refreshgtk.FeedReader"
    static let path = "/io/github/refreshgtk/FeedReader/SearchProvider"
    static let interface = "org.gnome.Shell.SearchProvider2"

    /// The median and the slowest keystroke's answer, in milliseconds.
    struct Result {
        var median: Double, slowest: Double
    }

    static func run(_ options: BenchOptions) throws -> Result {
        let dataHome = try LargeStore.shared(options).dataHome
        let scratch = BenchFiles.directory.appendingPathComponent("shell-search", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = scratch.appendingPathComponent("cache").path
        let service = Process()
        service.executableURL = ReaderBench.executable()
        service.arguments = ["--gapplication-service"]
        service.environment = environment
        service.standardOutput = FileHandle.nullDevice
        service.standardError = FileHandle.nullDevice
        try service.run()
        defer {
            service.terminate()
            service.waitUntilExit()
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            defer { g_clear_error(&error) }
            throw BenchError("no session bus: \(error.map { String(cString: $0.pointee.message) } ?? "")")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        try waitForName(on: bus)

        var times: [Double] = []
        for pass in 0..<(1 + max(1, options.runs / 5)) {
            for text in SearchBench.typed {
                for length in 1...text.count {
                    let terms = String(text.prefix(length)).split(separator: " ").map(String.init)
                    let started = Clock.nanoseconds()
                    let ids = try call(bus, "GetInitialResultSet", strings(terms))
                    _ = try call(bus, "GetResultMetas", strings(ids))
                    guard pass > 0 else { continue }
                    times.append(Double(Clock.nanoseconds() - started) / 1e6)
                }
            }
        }
        guard !(try call(bus, "GetInitialResultSet", strings(["refresh"])).isEmpty) else {
            throw BenchError("the search provider found nothing for refresh")
        }
        return Result(median: Stats.median(times), slowest: times.max() ?? 0)
    }

    /// Waits until the service owns its name on the bus (it is still starting GTK).
    private static func waitForName(on bus: OpaquePointer) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                    "NameHasOwner", g_variant_new_tuple([g_variant_new_string(name)], 1), nil,
                                                    G_DBUS_CALL_FLAGS_NONE, 1000, nil, &error)
            g_clear_error(&error)
            if let reply {
                defer { g_variant_unref(reply) }
                let owned = g_variant_get_child_value(reply, 0)
                defer { g_variant_unref(owned) }
                if g_variant_get_boolean(owned) != 0 { return }
            }
            usleep(20_000)
        }
        throw BenchError("feed-reader --gapplication-service did not take \(name) on the bus")
    }

    /// A `(as)` tuple of `strings`.
    private static func strings(_ strings: [String]) -> OpaquePointer? {
        var children = strings.map { g_variant_new_string($0) }
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let array = children.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        return g_variant_new_tuple([array], 1)
    }

    /// Calls `method` and returns the strings of an `(as)` answer (nothing for another answer).
    private static func call(_ bus: OpaquePointer, _ method: String, _ parameters: OpaquePointer?) throws -> [String] {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(bus, name, path, interface, method, parameters, nil,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, &error) else {
            defer { g_clear_error(&error) }
            throw BenchError("\(method) failed: \(error.map { String(cString: $0.pointee.message) } ?? "")")
        }
        defer { g_variant_unref(reply) }
        guard String(cString: g_variant_get_type_string(reply)) == "(as)" else { return [] }
        let array = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(array) }
        return (0..<g_variant_n_children(array)).map { index in
            let item = g_variant_get_child_value(array, index)
            defer { g_variant_unref(item) }
            return String(cString: g_variant_get_string(item, nil))
        }
    }
}
