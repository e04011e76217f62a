import CGtk
import Foundation
import RefreshCore
import XCTest
@testable import PullToRefreshExample
@testable import RefreshGtk

/// The getting-started example app, pulled with real input: its header refreshes, a row
/// arrives at the top, in view, and the header hides again.
final class ExampleAppTests: XCTestCase {
    func testAPullAddsANewRowAtTheTop() throws {
        try onMain {
            let application = gtk_application_new("io.github.refreshgtk.ExampleTest", G_APPLICATION_NON_UNIQUE)!
            defer { g_object_unref(cast(application)) }
            XCTAssertNotEqual(g_application_register(cast(application), nil, nil), 0)
            let example = ExampleWindow(application: application)
            let title = "pull-to-refresh-example-\(UUID().uuidString.prefix(8))"
            gtk_window_set_title(cast(example.window), title)
            defer { gtk_window_destroy(cast(example.window)) }
            GtkTestEnvironment.parkPointer()
            gtk_window_present(cast(example.window))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_height(example.list.listView) > 0 })
            GtkTestEnvironment.waitForFrames(of: example.window, count: 2)
            XCTAssertEqual(example.list.count, 30)

            let start = surfacePoint(of: example.list.listView, in: example.window, x: 150, y: 30)
            RealInput.drag(windowTitle: title, from: start, dy: 120)
            XCTAssertTrue(GtkTestEnvironment.iterate { example.header.state == .refreshing },
                          "the released pull refreshes")
            // The header's texts and spinner, drawn in the space it holds open above the list.
            let view = try XCTUnwrap(gtk_widget_get_parent(example.list.scrolledWindow))
            var origin = graphene_point_t()
            var zero = graphene_point_t()
            XCTAssertNotEqual(gtk_widget_compute_point(view, example.window, &zero, &origin), 0)
            let render = RenderedImage(window: example.window, name: "example-refreshing")
            XCTAssertGreaterThan(render.darkPixels(x: Int(origin.x), y: Int(origin.y), width: Int(gtk_widget_get_width(view)),
                                                   height: Int(example.header.extent)), 20, "the header shows above the list")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 5) { example.header.state == .idle && example.list.count == 31 })
            let first = try XCTUnwrap(g_list_model_get_item(cast(example.list.model), 0))
            defer { g_object_unref(first) }
            XCTAssertEqual(String(cString: gtk_string_object_get_string(cast(first))), "New row 1")
            GtkTestEnvironment.waitForFrames(of: example.window, count: 2)
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(example.list.scrolledWindow))
            XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0, accuracy: 0.5, "the new row is the first one shown")
            _ = RenderedImage(window: example.window, name: "example-after-refresh")
        }
    }
}
