import CGtk
import RefreshGtk

/// A Swift value a GValue can carry: what a property of an ``ObjectType`` (or of a widget) holds.
protocol PropertyValue {
    static var gtype: GType { get }
    /// The value `value` holds (of type ``gtype``).
    init(_ value: UnsafePointer<GValue>)
    /// Stores this in `value`, initialized to ``gtype``.
    func store(in value: UnsafeMutablePointer<GValue>)
}

extension String: PropertyValue {
    static var gtype: GType { .string }
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_string(value).map { String(cString: $0) } ?? "" }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_string(value, self) }
}

extension Int32: PropertyValue {
    static var gtype: GType { .int }
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_int(value) }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_int(value, self) }
}

extension Int64: PropertyValue {
    static var gtype: GType { .int64 }
    init(_ value: UnsafePointer<GValue>) { self = Int64(g_value_get_int64(value)) }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_int64(value, gint64(self)) }
}

extension Bool: PropertyValue {
    static var gtype: GType { .boolean }
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_boolean(value) != 0 }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_boolean(value, gboolean) }
}

/// Reads and writes GObject properties by name as Swift values.
enum ObjectProperty {
    /// The value of `object`'s property `name`.
    static func get<Value: PropertyValue>(_ object: gpointer, _ name: String, as _: Value.Type = Value.self) -> Value {
        var value = GValue()
        g_value_init(&value, Value.gtype)
        defer { g_value_unset(&value) }
        g_object_get_property(cast(object), name, &value)
        return Value(&value)
    }

    /// Sets `object`'s property `name`: a property of an ``ObjectType`` notifies only when it changes.
    static func set<Value: PropertyValue>(_ object: gpointer, _ name: String, _ newValue: Value) {
        var value = GValue()
        g_value_init(&value, Value.gtype)
        defer { g_value_unset(&value) }
        newValue.store(in: &value)
        g_object_set_property(cast(object), name, &value)
    }

    /// The object `object`'s property `name` holds, with a reference of the caller's, or nil.
    static func object(_ object: gpointer, _ name: String) -> gpointer? {
        var value = GValue()
        g_value_init(&value, .object)
        defer { g_value_unset(&value) }
        g_object_get_property(cast(object), name, &value)
        return g_value_dup_object(&value)
    }

    /// Sets `object`'s object property `name` to `newValue` (nil: NULL).
    static func setObject(_ object: gpointer, _ name: String, _ newValue: gpointer?) {
        var value = GValue()
        g_value_init(&value, .object)
        defer { g_value_unset(&value) }
        g_value_set_object(&value, newValue)
        g_object_set_property(cast(object), name, &value)
    }
}

/// Property bindings from an item to the widgets showing it, made when a row shows the item and
/// undone together when it stops.
@MainActor
final class PropertyBindings {
    private var bindings: [OpaquePointer] = []

    /// Keeps `target`'s `targetProperty` equal to `source`'s `sourceProperty`, from now on.
    func bind(_ source: gpointer, _ sourceProperty: String, to target: gpointer, _ targetProperty: String) {
        let binding = g_object_bind_property(source, sourceProperty, target, targetProperty, G_BINDING_SYNC_CREATE)!
        bindings.append(OpaquePointer(g_object_ref(cast(binding))))
    }

    /// Keeps `target`'s `targetProperty` equal to what `transform` makes of `source`'s `sourceProperty`.
    func bind<From: PropertyValue, To: PropertyValue>(_ source: gpointer, _ sourceProperty: String, to target: gpointer,
                                                      _ targetProperty: String, _ transform: @escaping (From) -> To) {
        let box = Unmanaged.passRetained(Transform { from, to in transform(From(from)).store(in: to) }).toOpaque()
        let binding = g_object_bind_property_full(source, sourceProperty, target, targetProperty, G_BINDING_SYNC_CREATE, { _, from, to, data in
            guard let from, let to, let data else { return 0 }
            Unmanaged<Transform>.fromOpaque(data).takeUnretainedValue().apply(from, to)
            return 1
        }, nil, box, { data in
            if let data { Unmanaged<Transform>.fromOpaque(data).release() }
        })!
        bindings.append(OpaquePointer(g_object_ref(cast(binding))))
    }

    /// Undoes every binding made.
    func unbindAll() {
        for binding in bindings {
            g_binding_unbind(binding)
            g_object_unref(cast(binding))
        }
        bindings = []
    }

    isolated deinit { unbindAll() }

    /// A transform's Swift closure, owned by its binding.
    private final class Transform {
        let apply: (UnsafePointer<GValue>, UnsafeMutablePointer<GValue>) -> Void
        init(_ apply: @escaping (UnsafePointer<GValue>, UnsafeMutablePointer<GValue>) -> Void) { self.apply = apply }
    }
}

/// Swift objects hung on GObjects by name (`g_object_set_data_full`): kept as long as the
/// GObject, or until replaced or removed.
enum ObjectData {
    /// Hangs `value` on `object` under `key` (nil: takes off what hangs there).
    static func set(_ value: AnyObject?, on object: gpointer, _ key: String) {
        guard let value else { return g_object_set_data(cast(object), key, nil) }
        g_object_set_data_full(cast(object), key, Unmanaged.passRetained(value).toOpaque()) { data in
            if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
        }
    }

    /// What hangs on `object` under `key`, when it is a `Value`.
    static func get<Value: AnyObject>(_ object: gpointer, _ key: String, as _: Value.Type = Value.self) -> Value? {
        guard let data = g_object_get_data(cast(object), key) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? Value
    }
}
