import CGtk
import Foundation
import RefreshGtk
import XCTest

/// GTK set up once per test process, and the main-loop pumping every GTK test needs.
///
/// XCTest runs test methods on the main thread outside any dispatch block, as the app's main
/// loop does, so the main-queue bridge is installed exactly as in the app.
public enum GtkTestEnvironment {
    /// Whether GTK was set up in this process: false only before the process's first GTK test.
    nonisolated(unsafe) public private(set) static var isSetUp = false

    /// Initializes GTK on the main thread; idempotent.
    public static func setUp() {
        guard !isSetUp else { return }
        isSetUp = true
        failOnCriticals()
        setenv("GSK_RENDERER", "cairo", 0)
        gtk_init()
        MainQueueBridge.install()
        cgtk_settings_set_boolean("gtk-enable-animations", 1)
        // The virtual devices exist before the first window, as a laptop's do: a seat that gains
        // its keyboard later gives it to the windows already open only after a round trip.
        MainActor.assumeIsolated { if isWayland { _ = VirtualInput.shared } }
    }

    /// Whether GTK draws through Wayland (meson-helpers/wayland-session) rather than X11.
    @MainActor
    public static var isWayland: Bool {
        setUp()
        return String(cString: cgtk_display_type_name(gdk_display_get_default())) == "GdkWaylandDisplay"
    }

    /// Under Wayland, moves the pointer off every test window, as xdotool's windows never find it:
    /// a window mapped under the pointer would restyle the row it hovers.
    @MainActor
    public static func parkPointer() {
        guard isWayland else { return }
        VirtualInput.shared.send([VirtualInput.shared.moveCommand(to: (5, 5))])
    }

    /// Runs the main loop for `seconds`.
    public static func iterate(for seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end { _ = g_main_context_iteration(nil, 0); usleep(1000) }
    }

    /// Runs the main loop until `condition` holds or `timeout` passes; returns whether it held.
    @discardableResult
    public static func iterate(timeout: Double = 5, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < end else { return false }
            _ = g_main_context_iteration(nil, 0)
            usleep(1000)
        }
        return true
    }

    /// Runs the main loop until `condition` holds. When `timeout` seconds pass first, the test
    /// fails where this was called, saying what it waited for; returns whether the condition held.
    @discardableResult
    public static func wait(until condition: () -> Bool, timeout: Double = 5, _ what: @autoclosure () -> String,
                            file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard iterate(timeout: timeout, until: condition) else {
            XCTFail("Waited \(timeout) s in vain for \(what())", file: file, line: line)
            return false
        }
        return true
    }

    /// Runs the main loop until `widget`'s window has drawn `count` frames from now on, so every
    /// change made before is laid out and painted; fails the test if no frame comes.
    @discardableResult
    public static func waitForFrames(of widget: UnsafeMutablePointer<GtkWidget>, count: Int = 1, timeout: Double = 5,
                                     file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard let native = gtk_widget_get_native(widget), let surface = gtk_native_get_surface(native),
              let clock = gdk_surface_get_frame_clock(surface) else {
            XCTFail("The widget is in no window that draws frames", file: file, line: line)
            return false
        }
        let target = gdk_frame_clock_get_frame_counter(clock) + count
        return wait(until: {
            guard gdk_frame_clock_get_frame_counter(clock) < target else { return true }
            // A window with nothing changing draws no frame: ask for one.
            gtk_widget_queue_draw(widget)
            return false
        }, timeout: timeout, "\(count) frame(s) of the window", file: file, line: line)
    }

    /// Waits until the display server has handed over every event it made before now (one
    /// round trip) and the windows have handled them: GTK gives widgets pointer motion, and the
    /// events queued after it, when a window's frame begins, so each window shown draws one.
    public static func settleInput(file: StaticString = #filePath, line: UInt = #line) {
        gdk_display_sync(gdk_display_get_default())
        runPending()
        let toplevels = gtk_window_get_toplevels()!
        for index in 0..<g_list_model_get_n_items(toplevels) {
            let window = UnsafeMutablePointer<GtkWidget>(OpaquePointer(g_list_model_get_item(toplevels, index)!))
            g_object_unref(window)
            if gtk_widget_get_mapped(window) != 0 { waitForFrames(of: window, file: file, line: line) }
        }
    }

    /// Runs the main loop until it has nothing ready to run, as after a window is destroyed, for
    /// at most `timeout` seconds (a running animation always has its next frame to run).
    public static func runPending(timeout: Double = 1) {
        let end = Date().addingTimeInterval(timeout)
        while g_main_context_pending(nil) != 0, Date() < end { _ = g_main_context_iteration(nil, 0) }
    }

    /// Sets gtk-enable-animations for the duration of `body`.
    public static func withAnimations<T>(_ enabled: Bool, _ body: () throws -> T) rethrows -> T {
        cgtk_settings_set_boolean("gtk-enable-animations", enabled.gboolean)
        defer { cgtk_settings_set_boolean("gtk-enable-animations", 1) }
        return try body()
    }
}

/// Runs `body` as main-actor code: XCTest calls tests on the main thread.
public func onMain<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    GtkTestEnvironment.setUp()
    return try onMainActor(body)
}

/// A new, empty folder under the temporary directory.
public func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("refreshgtk-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Where `(x, y)` of `widget` is for `RealInput`: inside `window`'s X surface (what
/// `xdotool --window` takes), or in the Wayland output layout, where the test compositor puts
/// each window's content (its geometry, shadows excluded) at `VirtualInput.windowOrigin`.
@MainActor
public func surfacePoint(of widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>,
                         x: Double, y: Double) -> (x: Int, y: Int) {
    var inWindow = graphene_point_t()
    var local = graphene_point_t(x: Float(x), y: Float(y))
    _ = gtk_widget_compute_point(widget, window, &local, &inWindow)
    var shiftX = 0.0, shiftY = 0.0
    if GtkTestEnvironment.isWayland {
        (shiftX, shiftY) = (Double(VirtualInput.windowOrigin.x), Double(VirtualInput.windowOrigin.y))
    } else {
        gtk_native_get_surface_transform(cast(window), &shiftX, &shiftY)
    }
    return (Int((Double(inWindow.x) + shiftX).rounded()), Int((Double(inWindow.y) + shiftY).rounded()))
}
