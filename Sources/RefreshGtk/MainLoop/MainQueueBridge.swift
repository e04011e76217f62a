import CGtk

/// Lets `DispatchQueue.main`, `@MainActor` tasks and `MainActor.run` work inside the GLib main loop.
///
/// While `g_application_run` owns the main thread, libdispatch's main queue is never drained.
/// libdispatch signals pending main-queue work on an eventfd; GLib watches it and drains the queue.
public enum MainQueueBridge {
    nonisolated(unsafe) private static var sourceID: guint = 0

    /// Installs the bridge on the default main context. Idempotent; call on the main thread.
    public static func install() {
        guard sourceID == 0 else { return }
        let fd = _dispatch_get_main_queue_handle_4CF()
        guard fd >= 0 else { return }
        sourceID = g_unix_fd_add(fd, G_IO_IN, { fd, _, _ in
            var value: eventfd_t = 0
            _ = eventfd_read(fd, &value)
            _dispatch_main_queue_callback_4CF(nil)
            return gboolean(1)
        }, nil)
    }
}
