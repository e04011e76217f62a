import CGtk
import FeedCore
import RefreshGtk

/// Fetches the feeds' icons that are missing or due for a check, one run at a time, and shows
/// the ones that changed in the sidebar.
@MainActor
final class FeedIconUpdates {
    /// The feeds' icons on disk.
    let icons: FeedIcons
    private let model: LibraryModel
    private let sidebar: FeedSidebar
    private var isUpdating = false

    init(icons: FeedIcons, model: LibraryModel, sidebar: FeedSidebar) {
        (self.icons, self.model, self.sidebar) = (icons, model, sidebar)
        sidebar.icons = FeedIconTextures(icons: icons) { [weak sidebar] in sidebar?.showIconsAgain() }
    }

    /// Fetches the icons of the model's feeds that are missing or due, unless a run is under way,
    /// once the window has drawn the feeds: at start a thousand feeds' lookups (with the TLS
    /// library and the threads they bring) would otherwise come before the first frame.
    func update() {
        guard !isUpdating else { return }
        isUpdating = true
        Self.afterNextFrame(of: sidebar.widget) { [weak self] in self?.fetch() }
    }

    private func fetch() {
        let feeds = model.feeds
        Task { @MainActor [weak self, icons] in
            let changed = await icons.update(feeds)
            guard let self else { return }
            self.isUpdating = false
            guard !changed.isEmpty else { return }
            self.sidebar.icons?.invalidate(feeds.filter { changed.contains($0.id) })
            self.sidebar.showIconsAgain()
        }
    }

    /// Calls `body` when the main loop is idle after the next frame of `widget`'s window is
    /// drawn; at once when `widget` is in no window shown (one running in the background is
    /// hidden), which draws nothing to wait for.
    private static func afterNextFrame(of widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
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
