import CGtk
import RefreshCore

/// The widget an indicator draws into: a drawing area exposed to assistive technology as a status.
@MainActor
final class IndicatorView {
    let widget: ObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let indicator: any RefreshIndicator
    private(set) var model: IndicatorModel
    private var tickID: guint = 0
    private var announced: String?
    private var warmUpSource: guint = 0
    private var isWarm = false

    init(indicator: any RefreshIndicator, model: IndicatorModel) {
        self.indicator = indicator
        self.model = model
        widget = ObjectRef(takingOwnership: cgtk_drawing_area_new_with_role(GTK_ACCESSIBLE_ROLE_STATUS))
        gtk_widget_add_css_class(widget.pointer, "refresh-indicator")
        gtk_widget_set_can_target(widget.pointer, 0)
        gtk_drawing_area_set_draw_func(cast(widget.pointer), { area, cairo, width, height, data in
            let view = Unmanaged<IndicatorView>.fromOpaque(data!).takeUnretainedValue()
            onMainActor { view.draw(cairo: cairo!, width: Double(width), height: Double(height)) }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
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

    private func warmUp(as models: [IndicatorModel]) {
        let width = Int32(max(gtk_widget_get_width(widget.pointer), 1))
        let height = Int32(max(gtk_widget_get_height(widget.pointer), 1))
        let scale = gtk_widget_get_scale_factor(widget.pointer)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width * scale, height * scale) else { return }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_set_device_scale(surface, Double(scale), Double(scale))
        guard let cairo = cairo_create(surface) else { return }
        defer { cairo_destroy(cairo) }
        for shown in models {
            cairo_save(cairo)
            draw(cairo: cairo, width: Double(width), height: Double(height), as: shown)
            cairo_restore(cairo)
        }
        isWarm = true
    }

    private func keepAnimatingIfNeeded() {
        guard tickID == 0, indicator.isAnimating(model, at: MainThread.now) else { return }
        tickID = gtk_widget_add_tick_callback(widget.pointer, { widget, _, data in
            let view = Unmanaged<IndicatorView>.fromOpaque(data!).takeUnretainedValue()
            return onMainActor { view.tick() }.gboolean
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func tick() -> Bool {
        gtk_widget_queue_draw(widget.pointer)
        guard indicator.isAnimating(model, at: MainThread.now) else {
            tickID = 0
            return false
        }
        return true
    }

    isolated deinit {
        if tickID != 0 { gtk_widget_remove_tick_callback(widget.pointer, tickID) }
        if warmUpSource != 0 { g_source_remove(warmUpSource) }
        gtk_drawing_area_set_draw_func(cast(widget.pointer), nil, nil, nil)
    }
}
