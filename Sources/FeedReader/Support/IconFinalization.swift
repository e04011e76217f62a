import CGtk
import Foundation

/// Has the icon theme's icons finalized on the main thread only: a workaround for a race in GTK 4.8.
///
/// GTK reads an icon's file on its thread pool, and its icon cache holds an icon only while it is
/// among the last hundred handed out. A pool thread can let go of an icon's last reference (its
/// loading task's, or the cache's as it makes room for the icon just loaded): the icon is then
/// finalized on that thread, and until its finalization takes it out of the cache, a lookup on the
/// main thread (for any image drawn, GTK's own window buttons as well as the app's) can find it
/// there and take a reference to an object already finalized: GLib's "object_already_finalized"
/// critical, then a crash in gtk_icon_theme_lookup_icon. On the main thread no lookup runs meanwhile.
enum IconFinalization {
    /// Installs the workaround, once: GLib calls an object's dispose as its last reference goes;
    /// an icon's, on another thread, takes a reference again, which the main thread lets go of.
    @MainActor static func keepOnMainThread() { _ = installed }

    /// GtkIconPaintable's dispose replaced, on first use.
    @MainActor private static let installed: Void = {
        // The class stays referenced: its dispose is replaced for the process's life.
        let iconClass = g_type_class_ref(gtk_icon_paintable_get_type())!.assumingMemoryBound(to: GObjectClass.self)
        disposeIcon = iconClass.pointee.dispose
        iconClass.pointee.dispose = disposeOnMainThread
    }()
}

/// GtkIconPaintable's own dispose, which ``disposeOnMainThread(_:)`` calls on the main thread.
private nonisolated(unsafe) var disposeIcon: (@convention(c) (UnsafeMutablePointer<GObject>?) -> Void)?

/// An icon's dispose, run by GLib on the thread letting go of its last reference.
private func disposeOnMainThread(_ icon: UnsafeMutablePointer<GObject>?) {
    if Thread.isMainThread {
        disposeIcon?(icon)
    } else {
        // GLib finalizes no object that its dispose referenced again.
        g_object_ref(icon)
        g_idle_add({ icon in g_object_unref(icon); return 0 }, icon)
    }
}
