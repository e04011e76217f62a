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

extension Double: PropertyValue {
    static var gtype: GType { .double }
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_double(value) }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_double(value, self) }
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

/// Property bindings (GBindings) from an item to the widgets showing it, made when a row shows
/// the item and undone together when it stops.
@MainActor
final class PropertyBindings {
    private var bindings: [OpaquePointer] = []

    /// Keeps `binding` until ``unbindAll()``.
    func keep(_ binding: OpaquePointer?) {
        guard let binding else { return }
        bindings.append(OpaquePointer(g_object_ref(cast(binding))))
    }

    /// Undoes every binding kept.
    func unbindAll() {
        for binding in bindings {
            g_binding_unbind(binding)
            g_object_unref(cast(binding))
        }
        bindings = []
    }

    isolated deinit { unbindAll() }
}

/// How a bound property is made of its source's: plain C functions, so a row's bindings
/// allocate nothing of their own.
enum BindingTransform {
    /// A string to whether it has something to show.
    static let isNonEmpty: GBindingTransformFunc = { _, from, to, _ in
        guard let from, let to else { return 0 }
        g_value_set_boolean(to, (g_value_get_string(from).map { $0.pointee != 0 } ?? false) ? 1 : 0)
        return 1
    }

    /// A string to itself, or none when empty: an empty tooltip is no tooltip.
    static let noneWhenEmpty: GBindingTransformFunc = { _, from, to, _ in
        guard let from, let to else { return 0 }
        let text = g_value_get_string(from)
        g_value_set_string(to, text.flatMap { $0.pointee != 0 ? $0 : nil })
        return 1
    }

    /// A count to whether there is any.
    static let isPositive: GBindingTransformFunc = { _, from, to, _ in
        guard let from, let to else { return 0 }
        g_value_set_boolean(to, g_value_get_int(from) > 0 ? 1 : 0)
        return 1
    }

    /// A list's selected position to whether it is not the one ``position(_:)`` made `data` of:
    /// the choice that turns an option off.
    static let isNotPosition: GBindingTransformFunc = { _, from, to, data in
        guard let from, let to else { return 0 }
        g_value_set_boolean(to, UInt(bitPattern: data) != UInt(g_value_get_uint(from)) + 1 ? 1 : 0)
        return 1
    }

    /// `index` as the data of ``isNotPosition``.
    static func position(_ index: Int) -> gpointer? { UnsafeMutableRawPointer(bitPattern: index + 1) }

    /// An unread count to its digits, or nothing for none.
    static let countOrNothing: GBindingTransformFunc = { _, from, to, _ in
        guard let from, let to else { return 0 }
        let count = g_value_get_int(from)
        g_value_set_string(to, count > 0 ? String(count) : "")
        return 1
    }

    /// Whether an entry is read to the CSS classes of its title: `unread` sets it in bold.
    static let entryTitleClasses: GBindingTransformFunc = { _, from, to, _ in
        guard let from, let to else { return 0 }
        setClasses(g_value_get_boolean(from) != 0 ? ["entry-title"] : ["entry-title", "unread"], in: to)
        return 1
    }

    /// Whether an entry is starred to its title's end margin: room for the star (the widget
    /// `data` points to) lying over the title's end, and the space before it.
    static let starRoom: GBindingTransformFunc = { _, from, to, data in
        guard let from, let to, let data else { return 0 }
        var width: Int32 = 0
        if g_value_get_boolean(from) != 0 {
            gtk_widget_measure(data.assumingMemoryBound(to: GtkWidget.self), GTK_ORIENTATION_HORIZONTAL, -1, nil, &width, nil, nil)
            width += starSpacing
        }
        g_value_set_int(to, width)
        return 1
    }

    /// The space between a title and the star of a starred entry, in pixels.
    static let starSpacing: Int32 = 6

    private static func setClasses(_ classes: [String], in value: UnsafeMutablePointer<GValue>) {
        // Splitting "" gives the empty list.
        g_value_take_boxed(value, UnsafeMutableRawPointer(g_strsplit(classes.joined(separator: " "), " ", -1)))
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
