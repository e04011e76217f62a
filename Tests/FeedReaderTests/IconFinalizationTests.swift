import CGtk
import Foundation
import RefreshGtk
import Synchronization
import TestSupport
import XCTest
@testable import FeedReader

/// GTK 4.8's icons are finalized on the main thread, wherever their last reference goes: one
/// finalized on a pool thread could be found by a lookup on the main thread meanwhile.
final class IconFinalizationTests: XCTestCase {
    func testAnIconLetGoOfOnAnotherThreadIsFinalizedOnTheMainThread() throws {
        try onMain {
            IconFinalization.keepOnMainThread()
            let file = g_file_new_for_path("/nonexistent/icon.svg")!
            defer { g_object_unref(cast(file)) }
            let icon = try XCTUnwrap(gtk_icon_paintable_new_for_file(file, 16, 1))
            let finalized = Finalized()
            // GObject's dispose, which the icon's runs last, notifies weak references.
            g_object_weak_ref(cast(icon), noteFinalization, Unmanaged.passRetained(finalized).toOpaque())
            nonisolated(unsafe) let lastReference = icon
            Thread { g_object_unref(cast(lastReference)) }.start()
            XCTAssertTrue(GtkTestEnvironment.iterate { finalized.onMainThread.withLock { $0 } != nil }, "the icon is finalized")
            XCTAssertEqual(finalized.onMainThread.withLock { $0 }, true, "on the main thread")
        }
    }
}

/// Where an icon was finalized, once it is.
private final class Finalized: Sendable {
    let onMainThread = Mutex<Bool?>(nil)
}

/// Notes in the `Finalized` at `data`, which it releases, whether its icon is finalized on the main
/// thread: called by GLib on the thread finalizing the icon.
private func noteFinalization(_ data: gpointer?, _: UnsafeMutablePointer<GObject>?) {
    Unmanaged<Finalized>.fromOpaque(data!).takeRetainedValue().onMainThread.withLock { $0 = Thread.isMainThread }
}
