import CGtk
import RefreshCore
import RefreshGtk

/// `header_frame_us_scale1` and `_scale2`: one frame of the NormalHeader, drawn by the very
/// code its component uses, into an offscreen Cairo image surface at a device scale.
@MainActor
enum HeaderPaintBench {
    static let framesPerRun = 200

    /// Median over runs of each run's median frame, in microseconds.
    static func run(_ options: BenchOptions, scale: Double) -> Double {
        let header = NormalHeader()
        header.lastUpdatedFile = BenchFiles.directory.appendingPathComponent("header.ini").path
        // The last-updated line as people see it most of the time: "Last update: Today 14:02".
        header.recordLastUpdated()
        header.refreshIndicator()
        let width = 720.0, height = header.extent
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width * scale), Int32(height * scale))!
        cairo_surface_set_device_scale(surface, scale, scale)
        defer { cairo_surface_destroy(surface) }
        var foreground = GdkRGBA(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)
        gtk_style_context_get_color(gtk_widget_get_style_context(header.indicatorWidget), &foreground)

        var frame = 0
        /// One frame: clear, then arrow (turning) or spinner, always with both texts.
        func paint() {
            var model = header.indicatorModel
            let time = MainThread.now
            // Alternate the frames a pull and a refresh draw: an arrow halfway through its turn,
            // then the spinner; the titles follow the state as the component's would.
            let refreshing = frame % 2 == 1
            model.state = refreshing ? .refreshing : .pulling
            model.previousState = refreshing ? .pulling : .idle
            model.title = RefreshLocalization.text(RefreshText.header(model.state))
            model.stateChangedAt = time - 0.1
            frame += 1
            let cr = cairo_create(surface)!
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            header.normalIndicator.draw(IndicatorDrawContext(cairo: cr, widget: header.indicatorWidget,
                                                             width: width, height: height, time: time,
                                                             model: model, foreground: foreground))
            cairo_destroy(cr)
            cairo_surface_flush(surface)
        }

        for _ in 0..<(options.warmUps * framesPerRun / 4) { paint() }
        var medians: [Double] = []
        for _ in 0..<options.runs {
            var frames: [Double] = []
            frames.reserveCapacity(framesPerRun)
            for _ in 0..<framesPerRun { frames.append(Double(Clock.time { paint() }) / 1000) }
            medians.append(Stats.median(frames))
        }
        return Stats.median(medians)
    }
}
