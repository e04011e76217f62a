import CGtk
import XCTest
@testable import RefreshGtk

/// ObjectRef's two ways in: retaining an object owned elsewhere, or taking over the caller's reference.
final class ObjectRefTests: XCTestCase {
    func testTakingOwnershipSinksAFloatingWidgetAndReleasesItInDeinit() {
        onMain {
            let watch = FinalizeWatch()
            var label: ObjectRef<UnsafeMutablePointer<GtkWidget>>? = ObjectRef(takingOwnership: gtk_label_new(nil)!)
            watch.watch(label!.pointer, "label")
            XCTAssertEqual(g_object_is_floating(cast(label!.pointer)), 0, "sunk")
            XCTAssertEqual(referenceCount(label!.pointer), 1, "the floating reference became ours, none added")
            label = nil
            XCTAssertEqual(watch.alive, [], "our reference was the only one")
        }
    }

    func testTakingOwnershipOfANewObjectAddsNoReference() {
        onMain {
            let watch = FinalizeWatch()
            var list: ObjectRef<OpaquePointer>? = ObjectRef(takingOwnership: gtk_string_list_new(nil)!)
            watch.watch(list!.pointer, "string list")
            XCTAssertEqual(referenceCount(list!.pointer), 1)
            list = nil
            XCTAssertEqual(watch.alive, [])
        }
    }

    func testRetainingKeepsAnObjectAliveAfterItsOwnerLetsGo() {
        onMain {
            let watch = FinalizeWatch()
            let model = gtk_string_list_new(nil)!
            watch.watch(model, "string list")
            var held: ObjectRef<OpaquePointer>? = ObjectRef(retaining: model)
            XCTAssertEqual(referenceCount(model), 2)
            g_object_unref(cast(model))
            XCTAssertEqual(watch.alive, ["string list"], "still ours")
            held = nil
            XCTAssertEqual(watch.alive, [])
            _ = held
        }
    }
}

/// The object's reference count, read from its GObject header.
private func referenceCount<Pointer>(_ object: Pointer) -> UInt32 {
    unsafeBitCast(object, to: UnsafeMutablePointer<GObject>.self).pointee.ref_count
}
