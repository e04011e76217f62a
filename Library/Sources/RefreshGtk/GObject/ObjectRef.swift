import CGtk

/// Owns one reference to a GObject, given up when this is deinitialized.
///
/// Main-actor bound, so the last unref (which may dispose a widget) never runs on another
/// thread. Say how the reference is obtained: ``init(retaining:)`` for an object someone else
/// owns (a getter's "transfer none"), ``init(takingOwnership:)`` for a new object or one
/// returned as "transfer full".
@MainActor
public final class ObjectRef<Pointer> {
    /// The object, typed as its C API wants it.
    public let pointer: Pointer
    private let object: gpointer

    /// Adds a reference of our own to an object owned elsewhere.
    public init(retaining pointer: Pointer) {
        self.pointer = pointer
        object = unsafeBitCast(pointer, to: gpointer.self)
        g_object_ref(object)
    }

    /// Takes over the caller's reference; a floating one (a new widget's) is sunk, so a
    /// container that later adds the widget takes a reference of its own instead.
    public init(takingOwnership pointer: Pointer) {
        self.pointer = pointer
        object = unsafeBitCast(pointer, to: gpointer.self)
        if g_object_is_floating(object) != 0 { g_object_ref_sink(object) }
    }

    isolated deinit { g_object_unref(object) }
}

/// Reinterprets any GObject-derived pointer as another C type: the cast macros Swift lacks.
@inline(__always)
public func cast<From, To>(_ pointer: From, to _: To.Type = To.self) -> To {
    unsafeBitCast(pointer, to: To.self)
}

/// `G_TYPE_FROM_INSTANCE`, which Swift cannot import.
func G_TYPE_FROM_INSTANCE(_ instance: UnsafeMutableRawPointer) -> GType {
    instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
}

extension Bool {
    /// The gboolean GLib expects.
    public var gboolean: gboolean { self ? 1 : 0 }
}

/// Calls `body` with a NULL-terminated array of C strings, freed afterwards.
public func withCStringArray<Result>(_ strings: [String],
                                     _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
