import CGtk
import RefreshCore
import XCTest
@testable import RefreshGtk

/// Teardown undoes setup: what a view sets on its scrolled window goes with it, components
/// swapped or left behind are detached, and everything is finalized with its window.
final class LifetimeTests: XCTestCase {
    func testAScrolledWindowThatOutlivesItsViewKeepsNothingOfIt() throws {
        try onMain {
            let scrolled = gtk_scrolled_window_new()!
            g_object_ref_sink(cast(scrolled))
            defer { g_object_unref(cast(scrolled)) }
            let window = gtk_window_new()!
            weak var oldView: RefreshView?
            do {
                let view = RefreshView(wrapping: cast(scrolled))
                oldView = view
                gtk_window_set_child(cast(window), view.widget)
                NormalHeader().link(to: view)
            }
            gtk_window_present(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(scrolled) != 0 })
            XCTAssertTrue(hasAdjustmentWatch(scrolled), "the view follows the scrolled window's adjustments")
            XCTAssertNotNil(g_object_get_qdata(cast(scrolled), RefreshViewType.quark))

            gtk_window_destroy(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { oldView == nil }, "the view goes with its widget")
            XCTAssertNil(gtk_widget_get_parent(scrolled))
            XCTAssertNil(g_object_get_qdata(cast(scrolled), RefreshViewType.quark), "no qdata naming a freed widget")
            XCTAssertFalse(hasAdjustmentWatch(scrolled), "no handler of the view is left on the scrolled window")
            gtk_scrolled_window_set_vadjustment(cast(scrolled), gtk_adjustment_new(0, 0, 100, 1, 10, 10))

            let newView = try XCTUnwrap(RefreshView.view(for: cast(scrolled)))
            XCTAssertEqual(gtk_widget_get_parent(scrolled), newView.widget, "a new view, not the freed one")
            XCTAssertTrue(RefreshView.view(for: cast(scrolled)) === newView)
            g_object_unref(g_object_ref_sink(cast(newView.widget)))
            XCTAssertNil(gtk_widget_get_parent(scrolled))
        }
    }

    func testAComponentReplacedOnItsEdgeIsDetached() {
        onMain {
            let window = TestWindow()
            defer { window.close() }
            let first = NormalHeader().link(to: window.view)
            let second = NormalHeader()
            window.present()
            first.beginRefreshing()
            XCTAssertNotNil(first.machine.animation, "the reveal animation runs")

            second.link(to: window.view)
            XCTAssertTrue(window.view.components.map(ObjectIdentifier.init) == [ObjectIdentifier(second)])
            XCTAssertNil(gtk_widget_get_parent(first.indicatorWidget), "the old indicator is unparented")
            XCTAssertNil(first.view, "the old component no longer points at the view")
            XCTAssertNil(first.machine.animation, "its animation is over")
            XCTAssertEqual(first.state, .refreshing)
            XCTAssertFalse(first.isBlocked)
            XCTAssertEqual(gtk_widget_get_parent(second.indicatorWidget), window.view.widget)

            var ended = false
            first.endRefreshing { ended = true }
            XCTAssertTrue(GtkTestEnvironment.iterate { ended }, "a detached component still ends its refresh")
            XCTAssertEqual(first.state, .idle)
            second.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { second.state == .refreshing && second.machine.animation == nil })
            XCTAssertEqual(second.machine.offset, second.extent, "the new header holds the list down")
        }
    }

    func testAViewDestroyedMidRefreshLetsTheRefreshEnd() {
        onMain {
            let window = TestWindow()
            let header = NormalHeader().link(to: window.view)
            window.present()
            header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .refreshing && header.machine.animation == nil })
            window.close()
            XCTAssertNil(header.view)
            XCTAssertNil(gtk_widget_get_parent(header.indicatorWidget))

            var ended = false
            header.endRefreshing { ended = true }
            XCTAssertTrue(GtkTestEnvironment.iterate { ended })
            XCTAssertEqual(header.state, .idle)
            XCTAssertEqual(header.machine.offset, 0)
        }
    }

    func testAViewDestroyedMidAnimationStopsIt() {
        onMain {
            let window = TestWindow()
            let header = NormalHeader().link(to: window.view)
            window.present()
            header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .refreshing && header.machine.animation == nil })
            header.endRefreshing()
            XCTAssertEqual(header.machine.animation, .hide, "the ending animation runs")
            window.close()
            XCTAssertNil(header.machine.animation, "the animation jumped to its end")
            XCTAssertEqual(header.machine.offset, 0)
            XCTAssertNil(header.view)
        }
    }

    func testEverythingIsFinalizedWithItsWindow() {
        onMain {
            let watch = FinalizeWatch()
            weak var weakView: RefreshView?
            weak var weakHeader: NormalHeader?
            weak var weakFooter: NormalBackFooter?
            let window = gtk_window_new()!
            do {
                let scrolled = gtk_scrolled_window_new()!
                gtk_scrolled_window_set_child(cast(scrolled), gtk_label_new("content"))
                let view = RefreshView(wrapping: cast(scrolled))
                gtk_window_set_child(cast(window), view.widget)
                let header = NormalHeader().link(to: view)
                let footer = NormalBackFooter().link(to: view)
                (weakView, weakHeader, weakFooter) = (view, header, footer)
                watch.watch(view.widget, "view widget")
                watch.watch(scrolled, "scrolled window")
                watch.watch(header.indicatorWidget, "header indicator")
                watch.watch(footer.indicatorWidget, "footer indicator")
                watch.watch(gtk_scrolled_window_get_vadjustment(cast(scrolled)), "vertical adjustment")
                watch.watch(eventController(named: "refresh-pull-drag", on: view.widget), "drag controller")
                watch.watch(eventController(named: "refresh-pull-scroll", on: view.widget), "scroll controller")
                gtk_window_present(cast(window))
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(view.widget) != 0 })
                header.beginRefreshing()
                XCTAssertNotNil(header.machine.animation, "destroyed mid-animation")
            }
            gtk_window_destroy(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { watch.alive.isEmpty }, "still alive: \(watch.alive)")
            XCTAssertNil(weakView)
            XCTAssertNil(weakHeader)
            XCTAssertNil(weakFooter)
        }
    }
}

/// Whether the scrolled window has a handler for notify::vadjustment, which only a view connects.
private func hasAdjustmentWatch(_ scrolled: UnsafeMutablePointer<GtkWidget>) -> Bool {
    let notify = g_signal_lookup("notify", g_object_get_type())
    return g_signal_has_handler_pending(cast(scrolled), notify, g_quark_from_string("vadjustment"), 0) != 0
}

/// Watches GObjects through weak references, to tell which are still alive.
@MainActor
final class FinalizeWatch {
    private var refs: [(name: String, ref: UnsafeMutablePointer<GWeakRef>)] = []

    func watch<Pointer>(_ object: Pointer, _ name: String) {
        let ref = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)
        ref.initialize(to: GWeakRef())
        g_weak_ref_init(ref, unsafeBitCast(object, to: gpointer.self))
        refs.append((name, ref))
    }

    /// The names of the objects not finalized yet.
    var alive: [String] {
        refs.compactMap { name, ref in
            guard let object = g_weak_ref_get(ref) else { return nil }
            g_object_unref(object)
            return name
        }
    }

    isolated deinit {
        for (_, ref) in refs {
            g_weak_ref_clear(ref)
            ref.deallocate()
        }
    }
}
