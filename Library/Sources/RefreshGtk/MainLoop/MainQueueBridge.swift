import CGtk

/// Lets `DispatchQueue.main`, `@MainActor` tasks and `MainActor.run` work inside the GLib main loop.
///
/// While `g_application_run` owns the main thread, libdispatch's main queue is never drained.
/// libdispatch signals pending main-queue work on an eventfd; GLib watches it and drains the queue.
public enum MainQueueBridge {
    /// Installs the bridge on the default main context. Idempotent; call on the main thread.
    public static func install() {
        _ = sourceID
    }

    /// The GLib source draining the main queue, added once, on first use (0 if libdispatch has
    /// no main-queue handle).
    private static let sourceID: guint = {
        let fd = _dispatch_get_main_queue_handle_4CF()
        guard fd >= 0 else { return 0 }
        return g_unix_fd_add(fd, G_IO_IN, { fd, _, _ in
            var value: eventfd_t = 0
            _ = eventfd_read(fd, &value)
            _dispatch_main_queue_callback_4CF(nil)
            return gboolean(1)
        }, nil)
    }()
}
