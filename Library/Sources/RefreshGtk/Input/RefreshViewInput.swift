import CGtk
import Foundation
import RefreshCore

/// The view's event controllers: a drag gesture for mouse and touchscreen, a scroll controller
/// for touchpads. Both run in the capture phase, before the scrolled window's own, and hand
/// every event to the components' pull trackers, which decide what to claim.
@MainActor
final class RefreshViewInput {
    private weak var view: RefreshView?
    private let drag: OpaquePointer
    private let scroll: OpaquePointer
    /// A press on a scrollbar is the scrollbar's: never a pull.
    private var dragIgnored = false
    private var pauseTimer: guint = 0

    init(view: RefreshView) {
        self.view = view
        drag = gtk_gesture_drag_new()
        scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)
        gtk_event_controller_set_propagation_phase(drag, GTK_PHASE_CAPTURE)
        gtk_event_controller_set_propagation_phase(scroll, GTK_PHASE_CAPTURE)
        gtk_event_controller_set_name(drag, "refresh-pull-drag")
        gtk_event_controller_set_name(scroll, "refresh-pull-scroll")

        Signal.connect(cast(drag), "drag-begin") { [weak self] x, y in self?.dragBegan(x: x, y: y) }
        Signal.connect(cast(drag), "drag-update") { [weak self] dx, dy in self?.dragMoved(dx: dx, dy: dy) }
        Signal.connect(cast(drag), "drag-end") { [weak self] _, _ in self?.dragEnded() }
        Signal.connectIgnoringArgument(cast(drag), "cancel") { [weak self] in self?.dragCancelled() }
        Signal.connect(cast(scroll), "scroll-begin") { [weak self] in
            guard let self else { return }
            send(.scrollBegan(time: eventTime(of: scroll)))
        }
        Signal.connect(cast(scroll), "scroll") { [weak self] dx, dy in self?.scrolled(dx: dx, dy: dy) ?? false }
        Signal.connect(cast(scroll), "scroll-end") { [weak self] in
            guard let self else { return }
            send(.scrollEnded(time: eventTime(of: scroll)))
        }

        gtk_widget_add_controller(view.widget, drag)
        gtk_widget_add_controller(view.widget, scroll)
    }

    isolated deinit {
        if pauseTimer != 0 { g_source_remove(pauseTimer) }
    }

    // MARK: - Drag (mouse, touchscreen)

    private func dragBegan(x: Double, y: Double) {
        guard let view else { return }
        dragIgnored = isOnScrollbar(x: x, y: y, in: view)
        guard !dragIgnored else { return }
        let threshold = Double(max(1, cgtk_settings_get_int("gtk-dnd-drag-threshold")))
        for component in view.components { component.dragThreshold = threshold }
        send(.dragBegan(time: eventTime(of: drag)))
    }

    private func dragMoved(dx: Double, dy: Double) {
        guard let view, !dragIgnored else { return }
        let time = eventTime(of: drag)
        for component in view.components {
            let (along, across) = component.edge.dragComponents(dx: dx, dy: dy)
            let response = component.input(.dragMoved(along: along, across: across,
                                                      atEdge: view.isAtEdge(component.edge), time: time))
            if response.claimed {
                // Claiming cancels the scrolled window's touch gestures and the rows' clicks: only now.
                gtk_gesture_set_state(drag, GTK_EVENT_SEQUENCE_CLAIMED)
            }
        }
    }

    private func dragEnded() {
        guard !dragIgnored else {
            dragIgnored = false
            return
        }
        send(.dragEnded(time: eventTime(of: drag)))
    }

    private func dragCancelled() {
        guard !dragIgnored else {
            dragIgnored = false
            return
        }
        send(.dragCancelled(time: eventTime(of: drag)))
    }

    private func isOnScrollbar(x: Double, y: Double, in view: RefreshView) -> Bool {
        guard let picked = gtk_widget_pick(view.widget, x, y, GTK_PICK_DEFAULT) else { return false }
        let bars = [gtk_scrolled_window_get_vscrollbar(view.scrolledWindow),
                    gtk_scrolled_window_get_hscrollbar(view.scrolledWindow)]
        return bars.contains { bar in
            guard let bar else { return false }
            return picked == bar || gtk_widget_is_ancestor(picked, bar) != 0
        }
    }

    // MARK: - Scroll (touchpad; mouse wheel never pulls)

    private func scrolled(dx: Double, dy: Double) -> Bool {
        guard let view else { return false }
        let source = scrollSource()
        let time = eventTime(of: scroll)
        var claimed = false
        for component in view.components where !claimed {
            let pixels = pixelDelta(dx: dx, dy: dy, for: component.edge, in: view)
            let along = component.edge.scrollComponent(dx: pixels.dx, dy: pixels.dy)
            guard along != 0 else { continue }
            let response = component.input(.scrolled(delta: along, source: source,
                                                     atEdge: view.isAtEdge(component.edge), time: time))
            claimed = response.claimed
        }
        watchForPause()
        return claimed
    }

    /// What GDK says about the device behind the current scroll event, as RefreshCore reads it.
    /// A synthesized sequence (no current event) is continuous and may never end with scroll-end.
    private func scrollSource() -> ScrollSource {
        guard let event = gtk_event_controller_get_current_event(scroll),
              let device = gdk_event_get_device(event) else { return .continuous(reportsEnd: false) }
        let backend = String(cString: cgtk_display_type_name(gdk_device_get_display(device)))
        return ScrollDevice(
            backend: backend == "GdkWaylandDisplay" ? .wayland : backend == "GdkX11Display" ? .x11 : .other,
            kind: Self.kind(of: gdk_device_get_source(device)),
            isDiscrete: gdk_scroll_event_get_direction(event) != GDK_SCROLL_SMOOTH,
            countsWheelSteps: gdk_scroll_event_get_unit(event) == GDK_SCROLL_UNIT_WHEEL
        ).source
    }

    private static func kind(of source: GdkInputSource) -> ScrollDevice.Kind {
        switch source {
        case GDK_SOURCE_TOUCHPAD: .touchpad
        case GDK_SOURCE_TRACKPOINT: .trackpoint
        case GDK_SOURCE_MOUSE: .mouse
        case GDK_SOURCE_TOUCHSCREEN: .touchscreen
        case GDK_SOURCE_PEN: .pen
        default: .other
        }
    }

    /// When the controller's current event happened, on the pull clock: an event queued behind
    /// a slow frame keeps its own time. Emitted signals (no event) happen now.
    private func eventTime(of controller: OpaquePointer) -> Double {
        let now = MainThread.now
        guard let event = gtk_event_controller_get_current_event(controller) else { return now }
        return EventTime.seconds(stampMilliseconds: gdk_event_get_time(event), now: now)
    }

    /// Deltas in pixels: wheel-unit deltas scaled the way GtkScrolledWindow scales them.
    private func pixelDelta(dx: Double, dy: Double, for edge: RefreshEdge, in view: RefreshView) -> (dx: Double, dy: Double) {
        guard gtk_event_controller_scroll_get_unit(scroll) == GDK_SCROLL_UNIT_WHEEL else { return (dx, dy) }
        let page = view.adjustment(for: edge).map { gtk_adjustment_get_page_size($0) } ?? view.viewportExtent(for: edge)
        let step = pow(max(page, 1), PullTuning.wheelStepExponent)
        return (dx * step, dy * step)
    }

    /// Keeps a timer while a touchpad pull may need ending by a pause (no scroll-end ever comes).
    /// Its low priority lets input queued behind a slow frame be dispatched before any check.
    private func watchForPause() {
        guard let view else { return }
        let needed = view.components.contains { $0.needsPauseDetection }
        if needed, pauseTimer == 0 {
            pauseTimer = g_timeout_add_full(G_PRIORITY_LOW, guint(PullTuning.pauseCheckInterval * 1000), { data in
                let input = Unmanaged<RefreshViewInput>.fromOpaque(data!).takeUnretainedValue()
                return onMainActor { input.pauseCheck() }
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        }
    }

    private func pauseCheck() -> gboolean {
        send(.tick(time: MainThread.now))
        let stillNeeded = view?.components.contains { $0.needsPauseDetection } ?? false
        if !stillNeeded { pauseTimer = 0 }
        return stillNeeded.gboolean
    }

    private func send(_ input: PullInput) {
        guard let view else { return }
        for component in view.components { _ = component.input(input) }
    }
}
