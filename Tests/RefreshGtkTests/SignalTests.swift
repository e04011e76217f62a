import CGtk
import XCTest
@testable import RefreshGtk

/// Signal connections are checked against the signal's own signature (g_signal_query).
final class SignalTests: XCTestCase {
    func testHandlersThatMatchTheSignalPass() {
        onMain {
            let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)!
            defer { g_object_unref(cast(scroll)) }
            let drag = gtk_gesture_drag_new()!
            defer { g_object_unref(cast(drag)) }
            let click = gtk_gesture_click_new()!
            defer { g_object_unref(cast(click)) }
            let label = ObjectRef(takingOwnership: gtk_label_new(nil)!)
            XCTAssertNil(Signal.mismatch(cast(scroll), "scroll", signature([.double, .double], .boolean)))
            XCTAssertNil(Signal.mismatch(cast(scroll), "scroll-begin", signature([], .void)))
            XCTAssertNil(Signal.mismatch(cast(drag), "drag-update", signature([.double, .double], .void)))
            XCTAssertNil(Signal.mismatch(cast(drag), "cancel", signature([.pointer], .void)), "a GdkEventSequence")
            XCTAssertNil(Signal.mismatch(cast(click), "pressed", signature([.int, .double, .double], .void)))
            XCTAssertNil(Signal.mismatch(cast(label.pointer), "direction-changed", signature([.uint], .void)),
                         "an enum travels as an unsigned int")
            XCTAssertNil(Signal.mismatch(cast(label.pointer), "notify::label", signature([.pointer], .void)),
                         "a detailed name is looked up without its detail")
            // The shapes of the reader's connectInt, connectBool and connectReturningBool, and a
            // drawing area's resize, on the signals they serve.
            let chooser = ObjectRef(takingOwnership: gtk_file_chooser_native_new("t", nil, GTK_FILE_CHOOSER_ACTION_OPEN, nil, nil)!)
            XCTAssertNil(Signal.mismatch(cast(chooser.pointer), "response", signature([.int], .void)))
            XCTAssertNil(Signal.mismatch(cast(g_network_monitor_get_default()), "network-changed", signature([.boolean], .void)))
            let area = ObjectRef(takingOwnership: gtk_drawing_area_new()!)
            XCTAssertNil(Signal.mismatch(cast(area.pointer), "resize", signature([.int, .int], .void)))
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            XCTAssertNil(Signal.mismatch(cast(window), "close-request", signature([], .boolean)))
            // connectReturningObject and connectObjectReturningBool, on the sidebar's drag and drop.
            let source = gtk_drag_source_new()!
            defer { g_object_unref(cast(source)) }
            XCTAssertNil(Signal.mismatch(cast(source), "prepare", signature([.double, .double], .pointer)))
            let target = gtk_drop_target_new(GType(16 << 2), GDK_ACTION_MOVE)!
            defer { g_object_unref(cast(target)) }
            XCTAssertNil(Signal.mismatch(cast(target), "accept", signature([.pointer], .boolean)))
        }
    }

    func testHandlersOfAnotherShapeAreRefusedWithTheReason() throws {
        try onMain {
            let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)!
            defer { g_object_unref(cast(scroll)) }
            let label = ObjectRef(takingOwnership: gtk_label_new(nil)!)
            let noReturn = try XCTUnwrap(Signal.mismatch(cast(scroll), "scroll", signature([.double, .double], .void)))
            XCTAssertEqual(noReturn, "GtkEventControllerScroll::scroll passes (gdouble, gdouble) -> gboolean; "
                           + "the handler takes (gdouble, gdouble) -> void")
            XCTAssertNotNil(Signal.mismatch(cast(label.pointer), "notify::label", signature([], .void)),
                            "notify's GParamSpec would be taken for the user data")
            XCTAssertNotNil(Signal.mismatch(cast(scroll), "scroll", signature([.uint, .double], .boolean)))
            XCTAssertNotNil(Signal.mismatch(cast(scroll), "decelerate", signature([.double], .void)), "one value short")
            XCTAssertEqual(Signal.mismatch(cast(scroll), "no-such-signal", signature([], .void)),
                           "GtkEventControllerScroll has no signal no-such-signal")
        }
    }

    func testAViewFollowsANewAdjustmentOfItsScrolledWindow() {
        onMain {
            let window = TestWindow()
            defer { window.close() }
            let header = NormalHeader().link(to: window.view)
            window.present()
            // notify passes a GParamSpec before the user data: a handler connected without
            // room for it took the GParamSpec for its closure.
            let adjustment = gtk_adjustment_new(0, 0, 1000, 1, 10, 100)!
            gtk_scrolled_window_set_vadjustment(cast(window.scrolled), adjustment)
            header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .refreshing && header.machine.animation == nil })
            gtk_adjustment_set_value(adjustment, 20)
            XCTAssertEqual(header.machine.offset, header.extent - 20, accuracy: 0.5,
                           "scrolling the new adjustment scrolls the held header away")
        }
    }
}

private func signature(_ parameters: [SignalValue], _ returns: SignalValue) -> SignalSignature {
    SignalSignature(parameters, returns: returns)
}
