import CGtk

/// The content's last frame kept as one picture while a component holds it away from its
/// place, so that a pull frame paints a single image instead of every visible row again.
/// Back in place, the picture keeps serving until the content changes: the frame that ends a
/// pull paints one image too, not every row of a list box.
///
/// GTK keeps each widget's render node until the widget queues a draw, so the node the
/// scrolled window snapshots to is the same object for as long as nothing inside it changed:
/// that identity says when the picture is still true. Content that stays still is pictured at
/// once: on the first frame it leaves its place, and again whenever it changes after a picture
/// served a few frames. Content that changes every frame (a scroll bar fading, an animation in
/// a row) must first be seen unchanged on two frames in a row, so it is drawn as it is and
/// never pays for pictures nobody reuses.
@MainActor
final class ContentPicture {
    /// The picture, and the content node it shows (referenced so its address is never reused).
    private var current: (node: OpaquePointer, picture: Picture)?
    /// The node seen on the last frame, not made into a picture yet.
    private var candidate: OpaquePointer?

    /// How many frames were painted from a picture made earlier (the tests read it).
    private(set) var reuses = 0
    /// Frames the current picture has served: when it served enough, the content changes
    /// rarely, and a change is pictured at once.
    private var served = 0
    /// Frames a picture must serve before a change to the content is pictured at once.
    private static let steadyFrames = 3

    /// Whether a picture is kept: content back in place still goes through ``snapshot(_:of:into:isDisplaced:)``
    /// until the picture is dropped.
    var isHeld: Bool { current != nil }

    /// Snapshots `content`, a child of `parent` placed by its allocation transform, into
    /// `snapshot`: from the picture when the content is unchanged since it was made. New
    /// pictures are made only while the content `isDisplaced`.
    func snapshot(_ content: UnsafeMutablePointer<GtkWidget>, of parent: UnsafeMutablePointer<GtkWidget>,
                  into snapshot: OpaquePointer, isDisplaced: Bool) {
        let scratch = gtk_snapshot_new()!
        gtk_widget_snapshot_child(parent, content, scratch)
        guard let placed = gtk_snapshot_free_to_node(scratch) else { return }
        defer { gsk_render_node_unref(placed) }
        let isTransform = gsk_render_node_get_node_type(placed) == GSK_TRANSFORM_NODE
        let node = isTransform ? gsk_transform_node_get_child(placed)! : placed

        if node != current?.node {
            guard isDisplaced else {
                reset()
                gtk_snapshot_append_node(snapshot, placed)
                return
            }
            let isSteady = node == candidate || (current == nil && candidate == nil) || served >= Self.steadyFrames
            if isSteady, let made = Picture(of: node, content: content, parent: parent) {
                reset()
                current = (gsk_render_node_ref(node), made)
            } else {
                served = 0
                remember(candidate: node)
                gtk_snapshot_append_node(snapshot, placed)
                return
            }
        } else {
            reuses += 1
            served += 1
        }
        gtk_snapshot_save(snapshot)
        if isTransform { gtk_snapshot_transform(snapshot, gsk_transform_node_get_transform(placed)) }
        var bounds = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                     size: graphene_size_t(width: Float(gtk_widget_get_width(content)),
                                                           height: Float(gtk_widget_get_height(content))))
        current?.picture.append(to: snapshot, bounds: &bounds)
        gtk_snapshot_restore(snapshot)
    }

    /// Forgets the picture: the view is unmapped, or the renderer is going away.
    func reset() {
        if let current {
            gsk_render_node_unref(current.node)
            current.picture.release()
        }
        current = nil
        served = 0
        remember(candidate: nil)
    }

    private func remember(candidate node: OpaquePointer?) {
        if let candidate { gsk_render_node_unref(candidate) }
        candidate = node.map { gsk_render_node_ref($0) }
    }
}

/// A content node made into pixels at the device's scale, in the form the window's renderer
/// paints fastest: for the cairo renderer a cairo node holding one image (a texture node would
/// be converted and padded pixel by pixel on every frame), for a GL renderer a texture it keeps
/// on the GPU.
private enum Picture {
    /// The cairo node and the image its recording paints, kept: an image destroyed while a
    /// recording holds it is first copied whole by cairo (copy-on-write).
    case cairoNode(OpaquePointer, image: OpaquePointer)
    case texture(OpaquePointer)

    @MainActor
    init?(of node: OpaquePointer, content: UnsafeMutablePointer<GtkWidget>, parent: UnsafeMutablePointer<GtkWidget>) {
        let width = Double(gtk_widget_get_width(content)), height = Double(gtk_widget_get_height(content))
        guard width > 0, height > 0, let native = gtk_widget_get_native(parent),
              let renderer = gtk_native_get_renderer(native) else { return nil }
        let scale = Double(max(1, gtk_widget_get_scale_factor(parent)))
        if g_type_check_instance_is_a(cast(renderer), gsk_cairo_renderer_get_type()) != 0 {
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32((width * scale).rounded(.up)),
                                                     Int32((height * scale).rounded(.up)))!
            cairo_surface_set_device_scale(surface, scale, scale)
            let cairo = cairo_create(surface)!
            Self.drawVisible(node, into: cairo)
            cairo_destroy(cairo)
            // One cairo node for the picture's life: a node made anew every frame would hand
            // cairo a new recording to replay, and cairo replays a recording into a fresh copy
            // before compositing it, on every frame.
            var bounds = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                         size: graphene_size_t(width: Float(width), height: Float(height)))
            let picture = gsk_cairo_node_new(&bounds)!
            let recording = gsk_cairo_node_get_draw_context(picture)!
            cairo_set_source_surface(recording, surface, 0, 0)
            cairo_paint(recording)
            cairo_destroy(recording)
            self = .cairoNode(picture, image: surface)
        } else {
            var viewport = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                           size: graphene_size_t(width: Float(width * scale), height: Float(height * scale)))
            // GSK's identity transform is NULL: only a real scale gets a transform node.
            let scaling = scale > 1 ? gsk_transform_scale(nil, Float(scale), Float(scale)) : nil
            defer { if let scaling { gsk_transform_unref(scaling) } }
            guard let scaled = scaling.flatMap({ gsk_transform_node_new(node, $0) }) ?? gsk_render_node_ref(node) else { return nil }
            defer { gsk_render_node_unref(scaled) }
            guard let texture = gsk_renderer_render_texture(renderer, scaled, &viewport) else { return nil }
            self = .texture(cast(texture))
        }
    }

    /// Draws `node` as `gsk_render_node_draw` does, without the parts of it outside the picture.
    ///
    /// GTK 4.8's cairo renderer draws every node it is given, even where the clip hides it, and a
    /// GtkListBox snapshots every row: culling containers' children here made the picture of a
    /// 2,000-row list box a few visible rows' work instead of 11 to 55 ms.
    private static func drawVisible(_ node: OpaquePointer, into cairo: OpaquePointer) {
        switch gsk_render_node_get_node_type(node) {
        case GSK_CONTAINER_NODE:
            var left = 0.0, top = 0.0, right = 0.0, bottom = 0.0
            cairo_clip_extents(cairo, &left, &top, &right, &bottom)
            for index in 0..<gsk_container_node_get_n_children(node) {
                let child = gsk_container_node_get_child(node, index)!
                var bounds = graphene_rect_t()
                gsk_render_node_get_bounds(child, &bounds)
                let x = Double(bounds.origin.x), y = Double(bounds.origin.y)
                guard x < right, y < bottom, x + Double(bounds.size.width) > left,
                      y + Double(bounds.size.height) > top else { continue }
                drawVisible(child, into: cairo)
            }
        case GSK_CLIP_NODE:
            let clip = gsk_clip_node_get_clip(node)!.pointee
            cairo_save(cairo)
            cairo_rectangle(cairo, Double(clip.origin.x), Double(clip.origin.y),
                            Double(clip.size.width), Double(clip.size.height))
            cairo_clip(cairo)
            drawVisible(gsk_clip_node_get_child(node)!, into: cairo)
            cairo_restore(cairo)
        case GSK_TRANSFORM_NODE where gsk_transform_get_category(gsk_transform_node_get_transform(node))
            .rawValue >= GSK_TRANSFORM_CATEGORY_2D.rawValue:
            var xx: Float = 0, yx: Float = 0, xy: Float = 0, yy: Float = 0, dx: Float = 0, dy: Float = 0
            gsk_transform_to_2d(gsk_transform_node_get_transform(node), &xx, &yx, &xy, &yy, &dx, &dy)
            // A flattened matrix draws nothing, as GTK's own transform node decides.
            guard xx * yy != xy * yx else { return }
            var matrix = cairo_matrix_t(xx: Double(xx), yx: Double(yx), xy: Double(xy), yy: Double(yy),
                                        x0: Double(dx), y0: Double(dy))
            cairo_save(cairo)
            cairo_transform(cairo, &matrix)
            drawVisible(gsk_transform_node_get_child(node)!, into: cairo)
            cairo_restore(cairo)
        default:
            gsk_render_node_draw(node, cairo)
        }
    }

    @MainActor
    func append(to snapshot: OpaquePointer, bounds: inout graphene_rect_t) {
        switch self {
        case let .cairoNode(node, _):
            gtk_snapshot_append_node(snapshot, node)
        case let .texture(texture):
            gtk_snapshot_append_texture(snapshot, texture, &bounds)
        }
    }

    func release() {
        switch self {
        case let .cairoNode(node, image):
            // The recording first, so that the image it holds goes without being copied.
            gsk_render_node_unref(node)
            cairo_surface_destroy(image)
        case let .texture(texture): g_object_unref(cast(texture))
        }
    }
}
