import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Feed icons as textures with as many pixels as the screen shows for the sidebar's 16-point
/// icon, so they stay sharp at any scale; loaded once per file change and scale.
@MainActor
final class FeedIconTextures {
    /// The icon's size in logical pixels, the size of the symbolic icons beside it.
    static let size: Int32 = 16
    private let icons: FeedIcons
    private var loaded: [URL: (scale: Int32, texture: ObjectRef<OpaquePointer>)] = [:]

    init(icons: FeedIcons) {
        self.icons = icons
    }

    /// `feed`'s icon as a texture for `scale`, or nil when it has none that can be read.
    func texture(for feed: StoredFeed, scale: Int32) -> OpaquePointer? {
        icons.file(for: feed).flatMap { texture($0, scale: scale) }
    }

    /// Forgets `feeds`' textures, whose files changed.
    func invalidate(_ feeds: [StoredFeed]) {
        for feed in feeds {
            if let file = icons.file(for: feed) { loaded[file] = nil }
        }
    }

    private func texture(_ file: URL, scale: Int32) -> OpaquePointer? {
        if let cached = loaded[file], cached.scale == scale { return cached.texture.pointer }
        let pixels = Self.size * max(1, scale)
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file_at_scale(file.path, pixels, pixels, 1, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_object_unref(cast(pixbuf)) }
        let texture = ObjectRef(takingOwnership: gdk_texture_new_for_pixbuf(pixbuf)!)
        loaded[file] = (scale, texture)
        return texture.pointer
    }
}
