import CGtk
import RefreshGtk

/// Work that waits until a window has drawn what it shows.
@MainActor
enum WindowFrames {
    /// Calls `body` when the main loop is idle after the next frame of `widget`'s window is
    /// drawn; at once when `widget` is in no window shown (one running in the background is
    /// hidden), which draws nothing to wait for.
    static func afterNextFrame(of widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
        guard let window = gtk_widget_get_root(widget), gtk_widget_get_mapped(cast(window)) != 0 else {
            body()
            return
        }
        let box = Unmanaged.passRetained(FrameWaiter(body)).toOpaque()
        // The tick comes as the frame starts; the idle after it, once the frame is drawn.
        gtk_widget_add_tick_callback(cast(window), { _, _, data in
            let body = Unmanaged<FrameWaiter>.fromOpaque(data!).takeUnretainedValue().body
            MainThread.whenIdle(body)
            return gboolean(0)
        }, box, { data in Unmanaged<FrameWaiter>.fromOpaque(data!).release() })
    }

    /// How many rows at least `pitch` pixels apart fill the tallest screen, with one cut at
    /// each end: what a list shows at most, however its window is sized; no more than `most`
    /// (all of it when no screen says its height).
    static func rowsFillingTallestScreen(pitch: Int32, atMost most: guint) -> guint {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display) else { return most }
        var tallest: Int32 = 0
        for index in 0..<g_list_model_get_n_items(monitors) {
            guard let monitor = g_list_model_get_item(monitors, index) else { continue }
            var area = GdkRectangle()
            gdk_monitor_get_geometry(OpaquePointer(monitor), &area)
            g_object_unref(monitor)
            tallest = max(tallest, area.height)
        }
        return tallest > 0 ? min(guint(tallest / pitch + 2), most) : most
    }

    /// What waits for a frame, boxed for GTK's tick callback.
    private final class FrameWaiter {
        let body: @MainActor () -> Void
        init(_ body: @escaping @MainActor () -> Void) { self.body = body }
    }
}
