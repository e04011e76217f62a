import CGtk
import RefreshCore

/// Drives an ``OffsetAnimation`` from a widget's frame clock.
///
/// Like libadwaita's animations: the curve is a pure function of time, a tick callback samples
/// it, and it jumps to the end when the widget is not mapped or animations are disabled.
@MainActor
final class FrameAnimator {
    private var tickID: guint = 0
    /// The widget whose clock ticks, held while it does: its tick is removed from it even when
    /// the animator goes after it.
    private var widget: ObjectRef<UnsafeMutablePointer<GtkWidget>>?
    private var animation = OffsetAnimation(from: 0, to: 0, duration: 0)
    private var startTime: gint64?
    private var onStep: (Double) -> Void = { _ in }
    private var onFinish: () -> Void = {}

    var isRunning: Bool { tickID != 0 }

    /// Whether the desktop wants animations (gtk-enable-animations).
    static var animationsEnabled: Bool { cgtk_settings_get_boolean("gtk-enable-animations") != 0 }

    /// Starts `animation` on `widget`'s frame clock, replacing any running one.
    func start(_ animation: OffsetAnimation, on widget: UnsafeMutablePointer<GtkWidget>,
               step: @escaping (Double) -> Void, finish: @escaping () -> Void) {
        stop()
        self.animation = animation
        onStep = step
        onFinish = finish
        guard Self.animationsEnabled, gtk_widget_get_mapped(widget) != 0, !animation.isFinished(at: 0) else {
            step(animation.to)
            finish()
            return
        }
        self.widget = ObjectRef(retaining: widget)
        startTime = gtk_widget_get_frame_clock(widget).map { gdk_frame_clock_get_frame_time($0) }
        tickID = gtk_widget_add_tick_callback(widget, { _, clock, data in
            let animator = Unmanaged<FrameAnimator>.fromOpaque(data!).takeUnretainedValue()
            return onMainActor { animator.tick(gdk_frame_clock_get_frame_time(clock)) }.gboolean
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Stops where it is, without finishing.
    func stop() {
        if tickID != 0, let widget { gtk_widget_remove_tick_callback(widget.pointer, tickID) }
        tickID = 0
        widget = nil
    }

    /// Jumps to the end now, as when the widget is unmapped.
    func finishNow() {
        guard isRunning else { return }
        stop()
        onStep(animation.to)
        onFinish()
    }

    private func tick(_ frameTime: gint64) -> Bool {
        let start = startTime ?? frameTime
        startTime = start
        let elapsed = Double(frameTime - start) / 1_000_000
        onStep(animation.value(at: elapsed))
        guard animation.isFinished(at: elapsed) else { return true }
        tickID = 0
        widget = nil
        onFinish()
        return false
    }

    isolated deinit { stop() }
}
