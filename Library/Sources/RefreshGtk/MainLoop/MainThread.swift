import CGtk
import Foundation

/// Runs work on the GTK main thread from any thread or task.
public enum MainThread {
    /// Runs `body` on the main thread: at once when called there, otherwise from the main
    /// loop's next iteration.
    ///
    /// Not `g_main_context_invoke`: from another thread it runs the function right there
    /// whenever it can acquire the context, as before the main loop starts.
    public static func run(_ body: @escaping @Sendable @MainActor () -> Void) {
        if Thread.isMainThread {
            onMainActor(body)
            return
        }
        typealias Body = @Sendable @MainActor () -> Void
        let box = Unmanaged.passRetained(ClosureBox<Body>(body)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let body = Unmanaged<ClosureBox<Body>>.fromOpaque(data!).takeUnretainedValue().handler
            onMainActor { body() }
            return gboolean(0)
        }, box, { data in
            Unmanaged<ClosureBox<Body>>.fromOpaque(data!).release()
        })
    }

    /// Calls `body` once after `seconds`, on the main thread.
    @discardableResult
    public static func after(_ seconds: Double, _ body: @escaping @MainActor () -> Void) -> guint {
        once(body) { g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(0, seconds * 1000)), $0, $1, $2) }
    }

    /// Calls `body` once, on the main thread, when the main loop has nothing more urgent to do:
    /// no input, frame or timer waiting.
    @discardableResult
    public static func whenIdle(_ body: @escaping @MainActor () -> Void) -> guint {
        once(body) { g_idle_add_full(G_PRIORITY_LOW, $0, $1, $2) }
    }

    /// Adds a GLib source that runs `body` once, with `body` boxed and released with the source.
    private static func once(_ body: @escaping @MainActor () -> Void,
                             addSource: (GSourceFunc, gpointer, GDestroyNotify) -> guint) -> guint {
        typealias Body = @MainActor () -> Void
        let box = Unmanaged.passRetained(ClosureBox<Body>(body)).toOpaque()
        return addSource({ data in
            let body = Unmanaged<ClosureBox<Body>>.fromOpaque(data!).takeUnretainedValue().handler
            onMainActor { body() }
            return gboolean(0)
        }, box, { data in
            Unmanaged<ClosureBox<Body>>.fromOpaque(data!).release()
        })
    }

    /// Monotonic time in seconds, the clock every pull timestamp uses.
    public static var now: Double { Double(g_get_monotonic_time()) / 1_000_000 }
}

/// Runs `body` as main-actor code from a C callback.
///
/// GTK calls vfuncs, signal handlers, tick callbacks and sources on the main thread, but Swift
/// cannot see that through a C function pointer. `MainActor.assumeIsolated` states the fact and
/// stops the program if a callback ever runs on another thread.
@inline(__always)
public func onMainActor<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body)
}

/// Runs `body` as main-actor code from a C callback, with `argument`, a pointer GTK passed to it.
///
/// Swift counts a C callback's arguments as belonging to whatever task called it and will not
/// hand them to main-actor code. GTK calls back only on the main thread, which
/// `MainActor.assumeIsolated` checks before `body` runs, so the pointer never leaves the thread
/// it came from: this is the one place that states so.
@inline(__always)
public func onMainActor<Argument, T: Sendable>(passing argument: Argument,
                                               _ body: @MainActor (Argument) -> T) -> T {
    nonisolated(unsafe) let argument = argument
    return MainActor.assumeIsolated { body(argument) }
}
