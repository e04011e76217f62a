import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Feed icons as textures with as many pixels as the screen shows for the sidebar's 16-point
/// icon, so they stay sharp at any scale; loaded once per file change and scale.
///
/// Files are checked and decoded one at a time off the main thread, at the size shown: an icon
/// file can be a few hundred KB that decode to gigabytes, and even a fair one would hold up the
/// window's first frame. Only the texture is made on the main thread.
@MainActor
final class FeedIconTextures {
    /// The icon's size in logical pixels, the size of the symbolic icons beside it.
    static let size: Int32 = 16
    private let icons: FeedIcons
    /// Decoded icons; a nil texture is a file that cannot be shown, not tried again until it changes.
    private var loaded: [URL: (scale: Int32, texture: ObjectRef<OpaquePointer>?)] = [:]
    /// Called when icons asked for meanwhile have been decoded, to show them.
    private let onLoad: () -> Void

    private struct Request: Hashable {
        let file: URL
        let scale: Int32
    }

    private var queue: [Request] = []
    private var queued = Set<Request>()
    private var decoding: Request?
    /// Whether the file being decoded changed meanwhile, so what comes back is stale.
    private var decodingIsStale = false
    /// How many icons were decoded since the rows were last shown again.
    private var unshown = 0
    /// How many decoded icons are shown together while more are waiting, so a long list of
    /// feeds shows its icons as they come without refilling the rows for each one.
    private static let shownTogether = 16

    init(icons: FeedIcons, onLoad: @escaping () -> Void) {
        self.icons = icons
        self.onLoad = onLoad
    }

    /// `feed`'s icon as a texture for `scale`, or nil when it has none that can be read or it is
    /// still being decoded (`onLoad` follows once it is).
    func texture(for feed: StoredFeed, scale: Int32) -> OpaquePointer? {
        guard let file = icons.file(for: feed) else { return nil }
        if let cached = loaded[file], cached.scale == scale { return cached.texture?.pointer }
        request(Request(file: file, scale: scale))
        return nil
    }

    /// Forgets `feeds`' textures, whose files changed.
    func invalidate(_ feeds: [StoredFeed]) {
        for feed in feeds {
            guard let file = icons.file(for: feed) else { continue }
            loaded[file] = nil
            if decoding?.file == file { decodingIsStale = true }
        }
    }

    private func request(_ request: Request) {
        guard request != decoding, queued.insert(request).inserted else { return }
        queue.append(request)
        decodeNext()
    }

    private func decodeNext() {
        guard decoding == nil, !queue.isEmpty else { return }
        let request = queue.removeFirst()
        queued.remove(request)
        decoding = request
        let pixels = Self.size * max(1, request.scale)
        Task.detached(priority: .utility) { [weak self] in
            let pixbuf = Self.decode(request.file, pixels: pixels)
            await MainActor.run {
                guard let self else {
                    if let pixbuf { g_object_unref(cast(pixbuf.pointer)) }
                    return
                }
                self.finish(request, pixbuf)
            }
        }
    }

    private func finish(_ request: Request, _ pixbuf: Pixbuf?) {
        defer { if let pixbuf { g_object_unref(cast(pixbuf.pointer)) } }
        decoding = nil
        if decodingIsStale {
            decodingIsStale = false
            self.request(request)
            return
        }
        loaded[request.file] = (request.scale, pixbuf.map { ObjectRef(takingOwnership: gdk_texture_new_for_pixbuf($0.pointer)!) })
        unshown += 1
        if queue.isEmpty || unshown >= Self.shownTogether {
            unshown = 0
            onLoad()
        }
        decodeNext()
    }

    /// A decoded picture handed from the decoding thread to the main thread, which owns it then.
    private struct Pixbuf: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Decodes `file` to fit `pixels` square, when its header says it is safe to decode.
    private nonisolated static func decode(_ file: URL, pixels: Int32) -> Pixbuf? {
        guard let data = IconImage.decodableContents(of: file) else { return nil }
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        defer { g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_stream_at_scale(stream, pixels, pixels, 1, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        return Pixbuf(pointer: pixbuf)
    }
}
