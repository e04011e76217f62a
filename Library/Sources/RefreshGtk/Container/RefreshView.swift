import CGtk
import RefreshCore

/// The container that gives a GtkScrolledWindow its refresh components.
///
/// It shows the scrolled window at full size and moves it only through its allocation
/// transform, so a pull frame never re-lays out the content; components' indicators are
/// children drawn in the space the content leaves. Place ``widget`` where the scrolled
/// window would go.
@MainActor
public final class RefreshView {
    /// The container widget (a `RefreshGtkView`), to put in the app's layout. It owns this
    /// object: the view lives until the widget is finalized.
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// The wrapped scrolled window, kept alive as long as this object.
    public var scrolledWindow: OpaquePointer { scrolledWindowRef.pointer }
    private let scrolledWindowRef: ObjectRef<OpaquePointer>
    private(set) var components: [RefreshComponent] = []
    private var isAlive = true
    private var inputs: RefreshViewInput?
    /// The content's frame as one picture while it is displaced and unchanged (see ``ContentPicture``).
    let contentPicture = ContentPicture()
    /// Handlers on the adjustments, which are held: the scrolled window drops an adjustment it
    /// replaces before telling us, and a handler must be disconnected from a live object.
    private var adjustmentHandlers: [(adjustment: ObjectRef<UnsafeMutablePointer<GtkAdjustment>>, id: Signal.HandlerID)] = []
    /// The scrolled window's notify::*adjustment handlers, disconnected on dispose.
    private var scrolledWindowHandlers: [Signal.HandlerID] = []

    /// Whether a component may start refreshing while another one refreshes: off by default, so a
    /// pull or a footer does not load while a refresh runs, nor the other way round. The app's
    /// own `beginRefreshing()` always starts.
    public var allowsSimultaneousRefresh = false {
        didSet { componentStateChanged() }
    }

    /// Wraps `scrolledWindow`, which must not have a parent yet (see ``view(for:)``).
    public init(wrapping scrolledWindow: OpaquePointer) {
        precondition(gtk_widget_get_parent(cast(scrolledWindow)) == nil,
                     "RefreshView(wrapping:): the scrolled window already has a parent; use RefreshView.view(for:)")
        widget = cast(g_object_new_with_properties(RefreshViewType.gtype, 0, nil, nil))
        scrolledWindowRef = ObjectRef(retaining: scrolledWindow)
        RefreshViewType.attach(self, to: widget)
        g_object_set_qdata(cast(scrolledWindow), RefreshViewType.quark, widget)
        gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN)
        gtk_widget_set_parent(cast(scrolledWindow), widget)
        inputs = RefreshViewInput(view: self)
        scrolledWindowHandlers = ["notify::vadjustment", "notify::hadjustment"].map { name in
            // notify passes the GParamSpec before the user data.
            Signal.connectIgnoringArgument(cast(scrolledWindow), name) { [weak self] in self?.watchAdjustments() }
        }
        // GtkTextDirection arrives as the unsigned enum value it is.
        Signal.connectUInt(cast(widget), "direction-changed") { [weak self] _ in self?.directionChanged() }
        watchAdjustments()
    }

    /// The view wrapping `scrolledWindow`, created on first use.
    ///
    /// A scrolled window already inside a GtkWindow or GtkBox is moved into the new view in place.
    /// Nil, with a critical warning, when it sits in another kind of parent: put it in a
    /// ``RefreshView`` yourself then.
    public static func view(for scrolledWindow: OpaquePointer) -> RefreshView? {
        let sw: UnsafeMutablePointer<GtkWidget> = cast(scrolledWindow)
        // The qdata is cleared when the view is disposed; the parent check also refuses a
        // scrolled window someone took out of its view by hand.
        if let data = g_object_get_qdata(cast(scrolledWindow), RefreshViewType.quark),
           gtk_widget_get_parent(sw) == data.assumingMemoryBound(to: GtkWidget.self),
           let view = RefreshViewType.view(of: data.assumingMemoryBound(to: GtkWidget.self)), view.isAlive {
            return view
        }
        guard let parent = gtk_widget_get_parent(sw) else { return RefreshView(wrapping: scrolledWindow) }
        let previous = gtk_widget_get_prev_sibling(sw)
        // Held while it moves: taken out of its parent, it may have no other owner.
        let held = ObjectRef(retaining: sw)
        defer { withExtendedLifetime(held) {} }
        let parentType = G_TYPE_FROM_INSTANCE(parent)
        if g_type_is_a(parentType, gtk_window_get_type()) != 0 {
            gtk_window_set_child(cast(parent), nil)
            let view = RefreshView(wrapping: scrolledWindow)
            gtk_window_set_child(cast(parent), view.widget)
            return view
        }
        if g_type_is_a(parentType, gtk_box_get_type()) != 0 {
            gtk_box_remove(cast(parent), sw)
            let view = RefreshView(wrapping: scrolledWindow)
            gtk_box_insert_child_after(cast(parent), view.widget, previous)
            return view
        }
        cgtk_log_critical("RefreshGtk", "RefreshView.view(for:): put the scrolled window in a RefreshView yourself; its parent type is not supported")
        return nil
    }

    /// Adds a component; a component already on another view moves here, and one already on
    /// the same edge of this view is removed.
    func add(_ component: RefreshComponent) {
        guard isAlive, !components.contains(where: { $0 === component }) else { return }
        component.viewDirectionChanged(rightToLeft: isRightToLeft)
        for replaced in components where replaced.edge == component.edge { remove(replaced) }
        components.append(component)
        component.attach(to: self)
        componentStateChanged()
        gtk_widget_queue_allocate(widget)
    }

    /// Takes `component` off this view: unparented, its animation finished, its view cleared.
    func remove(_ component: RefreshComponent) {
        guard components.contains(where: { $0 === component }) else { return }
        component.detach()
        components.removeAll { $0 === component }
        component.setBlocked(false)
        componentStateChanged()
        if isAlive { gtk_widget_queue_allocate(widget) }
    }

    /// A component's state changed: holds the others back while it refreshes, or lets them go.
    func componentStateChanged() {
        let blocked = RefreshExclusivity.blocked(refreshing: components.map(\.isRefreshing),
                                                 allowsSimultaneous: allowsSimultaneousRefresh)
        for (component, isBlocked) in zip(components, blocked) { component.setBlocked(isBlocked) }
    }

    private func directionChanged() {
        for component in components { component.viewDirectionChanged(rightToLeft: isRightToLeft) }
        gtk_widget_queue_allocate(widget)
    }

    var isMapped: Bool { isAlive && gtk_widget_get_mapped(widget) != 0 }

    var isRightToLeft: Bool { gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL }

    /// The vertical or horizontal adjustment a component's edge scrolls.
    func adjustment(for edge: RefreshEdge) -> UnsafeMutablePointer<GtkAdjustment>? {
        edge.isVertical ? gtk_scrolled_window_get_vadjustment(scrolledWindow)
                        : gtk_scrolled_window_get_hadjustment(scrolledWindow)
    }

    /// Whether the content is scrolled all the way to `edge`, within a tolerance: adjustments
    /// stop at values like 1e-14, never exactly at the bound.
    func isAtEdge(_ edge: RefreshEdge) -> Bool {
        guard let adjustment = adjustment(for: edge) else { return true }
        let value = gtk_adjustment_get_value(adjustment)
        switch edge {
        case .top, .left:
            return value - gtk_adjustment_get_lower(adjustment) < PullTuning.edgeTolerance
        case .bottom, .right:
            let end = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            return end - value < PullTuning.edgeTolerance
        }
    }

    /// How far the content is scrolled away from `edge`.
    func distanceFromEdge(_ edge: RefreshEdge) -> Double {
        guard let adjustment = adjustment(for: edge) else { return 0 }
        let value = gtk_adjustment_get_value(adjustment)
        switch edge {
        case .top, .left: return value - gtk_adjustment_get_lower(adjustment)
        case .bottom, .right:
            return gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - value
        }
    }

    /// Scrolls the content towards `edge` by `pixels`.
    func scrollTowardsEdge(_ edge: RefreshEdge, by pixels: Double) {
        guard let adjustment = adjustment(for: edge) else { return }
        let value = gtk_adjustment_get_value(adjustment)
        let sign: Double = (edge == .top || edge == .left) ? -1 : 1
        gtk_adjustment_set_value(adjustment, value + sign * pixels)
    }

    /// The content's extent along `edge`'s axis: the scrollable length.
    func contentExtent(for edge: RefreshEdge) -> Double {
        guard let adjustment = adjustment(for: edge) else { return 0 }
        return gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_lower(adjustment)
    }

    /// Whether all the content fits in the view, so it cannot scroll along `edge`'s axis.
    func contentFitsViewport(for edge: RefreshEdge) -> Bool {
        guard let adjustment = adjustment(for: edge) else { return true }
        return contentExtent(for: edge) <= gtk_adjustment_get_page_size(adjustment) + PullTuning.edgeTolerance
    }

    /// The viewport's extent along `edge`'s axis: how far a rubber band may stretch.
    func viewportExtent(for edge: RefreshEdge) -> Double {
        Double(edge.isVertical ? gtk_widget_get_height(widget) : gtk_widget_get_width(widget))
    }

    /// Lays out again after a component's offset changed: the content moves, nothing re-measures.
    func offsetsChanged() {
        guard isAlive else { return }
        gtk_widget_queue_allocate(widget)
    }

    // MARK: - vfuncs

    func measure(_ orientation: GtkOrientation, forSize: Int32) -> (minimum: Int32, natural: Int32) {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(cast(scrolledWindow), orientation, forSize, &minimum, &natural, nil, nil)
        return (minimum, natural)
    }

    func allocate(width: Int32, height: Int32, baseline: Int32) {
        // Laying the content out can move components: a list that grew gives a held footer's
        // space to scrolling. Their new offsets are placed in this same frame, since a
        // queue_allocate from inside size_allocate is dropped; the transform alone changes,
        // so the content is not laid out again.
        var content = contentPosition()
        for _ in 0..<3 {
            var point = graphene_point_t(x: Float(content.x), y: Float(content.y))
            gtk_widget_allocate(cast(scrolledWindow), width, height, baseline, gsk_transform_translate(nil, &point))
            let moved = contentPosition()
            guard moved != content else { break }
            content = moved
        }
        for component in components {
            component.allocateIndicator(width: Double(width), height: Double(height), content: content)
        }
    }

    /// Where the content goes: displaced by every component's offset, snapped to device pixels.
    private func contentPosition() -> (x: Double, y: Double) {
        var dx = 0.0, dy = 0.0
        for component in components {
            let shift = component.edge.contentDisplacement(component.offset)
            dx += shift.x
            dy += shift.y
        }
        let scale = Double(max(1, gtk_widget_get_scale_factor(widget)))
        return (x: (dx * scale).rounded() / scale, y: (dy * scale).rounded() / scale)
    }

    /// The view expands as its scrolled window does, like any single-child container.
    var contentExpands: (horizontal: Bool, vertical: Bool) {
        (gtk_widget_compute_expand(cast(scrolledWindow), GTK_ORIENTATION_HORIZONTAL) != 0,
         gtk_widget_compute_expand(cast(scrolledWindow), GTK_ORIENTATION_VERTICAL) != 0)
    }

    func didMap() {
        for component in components { component.viewDidMap() }
    }

    func willUnmap() {
        contentPicture.reset()
        for component in components { component.viewWillUnmap() }
    }

    /// Draws the children in order; the content comes from ``contentPicture`` while a
    /// component holds it away from its place, and back in place until it changes.
    func snapshot(into snapshot: OpaquePointer) {
        let content: UnsafeMutablePointer<GtkWidget> = cast(scrolledWindow)
        let isDisplaced = components.contains { $0.offset != 0 }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if current == content, isDisplaced || contentPicture.isHeld {
                contentPicture.snapshot(content, of: widget, into: snapshot, isDisplaced: isDisplaced)
            } else {
                gtk_widget_snapshot_child(widget, current, snapshot)
            }
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// Undoes what ``init(wrapping:)`` and ``add(_:)`` set up: the scrolled window, which may
    /// outlive the view, keeps no handler, qdata or parent of it.
    func dispose() {
        guard isAlive else { return }
        for component in components { remove(component) }
        isAlive = false
        disconnectAdjustments()
        for id in scrolledWindowHandlers { g_signal_handler_disconnect(cast(scrolledWindow), id) }
        scrolledWindowHandlers.removeAll()
        if g_object_get_qdata(cast(scrolledWindow), RefreshViewType.quark) == UnsafeMutableRawPointer(widget) {
            g_object_set_qdata(cast(scrolledWindow), RefreshViewType.quark, nil)
        }
        inputs = nil
        contentPicture.reset()
        if gtk_widget_get_parent(cast(scrolledWindow)) == widget { gtk_widget_unparent(cast(scrolledWindow)) }
    }

    // MARK: - Adjustments

    /// Follows the adjustments' value and bounds: the GTK replacement for MJRefresh's KVO.
    private func watchAdjustments() {
        disconnectAdjustments()
        for adjustment in [gtk_scrolled_window_get_vadjustment(scrolledWindow),
                           gtk_scrolled_window_get_hadjustment(scrolledWindow)].compactMap({ $0 }) {
            let valueID = Signal.connect(cast(adjustment), "value-changed") { [weak self] in
                self?.adjustmentChanged(adjustment)
            }
            let boundsID = Signal.connect(cast(adjustment), "changed") { [weak self] in
                self?.adjustmentChanged(adjustment)
            }
            let held = ObjectRef(retaining: adjustment)
            adjustmentHandlers += [(held, valueID), (held, boundsID)]
        }
    }

    private func disconnectAdjustments() {
        for handler in adjustmentHandlers { g_signal_handler_disconnect(cast(handler.adjustment.pointer), handler.id) }
        adjustmentHandlers.removeAll()
    }

    private func adjustmentChanged(_ adjustment: UnsafeMutablePointer<GtkAdjustment>) {
        for component in components where self.adjustment(for: component.edge) == adjustment {
            component.contentScrolled(distance: distanceFromEdge(component.edge))
        }
    }
}
