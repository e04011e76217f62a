@_exported import TestSupport
import CGtk
import Foundation
import RefreshCore
@testable import RefreshGtk

/// A real toplevel window whose scrolled window holds a GtkListView of many rows inside a RefreshView.
@MainActor
final class TestWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let scrolled: UnsafeMutablePointer<GtkWidget>
    let listView: UnsafeMutablePointer<GtkWidget>
    let view: RefreshView
    let list: TextList
    /// The GtkStringList of the rows.
    var model: OpaquePointer { list.model }
    let title: String
    private(set) var activatedRows: [UInt32] = []

    static let width: Int32 = 420
    static let height: Int32 = 560

    init(rows: Int = 10_000) {
        title = "refresh-test-\(UUID().uuidString.prefix(8))"
        window = gtk_window_new()
        gtk_window_set_title(cast(window), title)
        gtk_window_set_default_size(cast(window), Self.width, Self.height)
        gtk_window_set_decorated(cast(window), 0)

        list = TextList((0..<rows).map { "Row \($0)" }) { label in
            gtk_widget_set_size_request(label, -1, 40)
            gtk_label_set_xalign(cast(label), 0)
            return label
        }
        listView = list.listView
        scrolled = list.scrolledWindow
        gtk_list_view_set_single_click_activate(cast(listView), 1)
        view = RefreshView(wrapping: cast(scrolled))
        gtk_window_set_child(cast(window), view.widget)
        Signal.connectUInt(cast(listView), "activate") { [weak self] position in
            self?.activatedRows.append(position)
        }
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

    private(set) var isClosed = false

    func close() {
        isClosed = true
        // A wheel that overshot the list's edge leaves GTK's scrolled window a 50 ms timer (its
        // data the scrolled window); once the window is destroyed, the timer asks for a frame
        // clock there is no more (a critical). It runs first.
        GtkTestEnvironment.iterate(timeout: 1) { g_main_context_find_source_by_user_data(nil, self.scrolled) == nil }
        gtk_window_destroy(cast(window))
        GtkTestEnvironment.runPending()
    }

    var rowCount: Int { list.count }

    /// Appends `count` rows at the end, as a load of older entries would.
    func appendRows(_ count: Int) {
        guard !isClosed else { return }
        list.insert((rowCount..<rowCount + count).map { "Row \($0)" }, at: rowCount)
    }

    /// Scrolls the list to its very end.
    func scrollToEnd() {
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
    }

    var distanceFromEnd: Double {
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
        return gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - gtk_adjustment_get_value(adjustment)
    }

    var verticalValue: Double { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(cast(scrolled))) }

    /// Where `(x, y)` of `widget` is inside the window's X surface.
    func surfacePoint(of widget: UnsafeMutablePointer<GtkWidget>, x: Double, y: Double) -> (x: Int, y: Int) {
        TestSupport.surfacePoint(of: widget, in: window, x: x, y: y)
    }

    /// One smooth touchpad delta in wheel units, as GTK delivers it: offered to the refresh view's
    /// capture-phase controller first and, when not claimed, scrolling the list as the scrolled
    /// window would. Returns whether the pull claimed it.
    @discardableResult
    func touchpadScroll(dy: Double) -> Bool {
        let claimed = cgtk_emit_scroll(cast(scrollController), 0, dy) != 0
        if !claimed {
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
            let step = pow(gtk_adjustment_get_page_size(adjustment), 2.0 / 3.0)
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + dy * step)
        }
        return claimed
    }

    /// The view's scroll controller, by the name RefreshGtk gives it.
    var scrollController: OpaquePointer { eventController(named: "refresh-pull-scroll", on: view.widget) }
}

/// Real input aimed at a test window.
@MainActor
extension RealInput {
    static func drag(in window: TestWindow, from start: (x: Int, y: Int), dy: Int, steps: Int = 12,
                     interval: Double = 0.02, release: Bool = true) {
        drag(windowTitle: window.title, from: start, dy: dy, steps: steps, interval: interval, release: release)
    }

    static func click(in window: TestWindow, at point: (x: Int, y: Int)) {
        click(windowTitle: window.title, at: point)
    }

    static func wheel(in window: TestWindow, at point: (x: Int, y: Int), button: Int, count: Int) {
        wheel(windowTitle: window.title, at: point, button: button, count: count)
    }
}
