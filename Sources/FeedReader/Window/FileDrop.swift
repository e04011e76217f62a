import CGtk
import Foundation
import RefreshGtk

/// Accepts a file dropped onto a widget (from a file manager) and hands over its path.
@MainActor
enum FileDrop {
    private final class Box {
        let handler: @MainActor (URL) -> Void
        init(_ handler: @escaping @MainActor (URL) -> Void) { self.handler = handler }
    }

    /// Adds a drop target for one file to `widget`; returns the target, owned by the widget.
    @discardableResult
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping @MainActor (URL) -> Void) -> OpaquePointer {
        let target = gtk_drop_target_new(g_file_get_type(), GDK_ACTION_COPY)!
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, _, _, data in
            guard let value, let data, let object = g_value_get_object(value) else { return 0 }
            let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
            guard let path = g_file_get_path(OpaquePointer(object)) else { return 0 }
            defer { g_free(path) }
            let url = URL(fileURLWithPath: String(cString: path))
            MainActor.assumeIsolated { box.handler(url) }
            return 1
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            if let data { Unmanaged<Box>.fromOpaque(data).release() }
        }
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        g_signal_connect_data(cast(target), "drop", unsafeBitCast(trampoline, to: GCallback.self), box, release, GConnectFlags(0))
        gtk_widget_add_controller(widget, cast(target))
        return target
    }
}
