import CGtk
import Foundation
import RefreshCore

/// MJRefresh's Gif look: a sequence of images per state, with the state text beside them.
///
/// While idle the image follows the pull (the frame at `count x pullingPercent`); pulling and
/// refreshing loop their frames, by default at 0.1 s a frame; a single image stands still. A
/// state with no images shows the texts alone, and with the texts hidden the image is centred.
/// The component grows to the tallest first frame.
@MainActor
public final class GifIndicator: RefreshIndicator {
    /// Why image files could not be loaded.
    public struct LoadError: Error, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// Space between the image and the texts (MJRefresh's Gif variants: 20).
    public var labelInset = 20.0
    /// The texts beside the image.
    public let texts = StateIndicator()

    private var sequences: [RefreshState: (frames: [ObjectRef<OpaquePointer>], duration: Double?)] = [:]
    /// Tells the component that images changed: it redraws and grows to ``preferredExtent``.
    var imagesChanged: (() -> Void)?

    public init() {}

    /// Shows `images` (GdkPaintables, such as GdkTextures) in `state`, looping them over
    /// `duration` seconds where the state loops (default: 0.1 s a frame).
    public func setImages(_ images: [OpaquePointer], duration: Double? = nil, for state: RefreshState) {
        sequences[state] = (images.map { ObjectRef(retaining: $0) }, duration)
        imagesChanged?()
    }

    /// Loads image files (PNG, JPEG, ...) in order and shows them in `state`.
    public func setImages(contentsOf paths: [String], duration: Double? = nil, for state: RefreshState) throws {
        let textures = try paths.map { ObjectRef(takingOwnership: try Self.loadTexture($0)) }
        sequences[state] = (textures, duration)
        imagesChanged?()
    }

    /// How many images `state` shows.
    public func imageCount(for state: RefreshState) -> Int { sequence(for: state)?.frames.count ?? 0 }

    /// The height of the tallest first image, which the component grows to.
    public var preferredExtent: Double? {
        sequences.values.compactMap { $0.frames.first }.map { Double(gdk_paintable_get_intrinsic_height($0.pointer)) }.max()
    }

    /// Which image of the model's state shows at `time`, if the state has any.
    public func frameIndex(for model: IndicatorModel, at time: Double) -> Int? {
        guard let sequence = sequence(for: model.state) else { return nil }
        let count = sequence.frames.count
        return GifFrames.index(state: model.state, count: count, pullingPercent: model.pullingPercent,
                               elapsed: time - model.stateChangedAt,
                               loopDuration: GifFrames.loopDuration(count: count, duration: sequence.duration))
    }

    public func isAnimating(_ model: IndicatorModel, at time: Double) -> Bool {
        GifFrames.loops(state: model.state, count: imageCount(for: model.state))
    }

    public func draw(_ context: IndicatorDrawContext) {
        let textExtent = texts.drawTexts(context)
        guard let sequence = sequence(for: context.model.state),
              let index = frameIndex(for: context.model, at: context.time) else { return }
        let image = sequence.frames[index].pointer
        let size = (width: Double(gdk_paintable_get_intrinsic_width(image)),
                    height: Double(gdk_paintable_get_intrinsic_height(image)))
        let origin = imageOrigin(context, size: size, textExtent: textExtent)
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(image, cast(snapshot), size.width, size.height)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return }
        defer { gsk_render_node_unref(node) }
        cairo_save(context.cairo)
        cairo_translate(context.cairo, origin.x.rounded(), origin.y.rounded())
        gsk_render_node_draw(node, context.cairo)
        cairo_restore(context.cairo)
    }

    /// Beside the texts, `labelInset` before them (after them right to left, above them on a side
    /// edge); centred when there are none.
    private func imageOrigin(_ context: IndicatorDrawContext, size: (width: Double, height: Double),
                             textExtent: Double) -> (x: Double, y: Double) {
        let centred = (x: (context.width - size.width) / 2, y: (context.height - size.height) / 2)
        guard textExtent > 0 else { return centred }
        let gap = textExtent / 2 + labelInset
        guard context.model.edge.isVertical else {
            return (centred.x, context.height / 2 - gap - size.height)
        }
        let x = context.isRightToLeft ? context.width / 2 + gap : context.width / 2 - gap - size.width
        return (x, centred.y)
    }

    /// A state's images; willRefresh shows the refreshing ones.
    private func sequence(for state: RefreshState) -> (frames: [ObjectRef<OpaquePointer>], duration: Double?)? {
        let sequence = sequences[state] ?? (state == .willRefresh ? sequences[.refreshing] : nil)
        guard let sequence, !sequence.frames.isEmpty else { return nil }
        return sequence
    }

    /// A new texture from an image file; the caller owns it.
    private static func loadTexture(_ path: String) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let texture = gdk_texture_new_from_filename(path, &error) else {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unreadable image"
            g_clear_error(&error)
            throw LoadError(path: path, message: message)
        }
        return texture
    }
}
