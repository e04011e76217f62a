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
        WindowFrames.afterNextFrame(of: sidebar.widget) { [weak self] in self?.fetch() }
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
}
