import CGtk
import RefreshGtk

/// A GObject type defined from Swift: a name and its properties, whose values each instance
/// keeps. GLib reads and writes them as it does any object's (`g_object_get`/`set`,
/// `g_object_bind_property`, GtkExpression), and `notify::name` is emitted when a value changes,
/// not when it is set to the value it had.
///
/// The values live in the instance, after GObject's own fields, as GValues of each property's
/// type: an object of the type is a plain GObject a list model can hold, with no Swift object
/// behind it to keep alive or to reach from C.
final class ObjectType: Sendable {
    /// What a property holds.
    enum Kind: Sendable {
        case string, int, int64, boolean
        /// An object of the type given, or NULL.
        case object(GType)
    }

    /// A property: its name (as `notify::name` spells it) and what it holds.
    struct Property: Sendable {
        let name: String
        let kind: Kind

        init(_ name: String, _ kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    /// The type registered with GLib.
    let gtype: GType
    let properties: [Property]

    /// Registers the type `name` holding `properties`. Call once per name, from a `static let`.
    init(name: String, properties: [Property]) {
        self.properties = properties
        var info = GTypeInfo()
        info.class_size = guint16(Self.parentClassSize + MemoryLayout<UnsafeMutableRawPointer>.size)
        info.instance_size = guint16(Self.parentInstanceSize + MemoryLayout<UnsafeMutablePointer<GValue>>.size)
        info.class_init = Self.classInit
        info.instance_init = Self.instanceInit
        // Kept for the life of the process, as GLib keeps the type.
        info.class_data = UnsafeRawPointer(Unmanaged.passRetained(Definition(properties)).toOpaque())
        gtype = g_type_register_static(GType.object, name, &info, GTypeFlags(0))
    }

    /// A new instance, every property at its default (empty string, 0, false, NULL): the
    /// caller's reference.
    func make() -> UnsafeMutablePointer<GObject> {
        g_object_new_with_properties(gtype, 0, nil, nil)
    }

    // MARK: - GLib's side

    /// The properties' specs, which the class holds after GObject's own fields.
    private final class Definition {
        let properties: [Property]
        var specs: [UnsafeMutablePointer<GParamSpec>] = []
        init(_ properties: [Property]) { self.properties = properties }
    }

    private static let (parentClassSize, parentInstanceSize): (Int, Int) = {
        var query = GTypeQuery()
        g_type_query(GType.object, &query)
        return (Int(query.class_size), Int(query.instance_size))
    }()

    private static func definition(ofClass klass: UnsafeMutableRawPointer) -> Definition {
        let slot = (klass + parentClassSize).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        return Unmanaged<Definition>.fromOpaque(slot.pointee).takeUnretainedValue()
    }

    private static func values(of object: UnsafeMutableRawPointer) -> UnsafeMutablePointer<GValue> {
        (object + parentInstanceSize).assumingMemoryBound(to: UnsafeMutablePointer<GValue>.self).pointee
    }

    private static let classInit: GClassInitFunc = { klass, data in
        guard let klass, let data else { return }
        let definition = Unmanaged<Definition>.fromOpaque(data).takeUnretainedValue()
        (UnsafeMutableRawPointer(klass) + parentClassSize).assumingMemoryBound(to: UnsafeMutableRawPointer.self).pointee =
            UnsafeMutableRawPointer(mutating: data)
        let objectClass = UnsafeMutableRawPointer(klass).assumingMemoryBound(to: GObjectClass.self)
        objectClass.pointee.get_property = getProperty
        objectClass.pointee.set_property = setProperty
        objectClass.pointee.finalize = finalize
        // Notified by setProperty itself, and only on a change.
        let flags = GParamFlags(rawValue: G_PARAM_READWRITE.rawValue | G_PARAM_EXPLICIT_NOTIFY.rawValue)
        for (index, property) in definition.properties.enumerated() {
            let spec: UnsafeMutablePointer<GParamSpec> = switch property.kind {
            case .string: g_param_spec_string(property.name, nil, nil, nil, flags)
            case .int: g_param_spec_int(property.name, nil, nil, gint.min, gint.max, 0, flags)
            case .int64: g_param_spec_int64(property.name, nil, nil, gint64.min, gint64.max, 0, flags)
            case .boolean: g_param_spec_boolean(property.name, nil, nil, 0, flags)
            case let .object(type): g_param_spec_object(property.name, nil, nil, type, flags)
            }
            definition.specs.append(spec)
            g_object_class_install_property(objectClass, guint(index + 1), spec)
        }
    }

    private static let instanceInit: GInstanceInitFunc = { instance, klass in
        guard let instance, let klass else { return }
        let specs = definition(ofClass: UnsafeMutableRawPointer(klass)).specs
        let values = UnsafeMutablePointer<GValue>.allocate(capacity: specs.count)
        values.initialize(repeating: GValue(), count: specs.count)
        for (index, spec) in specs.enumerated() {
            g_value_init(values + index, spec.pointee.value_type)
            g_param_value_set_default(spec, values + index)
        }
        (UnsafeMutableRawPointer(instance) + parentInstanceSize).assumingMemoryBound(to: UnsafeMutablePointer<GValue>.self)
            .pointee = values
    }

    private static let getProperty: @convention(c) (UnsafeMutablePointer<GObject>?, guint, UnsafeMutablePointer<GValue>?,
                                                    UnsafeMutablePointer<GParamSpec>?) -> Void = { object, id, value, _ in
        guard let object, let value else { return }
        g_value_copy(values(of: object) + Int(id - 1), value)
    }

    private static let setProperty: @convention(c) (UnsafeMutablePointer<GObject>?, guint, UnsafePointer<GValue>?,
                                                    UnsafeMutablePointer<GParamSpec>?) -> Void = { object, id, value, spec in
        guard let object, let value, let spec else { return }
        let stored = values(of: object) + Int(id - 1)
        guard g_param_values_cmp(spec, value, stored) != 0 else { return }
        g_value_copy(value, stored)
        g_object_notify_by_pspec(object, spec)
    }

    private static let finalize: @convention(c) (UnsafeMutablePointer<GObject>?) -> Void = { object in
        guard let object else { return }
        let klass = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GTypeInstance.self).pointee.g_class!
        let count = definition(ofClass: UnsafeMutableRawPointer(klass)).specs.count
        let values = values(of: object)
        for index in 0..<count { g_value_unset(values + index) }
        values.deallocate()
        let parent = g_type_class_peek(GType.object).assumingMemoryBound(to: GObjectClass.self)
        parent.pointee.finalize(object)
    }
}

extension GType {
    /// The fundamental types GLib names by macros Swift cannot import (`G_TYPE_MAKE_FUNDAMENTAL`).
    static let boolean = GType(5 << 2)
    static let int = GType(6 << 2)
    static let int64 = GType(10 << 2)
    static let double = GType(15 << 2)
    static let string = GType(16 << 2)
    static let object = GType(20 << 2)
}
