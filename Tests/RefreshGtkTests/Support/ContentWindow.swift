import CGtk
import Foundation
import RefreshCore
@testable import RefreshGtk

/// What a test window's scrolled window holds.
enum ContentKind: String, CaseIterable, Sendable {
    /// A vertical GtkListView of 10,000 rows.
    case listView
    /// A horizontal GtkListView of 10,000 cards.
    case horizontalListView
    /// A GtkListBox of 200 rows, wider than the window, in the viewport GTK adds for it.
    case listBox
    /// A GtkTextView of 200 long, unwrapped lines.
    case textView

    /// Whether the content scrolls along `edge`'s axis.
    func scrolls(along edge: RefreshEdge) -> Bool {
        switch self {
        case .listView: edge.isVertical
        case .horizontalListView: !edge.isVertical
        case .listBox, .textView: true
        }
    }
}

/// A shown toplevel whose scrolled window holds any ``ContentKind`` inside a RefreshView, with
/// input aimed at any edge: xdotool drags and the touchpad's scroll sequence.
@MainActor
final class ContentWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let scrolled: UnsafeMutablePointer<GtkWidget>
    let child: UnsafeMutablePointer<GtkWidget>
    let view: RefreshView
    /// What the test built, or nil for content it was given.
    let kind: ContentKind?
    let title: String
    private var list: TextList?

    static let width: Int32 = 480
    static let height: Int32 = 520

    init(_ kind: ContentKind) {
        self.kind = kind
        title = Self.uniqueTitle()
        window = Self.makeWindow(title: title, width: Self.width, height: Self.height)
        switch kind {
        case .listView, .horizontalListView:
            let horizontal = kind == .horizontalListView
            let list = TextList((0..<10_000).map { "Item \($0)" },
                                orientation: horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL) { label in
                gtk_widget_set_size_request(label, horizontal ? 100 : -1, horizontal ? -1 : 40)
                return label
            }
            self.list = list
            child = list.listView
        case .listBox:
            child = gtk_list_box_new()
            for index in 0..<200 { gtk_list_box_append(cast(child), Self.wideRow(index)) }
        case .textView:
            child = gtk_text_view_new()
            gtk_text_view_set_wrap_mode(cast(child), GTK_WRAP_NONE)
            gtk_text_view_set_editable(cast(child), 0)
            let line = String(repeating: "a long line that runs past the window ", count: 8)
            let text = (0..<200).map { "\($0) \(line)" }.joined(separator: "\n")
            gtk_text_buffer_set_text(gtk_text_view_get_buffer(cast(child)), text, -1)
        }
        if let list {
            scrolled = list.scrolledWindow
        } else {
            scrolled = gtk_scrolled_window_new()
            gtk_scrolled_window_set_child(cast(scrolled), child)
        }
        view = RefreshView(wrapping: cast(scrolled))
        gtk_window_set_child(cast(window), view.widget)
    }

    /// A window showing `widget`, which holds `view` somewhere inside (a gallery page).
    init(showing widget: UnsafeMutablePointer<GtkWidget>, view: RefreshView, width: Int32, height: Int32) {
        kind = nil
        title = Self.uniqueTitle()
        window = Self.makeWindow(title: title, width: width, height: height)
        self.view = view
        scrolled = cast(view.scrolledWindow)
        child = gtk_scrolled_window_get_child(cast(view.scrolledWindow))
        gtk_window_set_child(cast(window), widget)
    }

    private static func uniqueTitle() -> String { "refresh-content-\(UUID().uuidString.prefix(8))" }

    private static func makeWindow(title: String, width: Int32, height: Int32) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new()!
        gtk_window_set_title(cast(window), title)
        gtk_window_set_default_size(cast(window), width, height)
        gtk_window_set_decorated(cast(window), 0)
        return window
    }

    private static func wideRow(_ index: Int) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new("Row \(index)")!
        gtk_label_set_xalign(cast(label), 0)
        gtk_widget_set_size_request(label, 1400, 40)
        return label
    }

    /// Shows the window and waits until it is mapped and laid out.
    func present() {
        GtkTestEnvironment.parkPointer()
        gtk_window_present(cast(window))
        GtkTestEnvironment.wait(until: { gtk_widget_get_mapped(self.view.widget) != 0 && gtk_widget_get_height(self.view.widget) > 0 },
                                "the window mapped and laid out")
        // The rows bound in the first frame are laid out and drawn in the next.
        GtkTestEnvironment.waitForFrames(of: window, count: 2)
    }

    func close() {
        gtk_window_destroy(cast(window))
        GtkTestEnvironment.runPending()
    }

    var viewWidth: Double { Double(gtk_widget_get_width(view.widget)) }
    var viewHeight: Double { Double(gtk_widget_get_height(view.widget)) }

    func adjustment(for edge: RefreshEdge) -> UnsafeMutablePointer<GtkAdjustment> {
        edge.isVertical ? gtk_scrolled_window_get_vadjustment(cast(scrolled))
                        : gtk_scrolled_window_get_hadjustment(cast(scrolled))
    }

    /// Scrolls the content all the way to `edge` and lets it settle.
    func scroll(to edge: RefreshEdge) {
        let adjustment = adjustment(for: edge)
        // A long list only estimates its length until laid out there: go again until it holds.
        for _ in 0..<10 {
            let end = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            gtk_adjustment_set_value(adjustment, edge == .top || edge == .left ? 0 : end)
            GtkTestEnvironment.waitForFrames(of: window)
            // A text view measures its lines in idle callbacks after the frame.
            GtkTestEnvironment.runPending()
            if view.distanceFromEdge(edge) < 0.5 { break }
        }
    }

    /// Adds `count` items at the end, as a load of more would.
    func append(_ count: Int) {
        switch kind {
        case nil:
            break
        case .listView, .horizontalListView:
            guard let list else { return }
            list.insert((list.count..<list.count + count).map { "Item \($0)" }, at: list.count)
        case .listBox:
            for index in 0..<count { gtk_list_box_append(cast(child), Self.wideRow(1000 + index)) }
        case .textView:
            let buffer = gtk_text_view_get_buffer(cast(child))
            var end = GtkTextIter()
            gtk_text_buffer_get_end_iter(buffer, &end)
            gtk_text_buffer_insert(buffer, &end, String(repeating: "\nappended line", count: count), -1)
        }
    }

    /// Where the view's top-left corner is in the window, for reading renders.
    var viewOrigin: (x: Int, y: Int) {
        var origin = graphene_point_t(), point = graphene_point_t()
        _ = gtk_widget_compute_point(view.widget, window, &point, &origin)
        return (Int(origin.x.rounded()), Int(origin.y.rounded()))
    }

    /// Where the content's top-left corner is drawn inside the view: (0, 0) at rest.
    var contentOrigin: (x: Double, y: Double) {
        var origin = graphene_point_t(), point = graphene_point_t()
        _ = gtk_widget_compute_point(scrolled, view.widget, &point, &origin)
        return (Double(origin.x), Double(origin.y))
    }

    /// The indicator's rectangle in the view's coordinates, or nil while it is not shown.
    func indicatorFrame(of component: RefreshComponent) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard gtk_widget_get_child_visible(component.indicatorWidget) != 0 else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(component.indicatorWidget, view.widget, &bounds) != 0 else { return nil }
        return (Double(bounds.origin.x), Double(bounds.origin.y), Double(bounds.size.width), Double(bounds.size.height))
    }

    // MARK: - Input

    /// A point of the view 40 pixels in from `edge`, halfway along it, in X surface coordinates.
    func pointNear(_ edge: RefreshEdge) -> (x: Int, y: Int) {
        let (x, y): (Double, Double) = switch edge {
        case .top: (viewWidth / 3, 40)
        case .bottom: (viewWidth / 3, viewHeight - 40)
        case .left: (40, viewHeight / 3)
        case .right: (viewWidth - 40, viewHeight / 3)
        }
        return TestSupport.surfacePoint(of: view.widget, in: window, x: x, y: y)
    }

    /// A real mouse drag that pulls `edge` open by `distance` pixels, from near it.
    func drag(pulling edge: RefreshEdge, by distance: Int = 120, steps: Int = 12, release: Bool = true) {
        let start = pointNear(edge)
        let (dx, dy): (Int, Int) = switch edge {
        case .top: (0, distance)
        case .bottom: (0, -distance)
        case .left: (distance, 0)
        case .right: (-distance, 0)
        }
        RealInput.drag(windowTitle: title, from: start, dx: dx, dy: dy, steps: steps, release: release)
    }

    /// A real two-finger touchpad swipe through the Wayland compositor that pulls `edge` open:
    /// `frames` frames of `step` pixels every 16 ms near the edge, then the fingers lift after
    /// `hold` seconds if `lift`.
    func realSwipe(pulling edge: RefreshEdge, frames: Int = 30, step: Double = 8, hold: Double = 0.05, lift: Bool = true) {
        let delta: (dx: Double, dy: Double) = switch edge {
        case .top: (0, -step)
        case .bottom: (0, step)
        case .left: (-step, 0)
        case .right: (step, 0)
        }
        RealInput.swipe(at: pointNear(edge), steps: Array(repeating: delta, count: frames), hold: hold, lift: lift)
    }

    /// A two-finger touchpad swipe that pulls `edge` open, as GTK delivers it: scroll-begin,
    /// `count` smooth deltas in wheel units offered to the refresh view first (the unclaimed ones
    /// scroll the content, as the scrolled window would), then scroll-end when `lift`.
    /// Returns how many deltas the pull claimed.
    @discardableResult
    func touchpadSwipe(pulling edge: RefreshEdge, count: Int = 20, step: Double = 0.1, lift: Bool = true) -> Int {
        let controller = scrollController
        cgtk_emit_by_name(cast(controller), "scroll-begin")
        var claimed = 0
        for _ in 0..<count {
            let (dx, dy): (Double, Double) = switch edge {
            case .top: (0, -step)
            case .bottom: (0, step)
            case .left: (-step, 0)
            case .right: (step, 0)
            }
            if touchpadScroll(dx: dx, dy: dy) { claimed += 1 }
            // A touchpad's pace, an event every 10 ms: the speed is part of the input.
            GtkTestEnvironment.iterate(for: 0.01)
        }
        if lift { cgtk_emit_by_name(cast(controller), "scroll-end") }
        return claimed
    }

    /// One smooth delta in wheel units; unclaimed, it scrolls the content. Returns whether it was claimed.
    @discardableResult
    func touchpadScroll(dx: Double, dy: Double) -> Bool {
        let claimed = cgtk_emit_scroll(cast(scrollController), dx, dy) != 0
        if !claimed {
            for (adjustment, delta) in [(adjustment(for: .right), dx), (adjustment(for: .bottom), dy)] where delta != 0 {
                let step = pow(gtk_adjustment_get_page_size(adjustment), 2.0 / 3.0)
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + delta * step)
            }
        }
        return claimed
    }

    /// The view's scroll controller, by the name RefreshGtk gives it.
    var scrollController: OpaquePointer { eventController(named: "refresh-pull-scroll", on: view.widget) }
}

/// The two ways a test pulls: a real mouse drag, or the touchpad's emitted scroll sequence.
enum PullGesture: String, CaseIterable, Sendable {
    case mouseDrag
    case touchpad
}

extension ContentWindow {
    /// Scrolls to `component`'s edge and pulls it open past its extent with `gesture`, then lets go.
    func pull(_ component: RefreshComponent, with gesture: PullGesture) {
        scroll(to: component.edge)
        switch gesture {
        case .mouseDrag: drag(pulling: component.edge)
        case .touchpad: touchpadSwipe(pulling: component.edge)
        }
    }
}

extension RenderedImage {
    /// The fraction of sampled pixels in `rows` that differ from `reference` moved by `shift`:
    /// near 0 when this image shows the reference's content displaced by `shift`.
    func differenceFrom(_ reference: RenderedImage, shiftedBy shift: (x: Int, y: Int), rows: Range<Int>,
                        columns: Range<Int>? = nil) -> Double {
        var compared = 0, differing = 0
        let columns = columns ?? 0..<width
        for y in rows where y - shift.y >= 0 && y - shift.y < reference.height && y < height {
            for x in stride(from: columns.lowerBound, to: columns.upperBound, by: 2)
            where x - shift.x >= 0 && x - shift.x < reference.width && x < width {
                compared += 1
                if abs(luminance(x: x, y: y) - reference.luminance(x: x - shift.x, y: y - shift.y)) > 40 { differing += 1 }
            }
        }
        return compared == 0 ? 1 : Double(differing) / Double(compared)
    }
}
