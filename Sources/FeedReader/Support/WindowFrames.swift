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

    /// What waits for a frame, boxed for GTK's tick callback.
    private final class FrameWaiter {
        let body: @MainActor () -> Void
        init(_ body: @escaping @MainActor () -> Void) { self.body = body }
    }
}
