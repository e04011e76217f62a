import CGtk

/// A Swift closure boxed for a C signal connection; released by the connection's destroy-notify.
final class ClosureBox<Handler> {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }
}

/// Connects Swift closures to GObject signals.
///
/// The closure is retained by the connection and released when it is disconnected or the
/// instance is finalized, so handlers live exactly as long as the connection.
public enum Signal {
    /// A handler ID for `g_signal_handler_disconnect`.
    public typealias HandlerID = gulong

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    private static func connect<Handler>(_ instance: gpointer, _ name: String, _ handler: Handler,
                                         trampoline: GCallback) -> HandlerID {
        let box = Unmanaged.passRetained(ClosureBox(handler) as AnyObject).toOpaque()
        return g_signal_connect_data(instance, name, trampoline, box, release, GConnectFlags(0))
    }

    private static func handler<Handler>(_ data: gpointer?) -> Handler {
        Unmanaged<ClosureBox<Handler>>.fromOpaque(data!).takeUnretainedValue().handler
    }

    /// `void (*)(GObject*, gpointer)`.
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String,
                        _ handler: @escaping @MainActor () -> Void) -> HandlerID {
        typealias Handler = @MainActor () -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body() }
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, gpointer)`: a window's close-request.
    @discardableResult
    public static func connectReturningBool(_ instance: gpointer, _ name: String,
                                            _ handler: @escaping @MainActor () -> Bool) -> HandlerID {
        typealias Handler = @MainActor () -> Bool
        let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let body: Handler = Signal.handler(data)
            return onMainActor { body() }.gboolean
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, double, double, gpointer)`: drag-begin, drag-update, drag-end.
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String,
                        _ handler: @escaping @MainActor (Double, Double) -> Void) -> HandlerID {
        typealias Handler = @MainActor (Double, Double) -> Void
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, a, b, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(a, b) }
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, double, double, gpointer)`: scroll.
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String,
                        _ handler: @escaping @MainActor (Double, Double) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (Double, Double) -> Bool
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, a, b, data in
            let body: Handler = Signal.handler(data)
            return onMainActor { body(a, b) }.gboolean
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, T*, gpointer)` where the argument is not needed: a gesture's cancel,
    /// an action's activate.
    @discardableResult
    public static func connectIgnoringArgument(_ instance: gpointer, _ name: String,
                                _ handler: @escaping @MainActor () -> Void) -> HandlerID {
        typealias Handler = @MainActor () -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body() }
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, GObject*, gpointer)`: a list item factory's setup and bind.
    @discardableResult
    public static func connectObject(_ instance: gpointer, _ name: String,
                              _ handler: @escaping @MainActor (gpointer) -> Void) -> HandlerID {
        typealias Handler = @MainActor (gpointer) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
            guard let object else { return }
            let body: Handler = Signal.handler(data)
            nonisolated(unsafe) let argument = object
            onMainActor { body(argument) }
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, guint, gpointer)`: a list view's activate.
    @discardableResult
    public static func connectUInt(_ instance: gpointer, _ name: String,
                                   _ handler: @escaping @MainActor (UInt32) -> Void) -> HandlerID {
        typealias Handler = @MainActor (UInt32) -> Void
        let trampoline: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, value, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(value) }
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, T*, gpointer)` where the argument may be NULL: an action's activate
    /// with its parameter, a list box's row-selected.
    @discardableResult
    public static func connectObjectOrNil(_ instance: gpointer, _ name: String,
                                          _ handler: @escaping @MainActor (gpointer?) -> Void) -> HandlerID {
        typealias Handler = @MainActor (gpointer?) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
            let body: Handler = Signal.handler(data)
            nonisolated(unsafe) let argument = object
            onMainActor { body(argument) }
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, gint, double, double, gpointer)`: a click gesture's pressed and released.
    @discardableResult
    public static func connectClickAt(_ instance: gpointer, _ name: String,
                                      _ handler: @escaping @MainActor (Double, Double) -> Void) -> HandlerID {
        typealias Handler = @MainActor (Double, Double) -> Void
        let trampoline: @convention(c) (gpointer?, gint, Double, Double, gpointer?) -> Void = { _, _, x, y, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(x, y) }
        }
        return connect(instance, name, handler, trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }
}
