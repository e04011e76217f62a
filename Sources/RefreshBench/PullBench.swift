import CGtk
import Foundation
import RefreshCore
import RefreshGtk
import GtkInspection

/// Pull frames on each kind of content (``PullContent``), our way (a RefreshView moving the
/// content by its allocation transform) against the way GTK apps do it today (a header above the
/// content whose height request follows the pull), in the same run.
///
/// A frame is what GTK's frame clock would do for it, timed from the new offset in to the
/// rendered texture out: the input, the window's layout, a snapshot of the window's content
/// (every widget that did not change keeps its cached render node, as in a real frame) and a
/// render with the window's own renderer. It runs synchronously so that nothing but the frame
/// is timed: no main-loop waits, no X server round trips.
@MainActor
enum PullBench {
    /// The reader's entry pane at its default window size.
    static let width: Int32 = 720, height: Int32 = 640
    /// Scroll steps down, then as many back up: the pull passes the threshold and returns to the
    /// edge, where it ends without starting a refresh.
    static let stepsEachWay = 60
    static let stepPixels = 4.0

    struct Result {
        var ours: (p50: Double, p99: Double)
        var baseline: (p50: Double, p99: Double)
        /// GtkListView relayouts per frame, ours and the baseline's (0 for other content).
        var relayoutsPerFrame: Double
        var baselineRelayoutsPerFrame: Double
        /// p50 and p99 of rendering one flat colour the size of the window: what any frame costs
        /// before it draws anything, the lower bound of both figures above.
        var renderFloor: (p50: Double, p99: Double)
        /// p50 of each frame's part before rendering (input, layout, snapshot): ours, baseline.
        var layoutP50: (ours: Double, baseline: Double)
        /// Every timed frame in microseconds, in order, for the chart.
        var ourFrames: [Double]
        var baselineFrames: [Double]
    }

    static func run(_ options: BenchOptions, content: PullContent) -> Result {
        ListViewLayoutCounter.install()
        let ours = OurWindow(content: content)
        let baseline = BaselineWindow(content: content)

        // Warm-up: the first pull creates glyph caches, the arrow's tick callback and the
        // indicator's first render; the baseline's first resizes create rows.
        var offsets: [Double] = []
        for _ in 0..<options.warmUps {
            offsets = ours.pull().offsets
            _ = baseline.pull(offsets: offsets)
        }

        var ourP50: [Double] = [], ourP99: [Double] = [], baseP50: [Double] = [], baseP99: [Double] = []
        var ourLayout: [Double] = [], baseLayout: [Double] = [], ourFrames: [Double] = [], baseFrames: [Double] = []
        var relayouts = 0, baselineRelayouts = 0, frames = 0
        for _ in 0..<options.runs {
            // Alternated run by run so that both see the same machine load.
            let before = ListViewLayoutCounter.count
            let run = ours.pull()
            relayouts += ListViewLayoutCounter.count - before
            frames += run.times.count
            ourFrames += run.times
            ourP50.append(Stats.percentile(run.times, 50))
            ourP99.append(Stats.percentile(run.times, 99))
            ourLayout.append(Stats.percentile(run.layoutTimes, 50))

            let baselineBefore = ListViewLayoutCounter.count
            let base = baseline.pull(offsets: run.offsets)
            baselineRelayouts += ListViewLayoutCounter.count - baselineBefore
            baseFrames += base.times
            baseP50.append(Stats.percentile(base.times, 50))
            baseP99.append(Stats.percentile(base.times, 99))
            baseLayout.append(Stats.percentile(base.layoutTimes, 50))
        }
        let floor = ours.window.renderFloor(frames: 2 * stepsEachWay)
        ours.close()
        baseline.close()
        return Result(ours: (Stats.median(ourP50), Stats.median(ourP99)),
                      baseline: (Stats.median(baseP50), Stats.median(baseP99)),
                      relayoutsPerFrame: Double(relayouts) / Double(max(frames, 1)),
                      baselineRelayoutsPerFrame: Double(baselineRelayouts) / Double(max(frames, 1)),
                      renderFloor: floor,
                      layoutP50: (Stats.median(ourLayout), Stats.median(baseLayout)),
                      ourFrames: ourFrames, baselineFrames: baseFrames)
    }

    // MARK: - The two windows

    /// Ours: the list in a RefreshView with a NormalHeader, pulled through the view's own
    /// touchpad scroll controller, as the tests drive it.
    @MainActor
    final class OurWindow {
        let window: BenchWindow
        let header = NormalHeader()
        let content: PullContent
        private let scroll: OpaquePointer
        private let scrolled: OpaquePointer

        init(content: PullContent) {
            self.content = content
            scrolled = content.makeScrolledWindow()
            let view = RefreshView(wrapping: scrolled)
            header.lastUpdatedFile = BenchFiles.directory.appendingPathComponent("pull.ini").path
            header.link(to: view)
            window = BenchWindow(child: view.widget, title: "refresh-bench: ours")
            scroll = eventController(named: "refresh-pull-scroll", on: view.widget)
            // A touchpad that reports scroll-end: no pause timer is needed to end a pull.
            cgtk_emit_by_name(cast(scroll), "scroll-begin")
            cgtk_emit_by_name(cast(scroll), "scroll-end")
            window.settle()
        }

        /// One pull, frame by frame: each frame's time in microseconds, the part of it before
        /// rendering, and the header's offset.
        func pull() -> (times: [Double], layoutTimes: [Double], offsets: [Double]) {
            var times: [Double] = [], layoutTimes: [Double] = [], offsets: [Double] = []
            times.reserveCapacity(2 * stepsEachWay)
            cgtk_emit_by_name(cast(scroll), "scroll-begin")
            // Synthesized deltas come in wheel units, which the view scales by page^(2/3) as
            // GtkScrolledWindow does: convert, so each step moves the pull `stepPixels`.
            let page = gtk_adjustment_get_page_size(gtk_scrolled_window_get_vadjustment(scrolled))
            let units = stepPixels / pow(max(page, 1), PullTuning.wheelStepExponent)
            for step in 0..<(2 * stepsEachWay) {
                // GTK's scroll deltas point the other way: negative dy pulls the header open.
                let dy = step < stepsEachWay ? -units : units
                let start = Clock.nanoseconds()
                _ = cgtk_emit_scroll(cast(scroll), 0, dy)
                window.frame(savingTo: step == stepsEachWay ? FrameDump.path("ours-\(content.rawValue)") : nil)
                times.append(Double(Clock.nanoseconds() - start) / 1000)
                layoutTimes.append(Double(window.renderStarted - start) / 1000)
                offsets.append(header.pullingPercent * header.extent)
            }
            cgtk_emit_by_name(cast(scroll), "scroll-end")
            window.settle()
            return (times, layoutTimes, offsets)
        }

        /// The frame of a pull's first delta, in milliseconds: what a person waits for after
        /// touching the touchpad.
        func firstPullFrame() -> Double {
            cgtk_emit_by_name(cast(scroll), "scroll-begin")
            let page = gtk_adjustment_get_page_size(gtk_scrolled_window_get_vadjustment(scrolled))
            let start = Clock.nanoseconds()
            _ = cgtk_emit_scroll(cast(scroll), 0, -stepPixels / pow(max(page, 1), PullTuning.wheelStepExponent))
            window.frame()
            return Double(Clock.nanoseconds() - start) / 1_000_000
        }

        func close() { window.close() }
    }

    /// The comparison: a header above the list in a vertical box; each frame sets the header's
    /// height request to the pull's offset, which lays the list out again. The header draws the
    /// same NormalIndicator, so both windows paint the same things.
    @MainActor
    final class BaselineWindow {
        let window: BenchWindow
        let content: PullContent
        private let headerArea: UnsafeMutablePointer<GtkWidget>
        private let painter = HeaderPainter()

        init(content: PullContent) {
            self.content = content
            let scrolled = content.makeScrolledWindow()
            headerArea = gtk_drawing_area_new()
            gtk_drawing_area_set_draw_func(cast(headerArea), { area, cairo, width, height, data in
                let painter = Unmanaged<HeaderPainter>.fromOpaque(data!).takeUnretainedValue()
                onMainActor { painter.draw(cairo: cairo!, area: area!, width: Double(width), height: Double(height)) }
            }, Unmanaged.passUnretained(painter).toOpaque(), nil)
            gtk_widget_set_size_request(headerArea, -1, 0)
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(cast(box), headerArea)
            gtk_box_append(cast(box), cast(scrolled))
            window = BenchWindow(child: box, title: "refresh-bench: baseline")
            window.settle()
        }

        /// The same pull: the header's height follows `offsets`, frame by frame.
        func pull(offsets: [Double]) -> (times: [Double], layoutTimes: [Double]) {
            var times: [Double] = [], layoutTimes: [Double] = []
            times.reserveCapacity(offsets.count)
            for (step, offset) in offsets.enumerated() {
                let start = Clock.nanoseconds()
                painter.offset = offset
                gtk_widget_set_size_request(headerArea, -1, Int32(offset.rounded()))
                gtk_widget_queue_draw(headerArea)
                window.frame(savingTo: step == stepsEachWay ? FrameDump.path("baseline-\(content.rawValue)") : nil)
                times.append(Double(Clock.nanoseconds() - start) / 1000)
                layoutTimes.append(Double(window.renderStarted - start) / 1000)
            }
            gtk_widget_set_size_request(headerArea, -1, 0)
            window.settle()
            return (times, layoutTimes)
        }

        func close() { window.close() }
    }

    /// Draws the baseline's header with NormalHeader's indicator: arrow turned past the
    /// threshold, both texts.
    @MainActor
    final class HeaderPainter {
        let header = NormalHeader()
        var offset = 0.0

        init() {
            header.lastUpdatedFile = BenchFiles.directory.appendingPathComponent("baseline.ini").path
        }

        func draw(cairo: OpaquePointer, area: UnsafeMutablePointer<GtkDrawingArea>, width: Double, height: Double) {
            guard height > 0 else { return }
            var model = header.indicatorModel
            model.state = offset >= header.extent ? .pulling : .idle
            model.title = RefreshLocalization.text(RefreshText.header(model.state))
            var color = GdkRGBA()
            let widget: UnsafeMutablePointer<GtkWidget> = cast(area)
            gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color)
            // The indicator draws in a header-sized box at the bottom of the revealed space.
            cairo_save(cairo)
            cairo_translate(cairo, 0, height - header.extent)
            header.normalIndicator.draw(IndicatorDrawContext(cairo: cairo, widget: widget, width: width,
                                                             height: header.extent, time: MainThread.now,
                                                             model: model, foreground: color))
            cairo_restore(cairo)
        }
    }
}

/// `$REFRESH_BENCH_SAVE_FRAMES`: a folder where the frame at the deepest point of each pull is
/// saved as a PNG, to see what the bench renders. Unset (the default), nothing is saved.
enum FrameDump {
    static let folder = ProcessInfo.processInfo.environment["REFRESH_BENCH_SAVE_FRAMES"]

    static func path(_ name: String) -> String? {
        folder.map { "\($0)/\(name).png" }
    }
}

/// A realized, mapped, undecorated window of the bench's size, and one synchronous frame of it.
@MainActor
final class BenchWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    private let child: UnsafeMutablePointer<GtkWidget>
    /// The frame's pixels: one surface kept across frames, as a window keeps its own, so that no
    /// frame pays for a new one (1.8 MB of fresh pages, a third of a frame in callgrind).
    private let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, PullBench.width, PullBench.height)!
    private var viewport = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                           size: graphene_size_t(width: Float(PullBench.width),
                                                                 height: Float(PullBench.height)))

    /// When the last frame's render began: what came before it (input, layout, snapshot) is the
    /// part in which the two ways of pulling differ.
    private(set) var renderStarted: UInt64 = 0

    private static var background = GdkRGBA(red: 0xfa / 255.0, green: 0xfa / 255.0, blue: 0xfa / 255.0, alpha: 1)

    init(child: UnsafeMutablePointer<GtkWidget>, title: String) {
        self.child = child
        window = gtk_window_new()
        gtk_window_set_title(cast(window), title)
        // No title bar: the content is the whole window, so a snapshot of it is the whole frame.
        gtk_window_set_decorated(cast(window), 0)
        gtk_window_set_default_size(cast(window), PullBench.width, PullBench.height)
        gtk_window_set_child(cast(window), child)
        gtk_window_present(cast(window))
        let deadline = Clock.nanoseconds() + 5_000_000_000
        while gtk_widget_get_mapped(window) == 0 || gtk_widget_get_height(window) != PullBench.height,
              Clock.nanoseconds() < deadline {
            _ = g_main_context_iteration(nil, 0)
            usleep(1000)
        }
        // Content laid out in idle time (a text view's lines) is laid out before any frame is timed.
        while g_main_context_pending(nil) != 0, Clock.nanoseconds() < deadline + 10_000_000_000 {
            _ = g_main_context_iteration(nil, 0)
        }
    }

    /// One frame: the frame clock's tick callbacks, the window's layout at its size, a snapshot
    /// of its content to a render node, and that node drawn into the frame's surface.
    ///
    /// The snapshot goes through `gtk_widget_snapshot_child`, not a GtkWidgetPaintable: a widget
    /// paintable shows the window's last painted frame, not the one just laid out.
    func frame(savingTo path: String? = nil) {
        // The frame clock's update phase first, as in a real frame: tick callbacks run (an arrow
        // turning queues its redraw), then layout and paint.
        if let clock = gtk_widget_get_frame_clock(window) { cgtk_emit_by_name(cast(clock), "update") }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(window, GTK_ORIENTATION_VERTICAL, PullBench.width, &minimum, &natural, nil, nil)
        gtk_widget_allocate(window, PullBench.width, PullBench.height, -1, nil)
        let snapshot = gtk_snapshot_new()!
        // The window's own background (Adwaita's), which its snapshot would paint first.
        gtk_snapshot_append_color(snapshot, &Self.background, &viewport)
        gtk_widget_snapshot_child(window, child, snapshot)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return }
        renderStarted = Clock.nanoseconds()
        render(node)
        if let path { _ = cairo_surface_write_to_png(target, path) }
        gsk_render_node_unref(node)
    }

    /// Draws `node` over a cleared frame, as GTK's cairo renderer does into a window's surface.
    private func render(_ node: OpaquePointer) {
        let cairo = cairo_create(target)!
        cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        gsk_render_node_draw(node, cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(target)
    }

    /// Times rendering a single colour node the size of the window, `frames` times: the part
    /// of every frame that no layout strategy can avoid (the surface cleared and filled).
    func renderFloor(frames: Int) -> (p50: Double, p99: Double) {
        var color = GdkRGBA(red: 1, green: 1, blue: 1, alpha: 1)
        var times: [Double] = []
        for _ in 0..<frames {
            let elapsed = Clock.time {
                let node = gsk_color_node_new(&color, &viewport)!
                render(node)
                gsk_render_node_unref(node)
            }
            times.append(Double(elapsed) / 1000)
        }
        return (Stats.percentile(times, 50), Stats.percentile(times, 99))
    }

    /// Lets the main loop run pending frames and timers: animations end, the window paints.
    func settle(seconds: Double = 0.15) {
        let end = Clock.nanoseconds() + UInt64(seconds * 1e9)
        while Clock.nanoseconds() < end {
            _ = g_main_context_iteration(nil, 0)
            usleep(1000)
        }
    }

    func close() {
        gtk_window_destroy(cast(window))
        cairo_surface_destroy(target)
        settle(seconds: 0.05)
    }
}
