import AppSignals
import CGtk
import FeedCore
import RefreshGtk

/// Accepts a file dropped onto a widget (from a file manager) and hands it over by the bytes of
/// its path, which need not be UTF-8.
@MainActor
enum FileDrop {
    /// Adds a drop target for one file to `widget`; returns the target, owned by the widget.
    @discardableResult
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping @MainActor (LocalFile) -> Void) -> OpaquePointer {
        let target = gtk_drop_target_new(g_file_get_type(), GDK_ACTION_COPY)!
        Signal.connectDrop(cast(target), "drop") { value, _, _ in
            guard let object = g_value_get_object(value), let file = LocalFile(OpaquePointer(object)) else { return false }
            handler(file)
            return true
        }
        gtk_widget_add_controller(widget, cast(target))
        return target
    }
}
