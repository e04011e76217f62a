import CGtk
import RefreshCore

/// The widget an indicator draws into, exposed to assistive technology as a status.
///
/// Each drawing is kept as one image of the part the indicator drew on, painted by a cairo node
/// of that size: GTK 4.8's cairo renderer replays a cairo node's recording into a fresh image of
/// the node's area on every frame it renders, so a pull frame that only moves the header would
/// otherwise clear, draw the texts and arrow into and composite a header-wide image each time
/// (see docs/performance.md).
@MainActor
final class IndicatorView {
    let widget: ObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let indicator: any RefreshIndicator
    private(set) var model: IndicatorModel
    private var tickID: guint = 0
    /// Whether frames are coming for the indicator's movement.
    var isTicking: Bool { tickID != 0 }
    private var announced: String?
    private var warmUpSource: guint = 0
    private var isWarm = false
    /// The images the last two snapshots' nodes paint (see ``snapshot(into:)``).
    private var drawnImages: [OpaquePointer] = []

    init(indicator: any RefreshIndicator, model: IndicatorModel) {
        self.indicator = indicator
        self.model = model
        widget = ObjectRef(takingOwnership: cgtk_widget_new_with_role(IndicatorWidgetType.gtype, GTK_ACCESSIBLE_ROLE_STATUS))
        gtk_widget_add_css_class(widget.pointer, "refresh-indicator")
        gtk_widget_set_can_target(widget.pointer, 0)
        g_object_set_qdata(cast(widget.pointer), IndicatorWidgetType.quark, Unmanaged.passUnretained(self).toOpaque())
        announce()
    }

    /// Shows a new model: redraws, and tells assistive technology when the text changed.
    func update(_ newModel: IndicatorModel) {
        guard newModel != model else { return }
        var unchangedLook = model
        unchangedLook.pullingPercent = newModel.pullingPercent
        model = newModel
        // A pull step changes only the percent: most indicators look the same, and the view moves
        // them by their allocation.
        if unchangedLook != newModel || indicator.drawsPullingPercent {
            gtk_widget_queue_draw(widget.pointer)
        }
        announce()
        keepAnimatingIfNeeded()
    }

    /// The text assistive technology reads: the state title, then the last-updated line.
    var accessibleText: String {
        [model.title, model.subtitle].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    private func announce() {
        let text = accessibleText
        guard text != announced else { return }
        announced = text
        cgtk_accessible_set_label(cast(widget.pointer), text)
        cgtk_accessible_set_busy(cast(widget.pointer), model.state.isRefreshing.gboolean)
    }

    /// The widget's snapshot: the indicator drawn once, then kept as the image of what it drew.
    /// GTK keeps the node until the next ``update(_:)`` or tick queues a draw.
    func snapshot(into snapshot: OpaquePointer) {
        guard let (image, bounds) = drawnImage() else { return }
        // Kept while a node may paint it: an image destroyed under a recording is copied first,
        // and GTK drops the previous drawing's node only after this one is made.
        drawnImages.append(image)
        if drawnImages.count > 2 { cairo_surface_destroy(drawnImages.removeFirst()) }
        // A recording that paints one image is replayed as a copy of it: no texts or arrow drawn again.
        var nodeBounds = bounds
        let node = gtk_snapshot_append_cairo(snapshot, &nodeBounds)!
        cairo_set_source_surface(node, image, Double(bounds.origin.x), Double(bounds.origin.y))
        cairo_paint(node)
        cairo_destroy(node)
    }

    /// The indicator drawn as `shown` (its model by default) into a new image of the part it draws
    /// on, at the widget's scale, and where that part lies in the widget; nil when it draws nothing.
    private func drawnImage(as shown: IndicatorModel? = nil) -> (OpaquePointer, graphene_rect_t)? {
        let width = Double(gtk_widget_get_width(widget.pointer)), height = Double(gtk_widget_get_height(widget.pointer))
        guard width > 0, height > 0 else { return nil }
        var area = cairo_rectangle_t(x: 0, y: 0, width: width, height: height)
        guard let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &area) else { return nil }
        defer { cairo_surface_destroy(recording) }
        let recorder = cairo_create(recording)!
        draw(cairo: recorder, width: width, height: height, as: shown)
        cairo_destroy(recorder)

        var inkX = 0.0, inkY = 0.0, inkWidth = 0.0, inkHeight = 0.0
        cairo_recording_surface_ink_extents(recording, &inkX, &inkY, &inkWidth, &inkHeight)
        // Whole device pixels, one more on each side for antialiasing, inside the widget.
        let scale = Double(max(1, gtk_widget_get_scale_factor(widget.pointer)))
        let left = max(0, ((inkX - 1) * scale).rounded(.down) / scale)
        let top = max(0, ((inkY - 1) * scale).rounded(.down) / scale)
        let right = min(width, ((inkX + inkWidth + 1) * scale).rounded(.up) / scale)
        let bottom = min(height, ((inkY + inkHeight + 1) * scale).rounded(.up) / scale)
        guard inkWidth > 0, inkHeight > 0, right > left, bottom > top,
              let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(((right - left) * scale).rounded()),
                                                     Int32(((bottom - top) * scale).rounded())) else { return nil }
        cairo_surface_set_device_scale(image, scale, scale)
        let painter = cairo_create(image)!
        // SOURCE into the new, clear image: cairo replays the recording straight into it.
        cairo_set_operator(painter, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(painter, recording, -left, -top)
        cairo_paint(painter)
        cairo_destroy(painter)
        return (image, graphene_rect_t(origin: graphene_point_t(x: Float(left), y: Float(top)),
                                       size: graphene_size_t(width: Float(right - left), height: Float(bottom - top))))
    }

    private func draw(cairo: OpaquePointer, width: Double, height: Double, as shown: IndicatorModel? = nil) {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget.pointer), &color)
        let context = IndicatorDrawContext(cairo: cairo, widget: widget.pointer, width: width, height: height,
                                           time: MainThread.now, model: shown ?? model, foreground: color)
        indicator.draw(context)
    }

    /// Once, when the main loop is next idle, draws the indicator offscreen as each of `models`,
    /// so that the first pull frame after launch finds its fonts loaded, its texts shaped and its
    /// images decoded instead of doing all that while the fingers move.
    func warmUpWhenIdle(as models: [IndicatorModel]) {
        guard !isWarm, warmUpSource == 0 else { return }
        warmUpSource = MainThread.whenIdle { [weak self] in
            self?.warmUpSource = 0
            self?.warmUp(as: models)
        }
    }

    /// Draws each of `models` as a snapshot would, so that the cairo and Pango paths of the first
    /// pull frame are warm too.
    private func warmUp(as models: [IndicatorModel]) {
        for shown in models {
            if let (image, _) = drawnImage(as: shown) { cairo_surface_destroy(image) }
        }
        isWarm = true
    }

    /// Frames keep coming only while the indicator moves and the desktop wants animations: with
    /// them off (reduced motion) a spinner stands still, as GtkSpinner does.
    private func keepAnimatingIfNeeded() {
        guard tickID == 0, FrameAnimator.animationsEnabled, indicator.isAnimating(model, at: MainThread.now) else { return }
        tickID = gtk_widget_add_tick_callback(widget.pointer, { widget, _, data in
            let view = Unmanaged<IndicatorView>.fromOpaque(data!).takeUnretainedValue()
            return onMainActor { view.tick() }.gboolean
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func tick() -> Bool {
        gtk_widget_queue_draw(widget.pointer)
        guard FrameAnimator.animationsEnabled, indicator.isAnimating(model, at: MainThread.now) else {
            tickID = 0
            return false
        }
        return true
    }

    isolated deinit {
        if tickID != 0 { gtk_widget_remove_tick_callback(widget.pointer, tickID) }
        if warmUpSource != 0 { g_source_remove(warmUpSource) }
        g_object_set_qdata(cast(widget.pointer), IndicatorWidgetType.quark, nil)
        for image in drawnImages { cairo_surface_destroy(image) }
    }
}
