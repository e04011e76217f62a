import CGtk

/// Owns one reference to a GObject: sinks a floating reference on adoption, unrefs in deinit.
public final class ObjectRef<Pointer>: @unchecked Sendable {
    /// The object, typed as its C API wants it.
    public let pointer: Pointer
    private let raw: gpointer

    /// Adopts a new object (sinking its floating reference) or adds a reference to an existing one.
    public init(_ pointer: Pointer) {
        self.pointer = pointer
        raw = unsafeBitCast(pointer, to: gpointer.self)
        g_object_ref_sink(raw)
    }

    deinit { g_object_unref(raw) }
}

/// Reinterprets any GObject-derived pointer as another C type: the cast macros Swift lacks.
@inline(__always)
public func cast<From, To>(_ pointer: From, to _: To.Type = To.self) -> To {
    unsafeBitCast(pointer, to: To.self)
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
